"""LU art. 51, 54, 63: every act by a person of the casino, whatever its book, is refused to a
person whose approval is not in force on the gaming day it is done (the gate of
``casino_ops.access.require``): a revoked director orders nothing, closes no day, approves no
correction, keeps no approval and writes no orphan; a revoked croupier reports no incident,
locks no box, reopens none, deals no hand log. A re-approval is never dated on or before the
revocation it would erase (``APPROVAL_BEFORE_REVOCATION``), and another approval of the same
person never launders a revocation."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from casino_ops import access, roles
from casino_ops.access import ACTS, Act
from house_books import services
from house_books.models import Approval
from house_books.selectors import approved_on
from tests.support.bank_failure import seances  # noqa: F401 - the fixture
from tests.support.builders import assert_refused, gaming_day

pytestmark = pytest.mark.django_db

ARTICLE = "LU art. 51, 54, 63"
#: the acts the casino's people perform (an officer's and the machine's are not the casino's)
PEOPLES_ACTS = [act for act, rule in ACTS.items() if set(rule.roles) - {roles.OFFICER, roles.MACHINE}]


def _since() -> dt.date:
    return gaming_day() - dt.timedelta(days=100)


@pytest.fixture
def people(lu_casino: Any, users: dict[str, Any]) -> dict[str, Any]:
    """The director, a committee member, the croupier and the cashier, approved 100 days ago."""
    director = users[roles.DIRECTOR]
    for role, function, job in (
        (roles.DIRECTOR, "director", ""),
        (roles.COMMITTEE, "committee", ""),
        (roles.CROUPIER, "staff", "croupier"),
        (roles.CASHIER, "staff", "caissier"),
    ):
        services.record_approval(
            actor=director,
            person=users[role],
            function=function,
            job=job,
            approved_on=_since(),
            reference=f"MJ/{role}",
        )
    return users


def _revoke(director: Any, person: Any, on: dt.date | None = None) -> None:
    for approval in Approval.objects.filter(person=person, ended_on__isnull=True):
        services.end_approval(
            actor=director,
            approval=approval,
            kind="revoked",
            ended_on=on or gaming_day() - dt.timedelta(days=1),
            reference="MJ/REV/77",
        )


def _performer(act: Act, users: dict[str, Any]) -> Any:
    role = next(r for r in ACTS[act].roles if r not in (roles.OFFICER, roles.MACHINE))
    return users[role]


@pytest.mark.parametrize("act", PEOPLES_ACTS, ids=str)
def test_every_act_of_a_revoked_person_is_refused_at_the_gate(act: Act, people: dict[str, Any]) -> None:
    person = _performer(act, people)
    access.require(person, act, profile="LU")  # approved: the gate lets him act
    director = people[roles.DIRECTOR]
    others = [p for p in people.values() if p != director and not roles.has_role(p, roles.OFFICER)]
    for other in others:
        _revoke(director, other)
    _revoke(director, director)  # the director's own revocation, last: then he does nothing more
    with assert_refused("NOT_APPROVED", article=ARTICLE, field="actor") as refusal:
        access.require(person, act, profile="LU")
    assert "révoqué" in refusal.value.message and "MJ/REV/77" in refusal.value.message


def test_the_officer_and_the_machine_are_not_the_casinos_to_approve(people: dict[str, Any]) -> None:
    _revoke(people[roles.DIRECTOR], people[roles.DIRECTOR])
    access.require(people[roles.OFFICER], Act.VISA, profile="LU")
    access.require(people[roles.MACHINE], Act.UPLOAD_HAND_LOG, profile="LU")


def _director_acts(director: Any) -> dict[str, Callable[[], Any]]:
    from cards_registry import services as depot
    from tables import services as tables

    day = gaming_day() - dt.timedelta(days=1)
    return {
        "order": lambda: depot.create_order(actor=director, manufacturer=None, ordered_on=day, lines=[]),
        "day closing": lambda: tables.close_day(actor=director, day=day),
        "correction": lambda: tables.correct_control_line(
            actor=director, line=None, result=Decimal("1.00"), approval="Approuvé", reason="Erreur"
        ),
        "depot correction": lambda: depot.record_correction(
            actor=director, entry=None, field="note", new_value="x", reason="Erreur", approval="Approuvé"
        ),
        "approval": lambda: services.record_approval(
            actor=director,
            person=None,
            function="staff",
            job="croupier",
            approved_on=day,
            reference="MJ/9",
        ),
        "orphan": lambda: services.record_orphan(
            actor=director, found_at=None, kind="amount", description="Plaque", amount="10.00"
        ),
    }


@pytest.mark.parametrize(
    "name", ["order", "day closing", "correction", "depot correction", "approval", "orphan"]
)
def test_a_revoked_director_does_no_act_at_all(name: str, people: dict[str, Any]) -> None:
    director = people[roles.DIRECTOR]
    _revoke(director, director)
    with assert_refused("NOT_APPROVED", article=ARTICLE, field="actor", nothing_recorded=True):
        _director_acts(director)[name]()


def test_a_revoked_croupier_reports_no_incident(people: dict[str, Any]) -> None:
    from cards_registry import services as depot

    director, croupier = people[roles.DIRECTOR], people[roles.CROUPIER]
    _revoke(director, croupier)
    with assert_refused("NOT_APPROVED", article=ARTICLE, field="actor", nothing_recorded=True):
        depot.report_incident(
            actor=croupier,
            kind="marked",
            occurred_at=None,
            day=gaming_day(),
            decks=[],
            officer_informed=people[roles.OFFICER],
            officer_informed_at=None,
            circumstances="Carte marquée",
        )


# -- re-approvals never erase a revocation ---------------------------------------------------------


def test_a_re_approval_is_never_dated_on_or_before_the_revocation(people: dict[str, Any]) -> None:
    director, croupier = people[roles.DIRECTOR], people[roles.CROUPIER]
    revoked_on = gaming_day() - dt.timedelta(days=10)
    _revoke(director, croupier, revoked_on)
    for day in (revoked_on, revoked_on - dt.timedelta(days=5)):
        with assert_refused(
            "APPROVAL_BEFORE_REVOCATION", article=ARTICLE, field="approved_on", nothing_recorded=True
        ) as refusal:
            services.record_approval(
                actor=director,
                person=croupier,
                function="staff",
                job="croupier",
                approved_on=day,
                reference="X",
            )
        assert "MJ/REV/77" in refusal.value.message
    # nor under another function: the revocation ended every power (LU art. 51 IV)
    with assert_refused("APPROVAL_BEFORE_REVOCATION", field="approved_on"):
        services.record_approval(
            actor=director, person=croupier, function="committee", approved_on=revoked_on, reference="X"
        )
    assert not approved_on(croupier, revoked_on)
    # the minister's new approval, after the revocation: in force from its day only
    services.record_approval(
        actor=director,
        person=croupier,
        function="staff",
        job="croupier",
        approved_on=revoked_on + dt.timedelta(days=1),
        reference="MJ/NEW",
    )
    assert approved_on(croupier, revoked_on + dt.timedelta(days=1))
    assert not approved_on(croupier, revoked_on)


def test_another_approval_never_launders_a_revocation(people: dict[str, Any]) -> None:
    """The croupier also approved as a committee member: the revocation of one approval ends
    every power, the other's included."""
    director, croupier = people[roles.DIRECTOR], people[roles.CROUPIER]
    services.record_approval(
        actor=director, person=croupier, function="committee", approved_on=_since(), reference="MJ/C"
    )
    staff = Approval.objects.get(person=croupier, function="staff")
    revoked_on = gaming_day() - dt.timedelta(days=3)
    services.end_approval(actor=director, approval=staff, kind="revoked", ended_on=revoked_on, reference="R")
    assert approved_on(croupier, revoked_on - dt.timedelta(days=1))
    assert not approved_on(croupier, revoked_on) and not approved_on(croupier, gaming_day())
    with assert_refused("NOT_APPROVED", article=ARTICLE, field="actor"):
        access.require(croupier, Act.COUNT, profile="LU")


