"""The regulated acts of the tables: limits, sessions, advances, signatures, control register, corrections."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from audit.models import AuditEvent
from tables import services
from tables.models import AdvanceEntry, ControlLine, EntryKind, Session, SessionStatus
from tests.support import builders
from tests.support.builders import assert_refused

from .conftest import DAY, at_day

D = Decimal


def _open(staff, table, day=DAY, minimum="10.00", maximum="1000.00", advance="30000.00", **kw):
    builders.shoe_for(table, day, staff["director"])  # LU art. 32 §3, 40 (nothing under FR)
    with at_day(day):
        return services.open_session(
            actor=kw.pop("actor", staff["director"]),
            table=table,
            day=day,
            minimum=D(minimum),
            maximum=D(maximum),
            advance_amount=D(advance),
            croupier=kw.pop("croupier", staff["croupier"]),
            **kw,
        )


# -- limits, FR -----------------------------------------------------------------------


@pytest.mark.django_db
def test_fr_opening_writes_the_signed_initial_advance(staff, table):
    session = _open(staff, table)
    entry = session.entries.get()
    assert (entry.line, entry.kind, entry.amount) == (1, EntryKind.INITIAL_ADVANCE, D("30000.00"))
    assert entry.signed_by == staff["director"] and entry.counted_by == staff["croupier"]
    assert session.profile == "FR" and session.status == SessionStatus.OPEN
    assert AuditEvent.objects.filter(action="session.opened", object_id=str(session.pk)).exists()


@pytest.mark.django_db
def test_fr_minimum_below_authorised_is_refused(staff, table):
    with assert_refused("MINIMUM_BELOW_AUTHORISED", article="FR art. 55-5", field="minimum"):
        _open(staff, table, minimum="2.00", maximum="200.00", advance="6000.00")
    assert not Session.objects.exists()


@pytest.mark.parametrize("maximum", ["1000.00", "2000.00", "500.00"])
@pytest.mark.django_db
def test_fr_maximum_50_100_200_times_accepted(staff, table, maximum):
    assert _open(staff, table, maximum=maximum).maximum == D(maximum)


@pytest.mark.django_db
def test_fr_maximum_other_multiple_refused(staff, table):
    with assert_refused("MAXIMUM_NOT_MULTIPLE", article="FR art. 55-5", field="maximum"):
        _open(staff, table, maximum="1500.00")


@pytest.mark.django_db
def test_fr_maximum_changes_in_session_only_with_display(staff, open_session):
    with assert_refused("DISPLAY_NOT_CHANGED", article="FR art. 55-5", field="display_changed"):
        services.change_maximum(
            actor=staff["director"], session=open_session, maximum=D("2000.00"), display_changed=False
        )
    with assert_refused("MAXIMUM_NOT_MULTIPLE", article="FR art. 55-5", field="maximum"):
        services.change_maximum(
            actor=staff["director"], session=open_session, maximum=D("3000.00"), display_changed=True
        )
    # the committee member fixes the maximum only as the director's recorded delegate (LU art. 51 V)
    with assert_refused("MAXIMUM_BY_DIRECTOR", article="FR art. 55-5", field="actor"):
        services.change_maximum(
            actor=staff["committee"], session=open_session, maximum=D("2000.00"), display_changed=True
        )
    delegation = services.grant_delegation(
        actor=staff["director"],
        delegate=staff["committee"],
        approval_reference="Agrément MJ 2026-14",
        approved_on=DAY - dt.timedelta(days=30),
        valid_from=DAY - dt.timedelta(days=30),
    )
    change = services.change_maximum(
        actor=staff["committee"], session=open_session, maximum=D("2000.00"), display_changed=True
    )
    assert (change.previous, change.maximum, change.by) == (D("1000.00"), D("2000.00"), staff["committee"])
    assert change.delegation == delegation
    open_session.refresh_from_db()
    assert open_session.maximum == D("2000.00")


@pytest.mark.django_db
def test_fr_maximum_change_needs_a_signer(staff, open_session):
    with assert_refused("SIGNATURE_REQUIRED", article="FR art. 69"):
        services.change_maximum(
            actor=staff["croupier"], session=open_session, maximum=D("2000.00"), display_changed=True
        )


@pytest.mark.django_db
def test_fr_minimum_changes_only_by_closing_and_reopening(staff, table, open_session):
    with assert_refused("MINIMUM_FIXED_IN_SESSION", article="FR art. 53", field="minimum"):
        services.change_minimum(actor=staff["director"], session=open_session, minimum=D("20.00"))
    with assert_refused("SESSION_STILL_OPEN", article="FR art. 69", field="table"):
        _open(staff, table, minimum="20.00", maximum="2000.00", advance="60000.00")
    builders.close_session(staff, open_session)
    # Reopened the next day with a raised minimum: the advance rises in proportion (FR art. 53).
    reopened = _open(
        staff, table, day=DAY + dt.timedelta(days=1), minimum="20.00", maximum="2000.00", advance="60000.00"
    )
    assert reopened.minimum == D("20.00")


# -- limits, LU -------------------------------------------------------------------------


def _lu(staff, table, day=DAY, minimum="10.00", maximum="1000.00", advance="20000.00", fund="50000.00", **kw):
    # LU art. 26: a minimum above the authorised one (5.00) is told to the minister 8 days ahead
    notified = kw.pop("ministry_notified_on", day - dt.timedelta(days=10))
    kw["ministry_notice"] = builders.ministry_notice(
        minimum, day, days_before=(day - notified).days, reference="MF/2026/007"
    )
    return _open(
        staff, table, day=day, minimum=minimum, maximum=maximum, advance=advance, guarantee_fund=D(fund), **kw
    )


@pytest.mark.django_db
def test_lu_maximum_never_changes_in_session(lu_casino, staff, table):
    session = _lu(staff, table)
    assert session.profile == "LU"
    with assert_refused("MAXIMUM_FIXED_FOR_SEASON", article="LU art. 33", field="maximum"):
        services.change_maximum(
            actor=staff["director"], session=session, maximum=D("2000.00"), display_changed=True
        )


@pytest.mark.django_db
def test_lu_maximum_fixed_for_the_season(lu_casino, staff, table):
    first = _lu(staff, table)
    builders.close_session(staff, first, cashier=staff["cashier"])
    with assert_refused("MAXIMUM_FIXED_FOR_SEASON", article="LU art. 33", field="maximum"):
        _lu(staff, table, day=DAY + dt.timedelta(days=1), maximum="2000.00")
    assert _lu(staff, table, day=DAY + dt.timedelta(days=1)).maximum == D("1000.00")


@pytest.mark.django_db
def test_lu_limits_minimum_and_multiple(lu_casino, staff, table):
    with assert_refused("MINIMUM_BELOW_AUTHORISED", article="LU art. 33", field="minimum"):
        _lu(staff, table, minimum="4.00", maximum="400.00")
    with assert_refused("MAXIMUM_NOT_MULTIPLE", article="LU art. 33", field="maximum"):
        _lu(staff, table, maximum="700.00")


@pytest.mark.django_db
def test_lu_minimum_not_changed_within_a_day(lu_casino, staff, table):
    builders.close_session(staff, _lu(staff, table), cashier=staff["cashier"])
    with assert_refused("MINIMUM_CHANGED_WITHIN_DAY", article="LU art. 26", field="minimum"):
        _lu(
            staff,
            table,
            minimum="20.00",
            maximum="2000.00",
            advance="40000.00",
            ministry_notified_on=DAY - dt.timedelta(days=10),
        )
    with assert_refused("MINIMUM_FIXED_IN_SESSION", article="LU art. 26", field="minimum"):
        services.change_minimum(actor=staff["director"], session=Session.objects.get(), minimum=D("20.00"))


@pytest.mark.django_db
def test_lu_minimum_raised_not_lowered_and_notified_eight_days_ahead(lu_casino, staff, table):
    builders.close_session(staff, _lu(staff, table), cashier=staff["cashier"])
    day2 = DAY + dt.timedelta(days=1)
    with assert_refused("MINIMUM_RAISE_NOT_NOTIFIED", article="LU art. 26", field="ministry_notice"):
        _lu(
            staff,
            table,
            day=day2,
            minimum="20.00",
            maximum="2000.00",
            advance="40000.00",
            ministry_notified_on=day2 - dt.timedelta(days=3),
        )
    raised = _lu(
        staff,
        table,
        day=day2,
        minimum="20.00",
        maximum="2000.00",
        advance="40000.00",
        ministry_notified_on=day2 - dt.timedelta(days=8),
    )
    builders.close_session(staff, raised, cashier=staff["cashier"])
    with assert_refused("MINIMUM_LOWERED", article="LU art. 26", field="minimum"):
        _lu(staff, table, day=day2 + dt.timedelta(days=1))


# -- advances -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_fr_advance_at_least_3000_times_the_minimum(staff, table):
    with assert_refused("ADVANCE_TOO_SMALL", article="FR art. 49", field="advance_amount"):
        _open(staff, table, advance="29999.99")


@pytest.mark.django_db
def test_fr_advance_does_not_vary_within_the_day_nor_the_year(staff, table):
    builders.close_session(staff, _open(staff, table))
    with assert_refused("ADVANCE_VARIES_WITHIN_DAY", article="FR art. 42", field="advance_amount"):
        _open(staff, table, advance="40000.00")
    with assert_refused("ADVANCE_FIXED_FOR_YEAR", article="FR art. 49", field="advance_amount"):
        _open(staff, table, day=DAY + dt.timedelta(days=1), advance="40000.00")


@pytest.mark.django_db
def test_lu_advance_fixed_for_the_year(lu_casino, staff, table):
    builders.close_session(staff, _lu(staff, table), cashier=staff["cashier"])
    with assert_refused("ADVANCE_FIXED_FOR_YEAR", article="LU art. 9", field="advance_amount"):
        _lu(staff, table, day=DAY + dt.timedelta(days=1), advance="25000.00")


@pytest.mark.django_db
def test_lu_guarantee_fund_at_least_the_largest_advance(lu_casino, staff, table, director):
    with assert_refused("GUARANTEE_FUND_MISSING", article="LU art. 22", field="guarantee_fund"):
        _open(staff, table, advance="20000.00")
    other = services.create_table(actor=director, number=4, code="BJ04")
    _lu(staff, other, advance="45000.00", fund="45000.00")
    with assert_refused("GUARANTEE_FUND_TOO_SMALL", article="LU art. 22", field="guarantee_fund"):
        _lu(staff, table, fund="44999.99")


@pytest.mark.django_db
def test_further_advances_equal_the_initial_one(staff, open_session):
    with assert_refused("ADVANCE_NOT_EQUAL", article="FR art. 42", field="amount"):
        services.add_advance(
            actor=staff["director"], session=open_session, amount=D("10000.00"), counted_by=staff["croupier"]
        )
    entry = services.add_advance(
        actor=staff["committee"], session=open_session, amount=D("30000.00"), counted_by=staff["croupier"]
    )
    assert (entry.line, entry.kind, entry.signed_by) == (2, EntryKind.FURTHER_ADVANCE, staff["committee"])
    open_session.refresh_from_db()
    assert open_session.advances_total == D("60000.00")


@pytest.mark.django_db
def test_advances_are_signed_by_management_and_counted_by_staff(staff, table):
    with assert_refused("SIGNATURE_REQUIRED", article="FR art. 69", field="actor"):
        _open(staff, table, actor=staff["croupier"])
    with assert_refused("COUNTED_BY_STAFF", article="FR art. 69", field="croupier"):
        _open(staff, table, croupier=staff["cashier"])
    session = _open(staff, table)
    with assert_refused("SIGNATURE_REQUIRED", article="FR art. 69", field="actor"):
        services.add_advance(
            actor=staff["cashier"], session=session, amount=D("30000.00"), counted_by=staff["croupier"]
        )
    assert AdvanceEntry.objects.count() == 1


# -- interruptions -------------------------------------------------------------------------


@pytest.mark.django_db
def test_interruption_counted_or_locked_with_key_holder(staff, open_session):
    with assert_refused("INTERRUPTION_AMOUNT", article="FR art. 69", field="amount"):
        services.interrupt_session(actor=staff["croupier"], session=open_session, mode="counted")
    counted = services.interrupt_session(
        actor=staff["croupier"], session=open_session, mode="counted", amount=D("29500.00")
    )
    assert counted.kind == EntryKind.INTERRUPTION_COUNTED
    with assert_refused("SESSION_STATE", article="FR art. 42"):
        services.add_advance(
            actor=staff["director"], session=open_session, amount=D("30000.00"), counted_by=staff["croupier"]
        )
    services.resume_session(actor=staff["croupier"], session=open_session)
    with assert_refused("KEY_HOLDER", article="FR art. 69", field="key_holder"):
        services.interrupt_session(
            actor=staff["croupier"], session=open_session, mode="locked", key_holder=staff["cashier"]
        )
    locked = services.interrupt_session(
        actor=staff["croupier"], session=open_session, mode="locked", key_holder=staff["committee"]
    )
    assert locked.key_holder == staff["committee"]
    with assert_refused("SESSION_STATE", article="FR art. 42"):
        builders.close_session(staff, open_session)
    # the box is reopened by the key holder named at the interruption
    with assert_refused("KEY_HOLDER_ONLY", article="FR art. 69", field="actor"):
        services.resume_session(actor=staff["croupier"], session=open_session)
    services.resume_session(actor=staff["committee"], session=open_session)
    builders.close_session(staff, open_session)


@pytest.mark.django_db
def test_lu_interruption_cites_lu_articles(lu_casino, staff, table):
    session = _lu(staff, table)
    with assert_refused("KEY_HOLDER", article="LU art. 23", field="key_holder"):
        services.interrupt_session(actor=staff["croupier"], session=session, mode="locked", key_holder=None)


# -- closing ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_closing_certified_exact_gives_the_result_and_carries_it(staff, open_session):
    services.add_advance(
        actor=staff["director"], session=open_session, amount=D("30000.00"), counted_by=staff["croupier"]
    )
    with assert_refused("NOT_CERTIFIED_EXACT", article="FR art. 69", field="certified_exact"):
        builders.close_session(staff, open_session, certified_exact=False)
    with assert_refused("SIGNATURE_REQUIRED", article="FR art. 69", field="actor"):
        builders.close_session(staff, open_session, actor=staff["croupier"])
    entry = builders.close_session(staff, open_session, cash="71234.50")
    open_session.refresh_from_db()
    assert entry.kind == EntryKind.CLOSING and entry.signed_by == staff["director"]
    assert open_session.result == D("11234.50")
    line = ControlLine.objects.get()
    assert (line.session, line.result, line.advances, line.closing_cash) == (
        open_session,
        D("11234.50"),
        D("60000.00"),
        D("71234.50"),
    )


@pytest.mark.django_db
def test_lu_closing_needs_a_cashier_present(lu_casino, staff, table):
    session = _lu(staff, table)
    with assert_refused("CASHIER_ABSENT", article="LU art. 10", field="cashier"):
        builders.close_session(staff, session)
    with assert_refused("CASHIER_ABSENT", article="LU art. 10", field="cashier"):
        builders.close_session(staff, session, cashier=staff["croupier"])
    entry = builders.close_session(staff, session, cashier=staff["cashier"])
    assert entry.cashier == staff["cashier"]


# -- the control register ------------------------------------------------------------------------


@pytest.mark.django_db
def test_director_closes_the_day_then_nothing_changes(staff, table, open_session, director):
    other = services.create_table(actor=director, number=4, code="BJ04")
    second = _open(staff, other)
    builders.close_session(staff, open_session, cash="31000.00")
    with assert_refused("SESSIONS_NOT_CLOSED", article="FR art. 72", field="day"):
        services.close_day(actor=staff["director"], day=DAY)
    builders.close_session(staff, second, cash="29000.50")
    with assert_refused("DIRECTOR_REQUIRED", article="FR art. 68"):
        services.close_day(actor=staff["committee"], day=DAY)
    day = services.close_day(actor=staff["director"], day=DAY)
    assert day.total == D("0.50") and day.closed_by == staff["director"]
    with assert_refused("DAY_CLOSED", article="FR art. 68", field="day"):
        services.close_day(actor=staff["director"], day=DAY)
    with assert_refused("DAY_CLOSED", article="FR art. 68", field="day"):
        _open(staff, table)
    assert Session.objects.filter(day=DAY).count() == 2


@pytest.mark.django_db
def test_correction_is_a_new_line_pointing_at_the_corrected_one(staff, open_session):
    builders.close_session(staff, open_session, cash="31000.00")
    day = services.close_day(actor=staff["director"], day=DAY)
    closing = open_session.entries.get(kind=EntryKind.CLOSING)
    with assert_refused("DIRECTOR_REQUIRED", article="FR art. 68"):
        services.correct_advance_entry(
            actor=staff["committee"], entry=closing, amount=D("31500.00"), approval="x", reason="y"
        )
    with assert_refused("APPROVAL_IN_WORDS", article="FR art. 68", field="approval"):
        services.correct_advance_entry(
            actor=staff["director"], entry=closing, amount=D("31500.00"), approval=" ", reason="y"
        )
    correction = services.correct_advance_entry(
        actor=staff["director"],
        entry=closing,
        amount=D("31500.00"),
        approval="Approuvé : trente et un mille cinq cents euros",
        reason="plaque de 500 oubliée au comptage",
    )
    closing.refresh_from_db()
    assert closing.amount == D("31000.00")  # the corrected line is unchanged
    assert correction.corrects == closing and correction.kind == EntryKind.CORRECTION
    open_session.refresh_from_db()
    assert open_session.result == D("1500.00")
    lines = list(ControlLine.objects.order_by("id"))
    assert len(lines) == 2 and lines[1].corrects == lines[0] and lines[1].result == D("1500.00")
    assert lines[0].result == D("1000.00")
    day.refresh_from_db()
    assert day.total == D("1500.00")  # the total written at closing follows the corrections (FR art. 72)
    direct = services.correct_control_line(
        actor=staff["director"],
        line=lines[1],
        result=D("1400.00"),
        approval="Approuvé : mille quatre cents",
        reason="erreur de report",
    )
    assert direct.corrects == lines[0]
    with assert_refused("NOT_CORRECTABLE", article="FR art. 68", field="entry"):
        services.correct_advance_entry(
            actor=staff["director"], entry=correction, amount=D("1.00"), approval="a", reason="b"
        )
