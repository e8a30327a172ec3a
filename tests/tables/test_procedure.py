"""The tables' procedure as the texts say it: séances on their gaming day, the French mid-day
minimum change, who fixes the limits, Luxembourg's interruptions and notices, the exercise."""

from __future__ import annotations

import datetime as dt
import inspect
import json
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from audit.models import AuditEvent
from casino_ops.models import CalendarRule
from casino_ops.services import get_casino
from house_books.services.casino import update_casino_settings
from tables import clock, selectors, services
from tables.clock import history_at
from tables.models import AdvanceEntry, EntryKind, Session
from tests.support import builders
from tests.support.builders import assert_refused

from .conftest import DAY, at_day

D = Decimal


def _open(staff, table, minimum="10.00", maximum="1000.00", advance="30000.00", **kw):
    # LU art. 32 §3, 40: the table's shoe for the day (nothing under FR)
    builders.shoe_for(table, kw.get("day") or get_casino().gaming_day(clock.now()), staff["director"])
    return services.open_session(
        actor=kw.pop("actor", staff["director"]),
        table=table,
        minimum=D(minimum),
        maximum=D(maximum),
        advance_amount=D(advance),
        croupier=kw.pop("croupier", staff["croupier"]),
        **kw,
    )


def _lu_fund(minimum="10.00", **kw):
    # LU art. 26: the notice to the minister of ``minimum``, recorded (the system's day) on the day
    # ``ministry_notified_on`` says, eight days ahead of the tests' day for the séances above 5.00
    notified = kw.pop("ministry_notified_on", None)
    if notified is not None:
        kw["ministry_notice"] = builders.ministry_notice(minimum, DAY, days_before=(DAY - notified).days)
    return {"guarantee_fund": D("100000.00"), **kw}


# -- 1. séances on their gaming day (FR art. 69; LU art. 10) ------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("offset", [-20, 30, -1, 1])
def test_a_session_opens_only_for_the_current_gaming_day(staff, table, offset):
    with at_day(DAY), assert_refused("SESSION_NOT_TODAY", article="FR art. 69", field="day"):
        _open(staff, table, day=DAY + dt.timedelta(days=offset))
    assert not Session.objects.exists() and not AdvanceEntry.objects.exists()
    assert not AuditEvent.objects.filter(action="session.opened").exists()


@pytest.mark.django_db
def test_lu_session_for_another_day_cites_lu_article_10(lu_casino, staff, table):
    with at_day(DAY), assert_refused("SESSION_NOT_TODAY", article="LU art. 10", field="day"):
        _open(staff, table, day=DAY - dt.timedelta(days=20), **_lu_fund(ministry_notified_on=DAY))


@pytest.mark.django_db
def test_after_midnight_the_session_belongs_to_the_evening_it_started(staff, table):
    assert get_casino().gaming_day_rollover == dt.time(6, 0)
    night = dt.datetime.combine(DAY + dt.timedelta(days=1), dt.time(1, 30))
    with history_at(night):
        with assert_refused("SESSION_NOT_TODAY", article="FR art. 69", field="day"):
            _open(staff, table, day=DAY + dt.timedelta(days=1))
        session = _open(staff, table)  # the day defaults to the current gaming day
    assert session.day == DAY
    update_casino_settings(actor=staff["director"], gaming_day_rollover=dt.time(0, 0))
    builders.close_session(staff, session)
    # the new hour governs the days not yet opened; the evening already opened keeps its own
    with history_at(night):
        assert get_casino().gaming_day(night_aware := timezone.make_aware(night)) == DAY
        assert get_casino().gaming_day(night_aware) == session.day
    first = CalendarRule.objects.latest("pk").effective_from
    with history_at(dt.datetime.combine(first, dt.time(1, 30))):
        assert _open(staff, table, day=first).day == first