def test_the_gate_and_the_acts_own_check_read_the_approvals_once(
    people: dict[str, Any], django_assert_num_queries: Any
) -> None:
    from casino_ops import act_checks

    director = people[roles.DIRECTOR]
    roles.roles_of(director)
    day = gaming_day()
    with django_assert_num_queries(1):
        access.require(director, Act.DEPOT, profile="LU")
        act_checks.run(act_checks.Hook.DEPOT_ISSUE, day=day, profile="LU", people={"actor": director})


# -- the people an act of the tables names ---------------------------------------------------------


def test_a_revoked_person_neither_holds_nor_reopens_the_box_nor_deals_a_hand_log(
    people: dict[str, Any],
    seances: list[Any],  # noqa: F811
) -> None:
    """The box locked at an interruption is kept by an approved person and reopened by one; the
    croupier who dealt the rounds of a hand log holds his approval on the séance's day (the
    uploader being the hand-log machine, not a person of the casino)."""
    from tables.clock import history_at
    from tables.models import HandLog
    from tables.services import interrupt_session, resume_session, upload_hand_log
    from tests.support import builders
    from tests.support.bank_failure import D, lu_hand_log, on_failure_day

    director, committee, croupier = people[roles.DIRECTOR], people[roles.COMMITTEE], people[roles.CROUPIER]
    session, other = seances
    builders.shoe(session, croupier=croupier, label="S1", hour=20)
    with history_at(on_failure_day(21)):
        interrupt_session(actor=croupier, session=other, mode="locked", key_holder=committee)
    _revoke(director, croupier, D)
    _revoke(director, committee, D)
    with history_at(on_failure_day(21, 30)):
        with assert_refused("NOT_APPROVED", article=ARTICLE, field="key_holder", nothing_recorded=True):
            interrupt_session(actor=director, session=session, mode="locked", key_holder=croupier)
        with assert_refused("NOT_APPROVED", article=ARTICLE, field="actor", nothing_recorded=True):
            resume_session(actor=committee, session=other)
        with assert_refused("NOT_APPROVED", article=ARTICLE, field="croupier", nothing_recorded=True):
            upload_hand_log(
                actor=people[roles.MACHINE], session=session, raw=lu_hand_log(session, "S1"), source="api"
            )
    assert not HandLog.objects.exists()


