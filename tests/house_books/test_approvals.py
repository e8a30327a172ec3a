"""Approvals by the Minister of Justice (LU art. 51, 54, 63): acts, the rule, register, API, admin."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from casino_ops.regulations import RegulationError
from house_books import services
from house_books.models import Approval
from house_books.selectors import approved_on
from inspection.registers import get_register
from inspection.registers.base import Request

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
D1 = TODAY - dt.timedelta(days=60)
D2 = TODAY - dt.timedelta(days=30)


def _approve(director: Any, person: Any, **kw: Any) -> Approval:
    values = {"function": "staff", "job": "croupier", "approved_on": D1, "reference": "MJ/2026/041"}
    values.update(kw)
    return services.record_approval(actor=director, person=person, **values)


def _director_approved(director: Any, since: dt.date = D1 - dt.timedelta(days=30)) -> Approval:
    """The director's own approval (once the book is kept, he keeps it only while approved)."""
    return _approve(director, director, function="director", job="", approved_on=since)


def test_approved_from_the_approval_until_its_revocation(
    lu_casino: Any, director: Any, croupier: Any
) -> None:
    assert not approved_on(croupier, D1)
    _director_approved(director)
    approval = _approve(director, croupier)
    assert not approved_on(croupier, D1 - dt.timedelta(days=1))  # not before: staff approved before they work
    assert approved_on(croupier, D1) and approved_on(croupier, D2 - dt.timedelta(days=1))
    services.end_approval(
        actor=director, approval=approval, kind="revoked", ended_on=D2, reference="MJ/2026/077"
    )
    assert not approved_on(croupier, D2)  # a revocation ends every power at once
    assert not approved_on(croupier, TODAY)
    assert approved_on(croupier, D2 - dt.timedelta(days=1))
    actions = list(
        AuditEvent.objects.filter(action__startswith="house.approval").values_list("action", flat=True)
    )
    assert sorted(actions) == ["house.approval_ended", "house.approval_recorded", "house.approval_recorded"]


def test_check_approved_cites_lu_51_54_63(lu_casino: Any, director: Any, croupier: Any) -> None:
    with pytest.raises(RegulationError) as refused:
        services.check_approved(croupier, D2, "LU")
    assert refused.value.code == "NOT_APPROVED"
    assert refused.value.article == "LU art. 51, 54, 63"
    assert refused.value.field == "actor"
    _approve(director, croupier)
    services.check_approved(croupier, D2, "LU")  # approved that day: no refusal
    with pytest.raises(RegulationError) as refused:
        services.check_approved(croupier, D1 - dt.timedelta(days=1), "LU", field="witness")
    assert refused.value.field == "witness"
    with pytest.raises(RegulationError) as refused:
        services.check_approved(None, D2, "LU")
    assert refused.value.code == "NOT_APPROVED"


def test_under_fr_the_rule_is_the_casinos_internal_rule(casino: Any, croupier: Any) -> None:
    with pytest.raises(RegulationError) as refused:
        services.check_approved(croupier, D2, "FR")
    assert refused.value.article == "règlement intérieur du casino"


def test_direction_approved_by_the_minister_cites_art_51(
    lu_casino: Any, director: Any, committee: Any
) -> None:
    _director_approved(director)
    with pytest.raises(RegulationError) as refused:
        _approve(director, committee, function="committee", reference=" ")
    assert (refused.value.field, refused.value.article) == ("reference", "LU art. 51")
    _approve(director, committee, function="committee", job="")
    with pytest.raises(RegulationError) as refused:
        _approve(director, committee, function="committee", job="")
    assert refused.value.code == "APPROVAL_ALREADY_IN_FORCE"


@pytest.mark.parametrize(
    ("changes", "field", "code"),
    [
        ({"job": ""}, "job", "APPROVAL_JOB_REQUIRED"),
        ({"function": "king"}, "function", "APPROVAL_FUNCTION_UNKNOWN"),
        ({"approved_on": TODAY + dt.timedelta(days=3)}, "approved_on", "DATE_IN_FUTURE"),
        ({"approved_on": "hier"}, "approved_on", "FIELD_INVALID"),
    ],
)
def test_bad_approvals_refused_on_their_field(
    lu_casino: Any, director: Any, croupier: Any, changes: dict, field: str, code: str
) -> None:
    with pytest.raises(RegulationError) as refused:
        _approve(director, croupier, **changes)
    assert (refused.value.field, refused.value.code) == (field, code)
    assert not Approval.objects.exists()


def test_only_the_director_keeps_the_approvals(lu_casino: Any, committee: Any, croupier: Any) -> None:
    with pytest.raises(RegulationError) as refused:
        _approve(committee, croupier)
    assert refused.value.field == "actor" and refused.value.article == "LU art. 54, 63"