@pytest.mark.django_db
def test_entries_are_written_when_the_act_happens_never_back_dated(staff, table):
    for act in (
        services.open_session,
        services.add_advance,
        services.interrupt_session,
        services.resume_session,
        services.close_session,
        services.change_maximum,
    ):
        params = set(inspect.signature(act).parameters)
        assert not params & {"at", "opened_at", "closed_at", "when", "written_at"}, act
    opening = dt.datetime.combine(DAY, dt.time(21, 0))
    later = dt.datetime.combine(DAY, dt.time(23, 40))
    with history_at(opening):
        session = _open(staff, table)
    with history_at(later):
        advance = services.add_advance(
            actor=staff["director"], session=session, amount=D("30000.00"), counted_by=staff["croupier"]
        )
        builders.close_session(staff, session)
    from django.utils import timezone

    entries = {e.kind: e.at for e in AdvanceEntry.objects.filter(session=session)}
    assert entries[EntryKind.INITIAL_ADVANCE] == timezone.make_aware(opening)
    assert advance.at == entries[EntryKind.CLOSING] == timezone.make_aware(later)


# -- 2. the French mid-day minimum change (FR art. 53, 55-5) ------------------------------------


@pytest.mark.django_db
def test_fr_minimum_changed_by_closing_and_reopening_the_same_day(staff, table):
    with at_day(DAY):
        first = _open(staff, table)
        with assert_refused("MINIMUM_FIXED_IN_SESSION", article="FR art. 53", field="minimum"):
            services.change_minimum(actor=staff["director"], session=first, minimum=D("20.00"))
        builders.close_session(staff, first)
        with assert_refused("ADVANCE_NOT_PROPORTIONAL", article="FR art. 53", field="advance_amount"):
            _open(staff, table, minimum="20.00", maximum="2000.00", advance="30000.00")
        with assert_refused("MAXIMUM_NOT_PROPORTIONAL", article="FR art. 53", field="maximum"):
            _open(staff, table, minimum="20.00", maximum="4000.00", advance="60000.00")
        with assert_refused("ADVANCE_VARIES_WITHIN_DAY", article="FR art. 42", field="advance_amount"):
            _open(staff, table, advance="40000.00")
        second = _open(staff, table, minimum="20.00", maximum="2000.00", advance="60000.00")
        builders.close_session(staff, second, cash="61000.00")
    assert (second.day, second.minimum, second.advance_amount) == (DAY, D("20.00"), D("60000.00"))
    register = selectors.control_register(DAY)
    assert [line["session_id"] for line in register["lines"]] == [first.pk, second.pk]
    book = selectors.advance_book(table.number, DAY, DAY)
    assert [s["minimum"] for s in book["sessions"]] == [D("10.00"), D("20.00")]


@pytest.mark.django_db
def test_lu_minimum_still_not_changed_within_a_day(lu_casino, staff, table):
    with at_day(DAY):
        builders.close_session(
            staff,
            _open(
                staff, table, advance="20000.00", **_lu_fund(ministry_notified_on=DAY - dt.timedelta(days=9))
            ),
            cashier=staff["cashier"],
        )
        with assert_refused("MINIMUM_CHANGED_WITHIN_DAY", article="LU art. 26", field="minimum"):
            _open(
                staff,
                table,
                minimum="20.00",
                maximum="2000.00",
                advance="40000.00",
                **_lu_fund(ministry_notified_on=DAY - dt.timedelta(days=9)),
            )


