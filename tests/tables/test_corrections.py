"""A correction obeys the rules of the act it corrects (FR art. 42, 49, 68, 69; LU art. 9, 10,
22), a correction after the officer's visa voids that visa (FR art. 72: the day needs a new one,
and the self-inspection names it until then), and the total written at the day's closing always
equals the day's lines."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from audit.actions import Action
from audit.models import AuditEvent
from casino_ops.dates import amount
from tables import selectors, services
from tables.models import ControlDay, EntryKind
from tests.support import builders
from tests.support.builders import assert_refused
from tests.support.self_inspection import breaches_of

from .conftest import DAY, at_day

D = Decimal
APPROVAL = "Approuvé : trente mille euros"


def _breaches(name, day=None):
    return breaches_of(name, day)


def _correct(staff, entry, amount, **kwargs):
    return services.correct_advance_entry(
        actor=staff["director"],
        entry=entry,
        amount=D(amount),
        approval=kwargs.get("approval", APPROVAL),
        reason=kwargs.get("reason", "erreur d'écriture"),
    )


def _close(staff, session, cash, hour=23):
    with at_day(session.day, hour):
        services.close_session(
            actor=staff["director"],
            session=session,
            closing_cash=D(cash),
            counted_by=staff["croupier"],
            certified_exact=True,
        )


@pytest.mark.django_db
def test_a_corrected_initial_advance_obeys_the_advance_rules(staff, open_session):
    initial = open_session.entries.get(kind=EntryKind.INITIAL_ADVANCE)
    # FR art. 49: at least 3,000 times the minimum (10): 100 is refused, as at the opening
    with assert_refused("ADVANCE_TOO_SMALL", article="FR art. 49", field="amount", nothing_recorded=True):
        _correct(staff, initial, "100.00")
    assert not open_session.entries.filter(kind=EntryKind.CORRECTION).exists()
    # 30,000 → 45,000 is within the rules when nothing else fixes the advance
    correction = _correct(staff, initial, "45000.00")
    assert correction.amount == D("45000.00")
    open_session.refresh_from_db()
    assert open_session.advances_total == D("45000.00")
    # a further advance is then equal to the corrected initial advance
    with assert_refused("ADVANCE_NOT_EQUAL", field="amount"):
        services.add_advance(
            actor=staff["director"], session=open_session, amount=D("30000.00"), counted_by=staff["croupier"]
        )
    services.add_advance(
        actor=staff["director"], session=open_session, amount=D("45000.00"), counted_by=staff["croupier"]
    )


@pytest.mark.django_db
def test_a_corrected_advance_stays_fixed_for_the_exercise_and_the_day(staff, open_session, table):
    _close(staff, open_session, "30000.00")
    later = builders.open_session(
        table, director=staff["director"], croupier=staff["croupier"], day=DAY + dt.timedelta(days=1)
    )
    initial = later.entries.get(kind=EntryKind.INITIAL_ADVANCE)
    # FR art. 49: the advance is fixed for the exercise (30,000 for a minimum of 10)
    with assert_refused(
        "ADVANCE_FIXED_FOR_YEAR", article="FR art. 49", field="amount", nothing_recorded=True
    ):
        _correct(staff, initial, "90000.00")
    # and the first séance's advance is not corrected away from the later one's either
    first = open_session.entries.get(kind=EntryKind.INITIAL_ADVANCE)
    with assert_refused("ADVANCE_FIXED_FOR_YEAR", field="amount", nothing_recorded=True):
        _correct(staff, first, "90000.00")


@pytest.mark.django_db
def test_a_corrected_further_advance_equals_the_initial_one(staff, open_session):
    further = services.add_advance(
        actor=staff["director"], session=open_session, amount=D("30000.00"), counted_by=staff["croupier"]
    )
    with assert_refused("ADVANCE_NOT_EQUAL", article="FR art. 42", field="amount", nothing_recorded=True):
        _correct(staff, further, "31000.00")
    # the initial advance is not corrected away from the further advances either
    initial = open_session.entries.get(kind=EntryKind.INITIAL_ADVANCE)
    with assert_refused("ADVANCE_NOT_EQUAL", field="amount", nothing_recorded=True):
        _correct(staff, initial, "45000.00")


@pytest.mark.django_db
def test_lu_a_corrected_advance_stays_within_the_guarantee_fund(lu_casino, staff, table):
    builders.shoe_for(table, DAY, staff["director"])
    with at_day(DAY):
        session = services.open_session(
            actor=staff["director"],
            table=table,
            day=DAY,
            minimum=D("5.00"),
            maximum=D("500.00"),
            advance_amount=D("20000.00"),
            guarantee_fund=D("25000.00"),
            croupier=staff["croupier"],
        )
    initial = session.entries.get(kind=EntryKind.INITIAL_ADVANCE)
    with assert_refused(
        "GUARANTEE_FUND_TOO_SMALL", article="LU art. 22", field="amount", nothing_recorded=True
    ):
        _correct(staff, initial, "90000.00")
    _correct(staff, initial, "25000.00")


@pytest.mark.django_db
def test_the_total_written_at_closing_follows_the_corrections(staff, open_session):
    _close(staff, open_session, "31000.00")
    control_day = services.close_day(actor=staff["director"], day=DAY)
    assert control_day.total == D("1000.00")
    closing = open_session.entries.get(kind=EntryKind.CLOSING)
    _correct(staff, closing, "31500.00")
    control_day.refresh_from_db()
    register = selectors.control_register(DAY)
    assert control_day.total == register["total"] == D("1500.00")
    assert register["total_at_closing"] == register["total"]
    [line] = [row for row in register["lines"] if not row["is_correction"]]
    services.correct_control_line(
        actor=staff["director"],
        line=open_session.control_lines.get(corrects__isnull=True),
        result=D("1400.00"),
        approval="Approuvé : mille quatre cents",
        reason="erreur de report",
    )
    control_day.refresh_from_db()
    assert control_day.total == selectors.control_register(DAY)["total"] == D("1400.00")
    event = AuditEvent.objects.filter(action=Action.CONTROL_REGISTER_CORRECTED).latest("id")
    assert '"day_total":"1400.00"' in event.payload.replace(" ", "")
    assert not _breaches("tables.day_total_differs")


@pytest.mark.django_db
def test_a_total_that_differs_from_the_lines_is_named(staff, open_session):
    from django.db import connection

    _close(staff, open_session, "31000.00")
    services.close_day(actor=staff["director"], day=DAY)
    assert not _breaches("tables.day_total_differs")
    with connection.cursor() as cursor:  # written outside any act (the column may move)
        cursor.execute("UPDATE tables_controlday SET total = 0 WHERE day = %s", [DAY])
    [breach] = _breaches("tables.day_total_differs", DAY)
    assert breach.article == "FR art. 72" and "30/11/2026" in breach.object
    assert amount(D("1000.00")) in breach.detail and amount(D("0.00")) in breach.detail


@pytest.mark.django_db
def test_a_correction_after_the_visa_voids_it(staff, open_session, client):
    _close(staff, open_session, "31000.00")
    control_day = services.close_day(actor=staff["director"], day=DAY)
    services.stamp_control_day(actor=staff["officer"], control_day=control_day, remark="vu")
    assert not _breaches("tables.day_visa_voided")
    closing = open_session.entries.get(kind=EntryKind.CLOSING)
    _correct(staff, closing, "31500.00")
    control_day.refresh_from_db()
    # the visa no longer holds: the day awaits a new one
    assert not control_day.is_stamped and control_day.stamped_by is None
    assert control_day in selectors.control_days_to_stamp()
    event = AuditEvent.objects.get(action=Action.ADVANCE_BOOK_CORRECTED)
    assert '"visa_voided"' in event.payload
    register = selectors.control_register(DAY)
    [corrected] = [row for row in register["lines"] if row["is_correction"]]
    assert corrected["after_visa"] is True
    assert register["visa_voided"] is True
    # the officer's portal shows the line "rectifiée après visa"
    client.force_login(staff["officer"])
    page = client.get(f"/inspection/registre-de-controle/?day={DAY.isoformat()}").content.decode()
    assert "rectifiée après visa" in page
    # named at once, the day of the correction, until the officer stamps the day again
    [breach] = _breaches("tables.day_visa_voided", DAY)
    assert breach.article == "FR art. 72" and "30/11/2026" in breach.object
    assert _breaches("tables.day_visa_voided")
    services.stamp_control_day(actor=staff["officer"], control_day=control_day, remark="revu")
    assert not _breaches("tables.day_visa_voided")
    # the line still says it was corrected after a visa
    [corrected] = [row for row in selectors.control_register(DAY)["lines"] if row["is_correction"]]
    assert corrected["after_visa"] is True


@pytest.mark.django_db
def test_a_direct_correction_of_the_register_after_the_visa_voids_it(staff, open_session):
    _close(staff, open_session, "31000.00")
    control_day = services.close_day(actor=staff["director"], day=DAY)
    services.stamp_control_day(actor=staff["officer"], control_day=control_day)
    services.correct_control_line(
        actor=staff["director"],
        line=open_session.control_lines.get(),
        result=D("1400.00"),
        approval="Approuvé : mille quatre cents",
        reason="erreur de report",
    )
    assert not ControlDay.objects.get(day=DAY).is_stamped
    assert _breaches("tables.day_visa_voided", DAY)


@pytest.mark.django_db
def test_lu_a_correction_after_the_visa_is_named(lu_casino, staff, table):
    builders.shoe_for(table, DAY, staff["director"])
    with at_day(DAY):
        session = services.open_session(
            actor=staff["director"],
            table=table,
            day=DAY,
            minimum=D("5.00"),
            maximum=D("500.00"),
            advance_amount=D("20000.00"),
            guarantee_fund=D("25000.00"),
            croupier=staff["croupier"],
        )
    builders.play(session, croupier=staff["croupier"])
    with at_day(DAY, 23):
        services.close_session(
            actor=staff["director"],
            session=session,
            closing_cash=D("21000.00"),
            counted_by=staff["croupier"],
            certified_exact=True,
            cashier=staff["cashier"],
        )
    control_day = services.close_day(actor=staff["director"], day=DAY)
    services.stamp_control_day(actor=staff["officer"], control_day=control_day)
    _correct(staff, session.entries.get(kind=EntryKind.CLOSING), "21500.00")
    [breach] = _breaches("tables.day_visa_voided", DAY)
    assert breach.article.startswith("LU art.")
    control_day.refresh_from_db()
    assert control_day.total == D("1500.00")