def test_resignation_and_dismissal_are_notified(lu_casino: Any, director: Any, croupier: Any) -> None:
    _director_approved(director)
    approval = _approve(director, croupier)
    with pytest.raises(RegulationError) as refused:
        services.end_approval(
            actor=director, approval=approval, kind="dismissed", ended_on=D2, reference="Faute grave"
        )
    assert refused.value.field == "minister_notified_on"
    with pytest.raises(RegulationError) as refused:
        services.end_approval(
            actor=director,
            approval=approval,
            kind="dismissed",
            ended_on=D2,
            reference="",
            minister_notified_on=D2,
        )
    assert refused.value.field == "reference"
    with pytest.raises(RegulationError) as refused:
        services.end_approval(
            actor=director,
            approval=approval,
            kind="resigned",
            ended_on=D1 - dt.timedelta(days=1),
            reference="Lettre",
            minister_notified_on=D2,
        )
    assert refused.value.field == "ended_on"
    ended = services.end_approval(
        actor=director,
        approval=approval,
        kind="resigned",
        ended_on=D2,
        reference="Lettre du 1er",
        minister_notified_on=D2 + dt.timedelta(days=1),
    )
    assert ended.end_kind == "resigned"
    with pytest.raises(RegulationError) as refused:
        services.end_approval(actor=director, approval=approval, kind="revoked", ended_on=D2, reference="MJ")
    assert refused.value.code == "APPROVAL_ALREADY_ENDED"
    assert AuditEvent.objects.filter(action="house.approval_ended").count() == 1


def test_register_api_and_admin(
    lu_casino: Any, director: Any, croupier: Any, officer: Any, client: Any
) -> None:
    approval = _approve(director, croupier)
    _director_approved(director, D1 + dt.timedelta(days=1))  # listed after the croupier's
    services.end_approval(
        actor=director, approval=approval, kind="revoked", ended_on=D2, reference="MJ/2026/077"
    )
    context = get_register("approvals").context(Request(D1, TODAY))
    cells = [c[0] for c in context["sections"][0]["rows"][0]["cells"]]
    assert "MJ/2026/041" in cells and "MJ/2026/077" in cells
    client.force_login(officer)
    body = json.loads(client.get("/api/house/approvals/").content)
    rows = body["results"] if isinstance(body, dict) else body
    assert rows[0]["person"] == croupier.get_username() and rows[0]["end_kind"] == "revoked"
    client.force_login(director)
    page = client.get("/admin/house_books/approval/add/").content.decode()
    assert croupier.get_username() in page
    response = client.post(
        "/admin/house_books/approval/add/",
        {
            "person": croupier.pk,
            "function": "staff",
            "job": "",
            "approved_on": TODAY.isoformat(),
            "reference": "X",
        },
    )
    assert response.status_code == 200 and "LU art. 54, 63" in response.content.decode()
    response = client.post(
        "/admin/house_books/approval/add/",
        {
            "person": croupier.pk,
            "function": "staff",
            "job": "croupier",
            "approved_on": TODAY.isoformat(),
            "reference": "MJ/2",
        },
    )
    assert response.status_code == 302
    again = Approval.objects.get(reference="MJ/2")
    response = client.post(
        "/admin/house_books/approvalendentry/add/",
        {
            "approval": again.pk,
            "kind": "dismissed",
            "ended_on": TODAY.isoformat(),
            "reference": "Faute",
            "minister_notified_on": TODAY.isoformat(),
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert not approved_on(croupier, TODAY)


def test_the_gate_reads_the_approvals_in_force_as_the_query_does(
    lu_casino: Any, director: Any, croupier: Any, cashier: Any, committee: Any
) -> None:
    """The gate judges a person's rows in Python (``rules.approvals.in_force_on``); the books'
    checks and lists ask PostgreSQL (``approved_on``): both read the same approvals in force, day
    by day, through an approval ended, one revoked and one held beside a revocation, and for a
    person without any while the book is kept."""
    from house_books.selectors import approvals_in_force

    _director_approved(director)
    first = _approve(director, croupier, approved_on=D1)
    services.end_approval(
        actor=director,
        approval=first,
        kind="resigned",
        ended_on=D1 + dt.timedelta(days=5),
        reference="MJ/2026/050",
        minister_notified_on=D1 + dt.timedelta(days=5),
    )
    _approve(director, croupier, approved_on=D1 + dt.timedelta(days=10), reference="MJ/2026/051")
    held = _approve(director, cashier, approved_on=D1, function="staff", job="cashier")
    services.end_approval(actor=director, approval=held, kind="revoked", ended_on=D2, reference="MJ/2026/077")
    people = [director, croupier, cashier, committee]
    for offset in range(-35, 70, 1):
        day = D1 + dt.timedelta(days=offset)
        kept, approved = approvals_in_force(people, day)
        assert kept
        assert approved == {p.pk for p in people if approved_on(p, day)}, day
    assert approvals_in_force([committee], D2) == (True, set())


@pytest.mark.parametrize(
    ("held", "day", "expected"),
    [
        ([], D2, False),
        ([(D1, None, "")], D1 - dt.timedelta(days=1), False),
        ([(D1, None, "")], D1, True),
        ([(D1, D2, "resigned")], D2 - dt.timedelta(days=1), True),
        ([(D1, D2, "resigned")], D2, False),
        ([(D1, D2, "revoked")], D2, False),
        # a revocation ends every power, the other approval held beside it too (LU art. 51 IV)
        ([(D1, None, ""), (D1, D2, "revoked")], D2, False),
        ([(D1, None, ""), (D1, D2, "revoked")], D2 - dt.timedelta(days=1), True),
        # an approval given after the revocation holds
        ([(D1, D2, "revoked"), (D2 + dt.timedelta(days=1), None, "")], TODAY, True),
    ],
)
def test_in_force_on_reads_the_rows_of_one_person(held: list[Any], day: dt.date, expected: bool) -> None:
    from house_books.rules.approvals import in_force_on

    assert in_force_on(held, day) is expected
