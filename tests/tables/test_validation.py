"""Every act of the tables validates before saving: bad input is a RegulationError naming the
field (and the article), never an IntegrityError or a DataError; nothing is recorded."""

from __future__ import annotations

from decimal import Decimal

import pytest

from audit.models import AuditEvent
from casino_ops import roles
from casino_ops.regulations import RegulationError
from tables import services
from tables.models import ControlLine, Shoe, Table
from tests.depot_helpers import issue_and_check

D = Decimal


def _refused(call, code, field, article=None):
    events = AuditEvent.objects.count()
    with pytest.raises(RegulationError) as info:
        call()
    err = info.value
    assert err.code == code, err.as_dict()
    assert err.field == field, err.as_dict()
    if article is not None:
        assert err.article == article, err.as_dict()
    assert AuditEvent.objects.count() == events
    return err


@pytest.mark.django_db
def test_create_table_twice_with_the_same_number_or_code(casino, director):
    services.create_table(actor=director, number=3, code="BJ03")
    _refused(
        lambda: services.create_table(actor=director, number=3, code="BJ99"), "TABLE_NUMBER_TAKEN", "number"
    )
    err = _refused(
        lambda: services.create_table(actor=director, number=4, code="BJ03"), "FIELD_INVALID", "code"
    )
    assert "code" in err.message
    assert Table.objects.count() == 1


@pytest.mark.django_db
def test_create_table_refuses_a_code_too_long_and_a_number_out_of_range(casino, director):
    _refused(lambda: services.create_table(actor=director, number=5, code="X" * 17), "FIELD_INVALID", "code")
    _refused(lambda: services.create_table(actor=director, number=-1, code="BJ05"), "FIELD_INVALID", "number")
    _refused(
        lambda: services.create_table(actor=director, number=40000, code="BJ05"), "FIELD_INVALID", "number"
    )
    _refused(lambda: services.create_table(actor=director, number=5, code=""), "FIELD_INVALID", "code")
    assert not Table.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("role", [roles.CASHIER, roles.CROUPIER, roles.OFFICER, None])
def test_create_table_is_the_directors_or_the_committees(casino, users, role):
    actor = users[role] if role else None
    _refused(
        lambda: services.create_table(actor=actor, number=6, code="BJ06"), "MANAGEMENT_REQUIRED", "actor"
    )
    assert not Table.objects.exists()
    table = services.create_table(actor=users[roles.COMMITTEE], number=6, code="BJ06")
    assert table.number == 6


@pytest.mark.django_db
def test_create_table_cites_the_profiles_article_for_boxes(director, lu_casino):
    _refused(
        lambda: services.create_table(actor=director, number=7, code="BJ07", boxes=8),
        "TOO_MANY_BOXES",
        "boxes",
        "LU art. 32",
    )


@pytest.mark.django_db
def test_create_table_fr_boxes_article_unchanged(casino, director):
    _refused(
        lambda: services.create_table(actor=director, number=7, code="BJ07", boxes=0),
        "TOO_MANY_BOXES",
        "boxes",
        "FR art. 55-4",
    )


@pytest.mark.django_db
def test_a_control_line_correction_too_large_is_refused_by_field(staff, open_session):
    services.close_session(
        actor=staff["director"],
        session=open_session,
        closing_cash=D("31000.00"),
        counted_by=staff["croupier"],
        certified_exact=True,
    )
    line = ControlLine.objects.get()
    _refused(
        lambda: services.correct_control_line(
            actor=staff["director"], line=line, result=D("1" + "0" * 14), approval="cent", reason="erreur"
        ),
        "FIELD_INVALID",
        "result",
        "FR art. 68",
    )
    assert ControlLine.objects.count() == 1


@pytest.mark.django_db
def test_an_interruption_amount_too_large_is_refused_by_field(staff, open_session):
    _refused(
        lambda: services.interrupt_session(
            actor=staff["croupier"], session=open_session, mode="counted", amount=D("1" + "0" * 13)
        ),
        "AMOUNT_INVALID",
        "amount",
        "FR art. 69",
    )
    open_session.refresh_from_db()
    assert open_session.status == "open"


@pytest.mark.django_db
def test_a_shoe_label_too_long_is_refused_by_field(staff, depot_decks, today_session):
    sixain = [d for d in depot_decks if d.serial.startswith("A1-")]
    issue_and_check(
        director=staff["director"],
        croupier=staff["croupier"],
        table_number=today_session.table.number,
        day=today_session.day,
        decks=sixain,
    )
    _refused(
        lambda: services.fill_shoe(
            actor=staff["croupier"], session=today_session, deck_ids=[d.pk for d in sixain], label="S" * 65
        ),
        "FIELD_INVALID",
        "label",
        "FR art. 55-4 (shoe)",
    )
    assert not Shoe.objects.exists()