# -- 3. who fixes the limits (FR art. 55-5; LU art. 33, 51 V) ----------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("profile", ["FR", "LU"])
def test_the_maximum_is_fixed_by_the_director_or_his_recorded_delegate(casino, staff, profile):
    article = {"FR": "FR art. 55-5", "LU": "LU art. 33"}[profile]
    update_casino_settings(actor=staff["director"], profile=profile)  # before any act (PROFILE_FIXED)
    table = services.create_table(actor=staff["director"], number=3, code="BJ03")
    extra = _lu_fund(ministry_notified_on=DAY - dt.timedelta(days=9)) if profile == "LU" else {}
    advance = "20000.00" if profile == "LU" else "30000.00"
    with at_day(DAY):
        with assert_refused("MAXIMUM_BY_DIRECTOR", article=article, field="actor"):
            _open(staff, table, actor=staff["committee"], advance=advance, **extra)
        assert not Session.objects.exists()
        with assert_refused("DIRECTOR_REQUIRED", article=article, field="actor"):
            services.grant_delegation(
                actor=staff["committee"],
                delegate=staff["committee"],
                approval_reference="Agrément MJ 2026-14",
                approved_on=DAY,
                valid_from=DAY,
            )
        with assert_refused("DELEGATE_NOT_COMMITTEE", article=article, field="delegate"):
            services.grant_delegation(
                actor=staff["director"],
                delegate=staff["croupier"],
                approval_reference="Agrément MJ 2026-14",
                approved_on=DAY,
                valid_from=DAY,
            )
        ended = services.grant_delegation(
            actor=staff["director"],
            delegate=staff["committee"],
            approval_reference="Agrément MJ 2025-02",
            approved_on=DAY - dt.timedelta(days=400),
            valid_from=DAY - dt.timedelta(days=400),
            valid_until=DAY - dt.timedelta(days=1),
        )
        with assert_refused("MAXIMUM_BY_DIRECTOR", article=article, field="actor"):
            _open(staff, table, actor=staff["committee"], advance=advance, **extra)
        delegation = services.grant_delegation(
            actor=staff["director"],
            delegate=staff["committee"],
            approval_reference="Agrément MJ 2026-14",
            approved_on=DAY - dt.timedelta(days=3),
            valid_from=DAY,
        )
        session = _open(staff, table, actor=staff["committee"], advance=advance, **extra)
    assert session.delegation == delegation != ended
    event = AuditEvent.objects.get(action="session.opened")
    assert (
        f'"delegation": {delegation.pk}' in event.payload or f'"delegation":{delegation.pk}' in event.payload
    )
    assert AuditEvent.objects.filter(action="delegation.granted").count() == 2
    report = selectors.session_report(session.pk)
    assert report["delegation"]["approval_reference"] == "Agrément MJ 2026-14"
    # the advance book (register) shows the delegation act beside the opening
    from inspection.registers.advance_book import session_section

    printed = str(session_section(selectors.advance_book(table.number, DAY, DAY)["sessions"][0]))
    assert "Agrément MJ 2026-14" in printed


@pytest.mark.django_db
def test_the_authorised_minimum_changes_only_by_a_stamped_decree(staff, table):
    with assert_refused("AUTHORISED_MINIMUM_BY_DECREE", article="FR art. 55-5", field="authorised_min_stake"):
        update_casino_settings(actor=staff["director"], authorised_min_stake=D("0.50"))
    assert get_casino().authorised_min_stake == D("5.00")
    with assert_refused("DECREE_REFERENCE", article="FR art. 55-5", field="decree_reference"):
        services.record_authorised_minimum(
            actor=staff["director"], minimum=D("0.50"), decree_reference=" ", decree_date=DAY, in_force_on=DAY
        )
    with assert_refused("DIRECTOR_REQUIRED", article="FR art. 55-5", field="actor"):
        services.record_authorised_minimum(
            actor=staff["committee"],
            minimum=D("0.50"),
            decree_reference="A",
            decree_date=DAY,
            in_force_on=DAY,
        )
    with at_day(DAY - dt.timedelta(days=2)):
        act = services.record_authorised_minimum(
            actor=staff["director"],
            minimum=D("2.00"),
            decree_reference="Arrêté ministériel du 20/11/2026, NOR INTD2631234A",
            decree_date=DAY - dt.timedelta(days=10),
            in_force_on=DAY - dt.timedelta(days=1),
        )
    with at_day(DAY):
        # not stamped: the decree's minimum does not hold yet
        with assert_refused("MINIMUM_BELOW_AUTHORISED", article="FR art. 55-5", field="minimum"):
            _open(staff, table, minimum="2.00", maximum="200.00", advance="6000.00")
        assert [a["id"] for a in selectors.authorised_minimums_to_stamp()] == [act.pk]
        with assert_refused("OFFICER_REQUIRED", article="FR art. 55-5", field="actor"):
            services.stamp_authorised_minimum(actor=staff["director"], act=act)
        services.stamp_authorised_minimum(actor=staff["officer"], act=act)
        with assert_refused("ALREADY_STAMPED", article="FR art. 55-5", field="act"):
            services.stamp_authorised_minimum(actor=staff["officer"], act=act)
        session = _open(staff, table, minimum="2.00", maximum="200.00", advance="6000.00")
    assert session.minimum == D("2.00") and selectors.authorised_minimums_to_stamp() == []
    actions = list(
        AuditEvent.objects.filter(action__startswith="authorised_minimum.").values_list("action", flat=True)
    )
    assert actions == ["authorised_minimum.recorded", "authorised_minimum.stamped"]