def test_a_croupier_sending_his_own_hand_log_holds_his_approval_on_the_seances_day(
    people: dict[str, Any],
    seances: list[Any],  # noqa: F811
) -> None:
    """The croupier who sends the log of the rounds he dealt is approved today (the gate lets him
    act) and is checked again on the séance's day: approved again only since the day after, the
    rounds he dealt before are refused to him (LU art. 51, 54, 63)."""
    from tables.models import HandLog
    from tables.services import upload_hand_log
    from tests.support import builders
    from tests.support.bank_failure import D, lu_hand_log

    director, croupier = people[roles.DIRECTOR], people[roles.CROUPIER]
    session, _other = seances
    builders.shoe(session, croupier=croupier, label="S1", hour=20)
    _revoke(director, croupier, D)
    services.record_approval(
        actor=director,
        person=croupier,
        function="staff",
        job="croupier",
        approved_on=D + dt.timedelta(days=1),
        reference="MJ/RE/78",
    )
    assert approved_on(croupier, gaming_day()) and not approved_on(croupier, D)
    with assert_refused("NOT_APPROVED", article=ARTICLE, field="croupier", nothing_recorded=True):
        upload_hand_log(actor=croupier, session=session, raw=lu_hand_log(session, "S1"), source="api")
    assert not HandLog.objects.exists()
