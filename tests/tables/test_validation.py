"""Every act of the tables validates before saving: bad input is a RegulationError naming the
field (and the article), never an IntegrityError or a DataError; nothing is recorded."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino_ops import roles
from tables import services
from tables.models import ControlLine, Shoe, Table
from tests.support.builders import assert_refused
from tests.support.depot_helpers import issue_and_check

D = Decimal


@pytest.mark.django_db
def test_create_table_twice_with_the_same_number_or_code(casino, director):
    services.create_table(actor=director, number=3, code="BJ03")
    with assert_refused("TABLE_NUMBER_TAKEN", field="number", nothing_recorded=True):
        services.create_table(actor=director, number=3, code="BJ99")
    with assert_refused("FIELD_INVALID", field="code", nothing_recorded=True) as refusal:
        services.create_table(actor=director, number=4, code="BJ03")
    err = refusal.value
    assert "code" in err.message
    assert Table.objects.count() == 1


@pytest.mark.django_db
def test_create_table_refuses_a_code_too_long_and_a_number_out_of_range(casino, director):
    with assert_refused("FIELD_INVALID", field="code", nothing_recorded=True):
        services.create_table(actor=director, number=5, code="X" * 17)
    with assert_refused("FIELD_INVALID", field="number", nothing_recorded=True):
        services.create_table(actor=director, number=-1, code="BJ05")
    with assert_refused("FIELD_INVALID", field="number", nothing_recorded=True):
        services.create_table(actor=director, number=40000, code="BJ05")
    with assert_refused("FIELD_INVALID", field="code", nothing_recorded=True):
        services.create_table(actor=director, number=5, code="")
    assert not Table.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("role", [roles.CASHIER, roles.CROUPIER, roles.OFFICER, None])
def test_create_table_is_the_directors_or_the_committees(casino, users, role):
    actor = users[role] if role else None
    with assert_refused("MANAGEMENT_REQUIRED", field="actor", nothing_recorded=True):
        services.create_table(actor=actor, number=6, code="BJ06")
    assert not Table.objects.exists()
    table = services.create_table(actor=users[roles.COMMITTEE], number=6, code="BJ06")
    assert table.number == 6


@pytest.mark.django_db
def test_create_table_cites_the_profiles_article_for_boxes(director, lu_casino):
    with assert_refused("TOO_MANY_BOXES", article="LU art. 32", field="boxes", nothing_recorded=True):
        services.create_table(actor=director, number=7, code="BJ07", boxes=8)


@pytest.mark.django_db
def test_create_table_fr_boxes_article_unchanged(casino, director):
    with assert_refused("TOO_MANY_BOXES", article="FR art. 55-4", field="boxes", nothing_recorded=True):
        services.create_table(actor=director, number=7, code="BJ07", boxes=0)


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
    with assert_refused("FIELD_INVALID", article="FR art. 68", field="result", nothing_recorded=True):
        services.correct_control_line(
            actor=staff["director"], line=line, result=D("1" + "0" * 14), approval="cent", reason="erreur"
        )
    assert ControlLine.objects.count() == 1


@pytest.mark.django_db
def test_an_interruption_amount_too_large_is_refused_by_field(staff, open_session):
    with assert_refused("AMOUNT_INVALID", article="FR art. 69", field="amount", nothing_recorded=True):
        services.interrupt_session(
            actor=staff["croupier"], session=open_session, mode="counted", amount=D("1" + "0" * 13)
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
    with assert_refused("FIELD_INVALID", article="FR art. 55-4 (shoe)", field="label", nothing_recorded=True):
        services.fill_shoe(
            actor=staff["croupier"], session=today_session, deck_ids=[d.pk for d in sixain], label="S" * 65
        )
    assert not Shoe.objects.exists()