@pytest.mark.django_db
def test_a_decree_in_force_later_does_not_hold_before(staff, table):
    act = services.record_authorised_minimum(
        actor=staff["director"],
        minimum=D("2.00"),
        decree_reference="Arrêté du 01/11/2026",
        decree_date=DAY - dt.timedelta(days=29),
        in_force_on=DAY + dt.timedelta(days=1),
    )
    with at_day(DAY - dt.timedelta(days=1)):
        services.stamp_authorised_minimum(actor=staff["officer"], act=act)
    with at_day(DAY), assert_refused("MINIMUM_BELOW_AUTHORISED", article="FR art. 55-5", field="minimum"):
        _open(staff, table, minimum="2.00", maximum="200.00", advance="6000.00")


# -- 4. Luxembourg: interruptions, notices, the exercise ------------------------------------------


@pytest.mark.django_db
def test_lu_interrupting_every_open_table_forces_the_count(lu_casino, staff, table, director):
    other = services.create_table(actor=director, number=4, code="BJ04")
    notice = {"ministry_notified_on": DAY - dt.timedelta(days=9)}
    with at_day(DAY):
        first = _open(staff, table, advance="20000.00", **_lu_fund(**notice))
        second = _open(staff, other, advance="20000.00", **_lu_fund(**notice))
        # another table still plays: the box may be locked
        services.interrupt_session(
            actor=staff["croupier"], session=first, mode="locked", key_holder=staff["committee"]
        )
        # the last open table: every table is then interrupted, counting is compulsory
        with assert_refused("INTERRUPTION_MUST_BE_COUNTED", article="LU art. 23", field="mode"):
            services.interrupt_session(
                actor=staff["croupier"], session=second, mode="locked", key_holder=staff["committee"]
            )
        assert Session.objects.get(pk=second.pk).status == "open"
        # a counted interruption has the closing formalities (LU art. 10 by art. 23)
        with assert_refused("SIGNATURE_REQUIRED", article="LU art. 10", field="signed_by"):
            services.interrupt_session(
                actor=staff["croupier"], session=second, mode="counted", amount=D("19000.00")
            )
        with assert_refused("CASHIER_ABSENT", article="LU art. 23", field="cashier"):
            services.interrupt_session(
                actor=staff["croupier"],
                session=second,
                mode="counted",
                amount=D("19000.00"),
                signed_by=staff["director"],
            )
        counted = services.interrupt_session(
            actor=staff["croupier"],
            session=second,
            mode="counted",
            amount=D("19000.00"),
            signed_by=staff["director"],
            cashier=staff["cashier"],
        )
        assert (counted.signed_by, counted.cashier) == (staff["director"], staff["cashier"])
        # the locked box is reopened by the key holder named at the interruption
        with assert_refused("KEY_HOLDER_ONLY", article="LU art. 23", field="actor"):
            services.resume_session(actor=staff["croupier"], session=first)
        services.resume_session(actor=staff["committee"], session=first)


