"""casino_ops.access: who may perform each regulated act, and the one refusal for a missing role."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from casino_ops import access, roles
from casino_ops.access import ACTS, Act, RoleRequired
from casino_ops.regulations import RegulationError

# Who may perform each act, WRITTEN OUT (D director, C committee member, T table chief,
# K cashier, O officer, M the hand-log machine); the table of casino_ops.access must agree.
EXPECTED: dict[Act, str] = {
    Act.CASINO_SETTINGS: "D",
    Act.DEPOT_SETTINGS: "D",
    Act.DEPOT: "DC",
    Act.HOLD_KEY: "DC",
    Act.CHECK_AT_TABLE: "DCT",
    Act.REPORT_INCIDENT: "DCT",
    Act.RECORD_INCIDENT_NOTICE: "DCO",
    Act.APPROVE_DEPOT_CORRECTION: "D",
    Act.PUT_ON_FLOOR: "DC",
    Act.SIGN_ADVANCE: "DC",
    Act.COUNT: "DCT",
    Act.HOLD_BOX_KEY: "DCT",
    Act.BE_PRESENT_AS_CASHIER: "K",
    Act.FIX_MAXIMUM: "D",
    Act.FIX_MAXIMUM_AS_DELEGATE: "C",
    Act.GRANT_DELEGATION: "D",
    Act.BE_DELEGATE: "C",
    Act.RECORD_AUTHORISED_MINIMUM: "D",
    Act.STAMP_AUTHORISED_MINIMUM: "O",
    Act.RECORD_MINISTRY_NOTICE: "D",
    Act.CONTROL_REGISTER: "D",
    Act.STAMP_CONTROL_REGISTER: "O",
    Act.UPLOAD_HAND_LOG: "DCTM",
    Act.ACKNOWLEDGE_DISCREPANCIES: "D",
    Act.HOUSE_BOOKS: "DC",
    Act.TRANSFER_ORPHANS: "D",
    Act.APPROVALS: "D",
    Act.COUNT_TIPS: "DCK",
    Act.ASSIGN_DEVICE: "D",
    Act.CLOSE_DOWN: "D",
    Act.REFUSE_ENTRY: "DC",
    Act.GRANT_ROLES: "D",
    Act.REQUEST_REGISTER: "DC",
    Act.READ: "O",
    Act.VISA: "O",
    Act.CLOSE_INCIDENT: "O",
    Act.PRINT: "O",
    Act.DEMAND_OPENING: "O",
}
LETTER = {
    roles.DIRECTOR: "D",
    roles.COMMITTEE: "C",
    roles.CROUPIER: "T",
    roles.CASHIER: "K",
    roles.OFFICER: "O",
    roles.MACHINE: "M",
}


def test_every_act_has_its_expectation() -> None:
    assert set(EXPECTED) == set(Act) == set(ACTS)


def _each_role_may_or_is_refused(act: Any, users: dict[str, Any], allowed: set[str], code: str) -> None:
    """Each role's user may perform ``act`` when his role is ``allowed``, else is refused with
    ``code`` on the field ``actor``."""
    for role, user in users.items():
        assert access.may(user, act) is (role in allowed), (act, role)
        if role in allowed:
            access.require(user, act)
        else:
            with pytest.raises(RoleRequired) as refused:
                access.require(user, act)
            assert (refused.value.code, refused.value.field, refused.value.act) == (code, "actor", act)


@pytest.mark.django_db
@pytest.mark.parametrize("act", list(Act))
def test_may_and_require_per_role(act: Act, users: dict[str, Any], casino: Any) -> None:
    _each_role_may_or_is_refused(act, users, {r for r in users if LETTER[r] in EXPECTED[act]}, ACTS[act].code)


@pytest.mark.django_db
@pytest.mark.parametrize("act", access.declared_acts(), ids=str)
def test_a_declared_act_by_the_row_it_declares(act: Act, users: dict[str, Any], casino: Any) -> None:
    """An act declared beside its service (access.declare, tests/recipe_example) brings its row:
    its roles may, the others are refused with its code, as the acts of the table are."""
    rule = access.rule_of(act)
    assert act not in ACTS and act not in list(Act) and access.roles_for(act) == rule.roles
    _each_role_may_or_is_refused(act, users, set(rule.roles), rule.code)


@pytest.mark.django_db
def test_nobody_without_a_role(users: dict[str, Any], casino: Any) -> None:
    director = users[roles.DIRECTOR]
    for nobody in (None, AnonymousUser()):
        assert not any(access.may(nobody, act) for act in Act)
        with pytest.raises(RoleRequired):
            access.require(nobody, Act.DEPOT)
    director.is_active = False
    assert not access.may(director, Act.CONTROL_REGISTER)


@pytest.mark.django_db
def test_role_required_is_one_refusal_with_code_and_article(users: dict[str, Any], casino: Any) -> None:
    with pytest.raises(RoleRequired) as refused:
        access.require(users[roles.CROUPIER], Act.SIGN_ADVANCE, profile="FR")
    error = refused.value
    assert isinstance(error, RegulationError) and isinstance(error, PermissionDenied)
    assert (error.code, error.article) == ("SIGNATURE_REQUIRED", "FR art. 69")
    assert error.as_dict() == {
        "code": "SIGNATURE_REQUIRED",
        "message": str(ACTS[Act.SIGN_ADVANCE].message),
        "article": "FR art. 69",
        "field": "actor",
    }
    with pytest.raises(RoleRequired) as refused:
        access.require(users[roles.CROUPIER], Act.HOLD_KEY, profile="LU")
    assert refused.value.article == "LU art. 6"
    # The casino's profile when none is given (the test casino is FR).
    with pytest.raises(RoleRequired) as refused:
        access.require(users[roles.CASHIER], Act.CONTROL_REGISTER)
    assert (refused.value.code, refused.value.article) == ("DIRECTOR_REQUIRED", "FR art. 68")
    # Where the regulation names nobody, the refusal cites no article.
    with pytest.raises(RoleRequired) as refused:
        access.require(users[roles.COMMITTEE], Act.CASINO_SETTINGS)
    assert (refused.value.code, refused.value.article) == ("ROLE_REQUIRED", "")


@pytest.mark.django_db
def test_a_named_person_without_the_role_is_bad_input(users: dict[str, Any], casino: Any) -> None:
    with pytest.raises(RegulationError) as refused:
        access.require_named(users[roles.CASHIER], Act.COUNT, field="counted_by", profile="FR")
    assert not isinstance(refused.value, RoleRequired)
    assert (refused.value.code, refused.value.field, refused.value.article) == (
        "COUNTED_BY_STAFF",
        "counted_by",
        "FR art. 69",
    )


@pytest.mark.django_db
def test_restrict(users: dict[str, Any], casino: Any) -> None:
    from django.contrib.auth import get_user_model

    everyone = get_user_model().objects.all()
    assert access.restrict(users[roles.OFFICER], everyone).count() == len(users)
    assert not access.restrict(users[roles.DIRECTOR], everyone).exists()
    assert not access.restrict(None, everyone, Act.VISA).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("role", [roles.CASHIER, roles.CROUPIER, roles.OFFICER, roles.MACHINE, None])
def test_create_table_refused_without_the_role(role: str | None, users: dict[str, Any], casino: Any) -> None:
    from tables.models import Table
    from tables.services import create_table

    actor = users[role] if role else None
    with pytest.raises(RoleRequired) as refused:
        create_table(actor=actor, number=9, code="BJ09")
    assert refused.value.code == "MANAGEMENT_REQUIRED"
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_the_depot_and_the_settings_refuse_alike(users: dict[str, Any], casino: Any) -> None:
    from cards_registry.services import set_max_sixains
    from house_books.services import update_casino_settings

    with pytest.raises(RoleRequired):
        set_max_sixains(actor=users[roles.COMMITTEE], max_sixains=10)
    with pytest.raises(RoleRequired):
        update_casino_settings(actor=users[roles.COMMITTEE], name="X")


@pytest.mark.django_db
def test_the_api_answers_a_missing_role_with_403_and_the_refusal(
    client: Any, users: dict[str, Any], casino: Any
) -> None:
    from django.utils import timezone

    from tables.clock import history_at
    from tables.models import AdvanceEntry
    from tables.services import create_table, open_session

    director, croupier = users[roles.DIRECTOR], users[roles.CROUPIER]
    table = create_table(actor=director, number=3, code="BJ03")
    today = timezone.localdate()
    with history_at(dt.datetime.combine(today, dt.time(14))):
        session = open_session(
            actor=director,
            table=table,
            day=today,
            minimum=Decimal("10.00"),
            maximum=Decimal("1000.00"),
            advance_amount=Decimal("30000.00"),
            croupier=croupier,
        )
    lines = AdvanceEntry.objects.count()
    client.force_login(croupier)  # he counts; the signature is management's (FR art. 69)
    response = client.post(
        f"/api/tables/sessions/{session.pk}/advances/",
        data={"amount": "30000.00", "counted_by": croupier.username},
        content_type="application/json",
    )
    assert response.status_code == 403, response.content
    assert response.json() == {
        "code": "SIGNATURE_REQUIRED",
        "message": str(ACTS[Act.SIGN_ADVANCE].message),
        "article": "FR art. 69",
        "field": "actor",
    }
    assert AdvanceEntry.objects.count() == lines


def test_the_exception_handler_keeps_400_for_other_refusals() -> None:
    from casino_ops.api import exception_handler

    refused = exception_handler(RegulationError("X", "non", "FR art. 39", field="f"), {})
    assert refused is not None and refused.status_code == 400
    missing = exception_handler(RoleRequired(Act.DEPOT, "ROLE_REQUIRED", "non", "FR art. 39"), {})
    assert missing is not None and missing.status_code == 403
    assert set(missing.data) == {"code", "message", "article", "field"}