@pytest.mark.django_db
def test_lu_notice_eight_days_before_any_seance_above_the_authorised_minimum(lu_casino, staff, table):
    # the notice is an act of its own, recorded when sent, with its reference
    with at_day(DAY - dt.timedelta(days=9)):
        with assert_refused("NOTICE_IN_FUTURE", article="LU art. 26", field="sent_on", nothing_recorded=True):
            services.record_ministry_notice(
                actor=staff["director"], minimum=D("10.00"), sent_on=DAY, reference="MF/2026/014"
            )
        with assert_refused(
            "MINISTRY_NOTICE_NO_REFERENCE", article="LU art. 26", field="reference", nothing_recorded=True
        ):
            services.record_ministry_notice(
                actor=staff["director"], minimum=D("10.00"), sent_on=DAY - dt.timedelta(days=9), reference=" "
            )
        with assert_refused("FIELD_INVALID", field="reference"):
            services.record_ministry_notice(
                actor=staff["director"],
                minimum=D("10.00"),
                sent_on=DAY - dt.timedelta(days=9),
                reference="MF\x00/1",
            )
        with assert_refused("DIRECTOR_REQUIRED", article="LU art. 26"):
            services.record_ministry_notice(
                actor=staff["committee"], minimum=D("10.00"), sent_on=DAY, reference="MF/2026/014"
            )
    early = builders.ministry_notice("10.00", DAY, days_before=8)
    late = builders.ministry_notice("10.00", DAY, days_before=7, reference="MF/2026/015")
    # declared sent ten days before the séance, recorded seven days before: the recording counts
    backdated = builders.ministry_notice(
        "10.00", DAY, days_before=7, sent_on=DAY - dt.timedelta(days=10), reference="MF/2026/016"
    )
    other = builders.ministry_notice("20.00", DAY, days_before=9, reference="MF/2026/017")
    with at_day(DAY):
        # the first séance of the exercise above the authorised minimum (5.00) needs the notice too
        with assert_refused("MINISTRY_NOTICE_MISSING", article="LU art. 26", field="ministry_notice"):
            _open(staff, table, advance="20000.00", **_lu_fund())
        for notice in (late, backdated):
            with assert_refused("MINIMUM_RAISE_NOT_NOTIFIED", article="LU art. 26", field="ministry_notice"):
                _open(staff, table, advance="20000.00", **_lu_fund(ministry_notice=notice))
        with assert_refused("MINISTRY_NOTICE_OTHER_MINIMUM", article="LU art. 26", field="ministry_notice"):
            _open(staff, table, advance="20000.00", **_lu_fund(ministry_notice=other))
        assert not Session.objects.exists()
        session = _open(staff, table, advance="20000.00", **_lu_fund(ministry_notice=early))
        assert session.ministry_notice == early
        assert (session.ministry_notice_reference, session.ministry_notified_on) == (
            "MF/2026/014",
            DAY - dt.timedelta(days=8),
        )
        event = AuditEvent.objects.get(action="session.opened")
        assert json.loads(event.payload)["ministry_notice"] == early.pk
        builders.close_session(staff, session, cashier=staff["cashier"])
    recorded = AuditEvent.objects.get(action="ministry_notice.recorded", object_id=str(backdated.pk))
    assert json.loads(recorded.payload)["sent_on"] == (DAY - dt.timedelta(days=10)).isoformat()
    # at the authorised minimum no notice is due
    with at_day(DAY + dt.timedelta(days=1)):
        other = services.create_table(actor=staff["director"], number=7, code="BJ07")
        assert _open(staff, other, minimum="5.00", maximum="500.00", advance="10000.00", **_lu_fund()).pk


@pytest.mark.django_db
def test_fr_needs_no_notice_to_the_minister(staff, table):
    with at_day(DAY):
        assert _open(staff, table, minimum="20.00", maximum="2000.00", advance="60000.00").pk


@pytest.mark.django_db
def test_the_exercise_starts_on_the_casino_setting(staff, table, director):
    march_31, april_1 = dt.date(2026, 3, 31), dt.date(2026, 4, 1)
    # the calendar year (the default): 31 March and 1 April are one exercise, the advance is fixed
    with at_day(march_31):
        builders.close_session(staff, _open(staff, table))
    with (
        at_day(april_1),
        assert_refused("ADVANCE_FIXED_FOR_YEAR", article="FR art. 49", field="advance_amount"),
    ):
        _open(staff, table, advance="40000.00")
    # an exercise starting on 1 April, from the next exercise on (the séances already opened
    # keep theirs): exercise 2027 starts on 1 January 2027 and runs to 31 March 2028; then
    # 1 April starts a new one, and the advance may be fixed anew
    update_casino_settings(actor=staff["director"], exercise_start_month=4, exercise_start_day=1)
    assert get_casino().exercise_of(march_31) == 2026
    other = services.create_table(actor=director, number=4, code="BJ04")
    with time_machine.travel(dt.datetime(2028, 4, 1, 12, tzinfo=dt.UTC)):
        with at_day(dt.date(2028, 3, 31)):
            before = _open(staff, other)
            builders.close_session(staff, before)
        with at_day(dt.date(2028, 4, 1)):
            after = _open(staff, other, advance="40000.00")
    assert (before.fiscal_year, after.fiscal_year) == (2027, 2028)
