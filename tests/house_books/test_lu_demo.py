"""The Luxembourg demo: ``seed_demo --profile LU`` builds a casino whose books inspect clean."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from casino_ops.models import CasinoSettings
from tests.support.builders import gaming_day

pytestmark = pytest.mark.django_db


def _inspect_exit_code(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    return _exit_code(capsys, "inspect_books")


def _exit_code(capsys: pytest.CaptureFixture[str], command: str) -> tuple[int, str]:
    try:
        call_command(command)
        code = 0
    except SystemExit as exit_info:
        code = exit_info.code or 0
    out = capsys.readouterr()
    return int(code), out.out + out.err


def test_the_lu_demo_is_luxembourg_and_inspects_clean(
    lu_demo: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from house_books.models import (
        Approval,
        BankFailure,
        DeviceAssignment,
        EarlyStop,
        OrphanEntry,
        SeanceHours,
        ShoeDevice,
        TipsCount,
    )
    from tables.models import Session

    assert CasinoSettings.objects.get().profile == "LU"
    assert Approval.objects.exists() and OrphanEntry.objects.exists() and TipsCount.objects.exists()
    assert SeanceHours.objects.count() == 3 and ShoeDevice.objects.count() == 6
    # séances before the bank failure and after its new authorisation, none in between
    failure = BankFailure.objects.get()
    opened = list(Session.objects.values_list("opened_at", flat=True))
    assert any(at < failure.occurred_at for at in opened)
    resumed = failure.new_authorisation.granted_on
    assert not [at for at in opened if failure.occurred_at <= at and timezone.localtime(at).date() < resumed]
    # every séance's table had its shoe that day, not always the same one; the past ones returned
    for session in Session.objects.select_related("table"):
        assert DeviceAssignment.objects.filter(day=session.day, table_number=session.table.number).exists()
    assert DeviceAssignment.objects.values("device").distinct().count() > 1
    # past gaming days' shoes are back (after midnight, before the roll-over hour, the
    # gaming day is still yesterday's: its shoes are in use)
    assert not DeviceAssignment.objects.filter(day__lt=gaming_day(), returned_at__isnull=True)
    # today's: none when seeded before the day's first séance
    assert EarlyStop.objects.filter(session__day=gaming_day()).count() <= 1
    # the failure's evening stopped early, every séance of it with its reason
    stopped = Session.objects.filter(opened_at__lt=failure.occurred_at, closed_at__gt=failure.occurred_at)
    assert stopped.exists()
    assert EarlyStop.objects.filter(session__in=stopped).count() == stopped.count()
    _assert_what_an_inspector_checks(failure, stopped)
    _assert_a_month_of_seances()
    _assert_every_seance_plays_decks_of_the_depot()
    code, out = _inspect_exit_code(capsys)
    assert code == 0, out
    code, out = _exit_code(capsys, "verify_audit")
    assert code == 0, out
    with pytest.raises(CommandError, match="SEED_DATABASE_IN_SERVICE"):
        call_command("seed_demo", "--profile", "LU")


def _assert_what_an_inspector_checks(failure: object, stopped: object) -> None:
    """LU art. 51 I: a committee of four; LU art. 32 §3, 40: the shoes in the cabinet's book
    before their first use, each back at the end of its séance; LU art. 11: the failure's
    séances stopped at once, each interrupted with its cause and its stop saying so."""
    from house_books.models import DeviceAssignment, EarlyStop, ShoeDevice
    from house_books.selectors import committee_in_force
    from tables.models import EntryKind, Session

    casino = CasinoSettings.objects.get()
    assert len(committee_in_force(timezone.localdate())) >= 4
    first_use = DeviceAssignment.objects.order_by("day").values_list("day", flat=True).first()
    assert all(
        casino.gaming_day(at) < first_use for at in ShoeDevice.objects.values_list("recorded_at", flat=True)
    )
    for assignment in DeviceAssignment.objects.filter(returned_at__isnull=False):
        closings = Session.objects.filter(day=assignment.day, table__number=assignment.table_number)
        last_close = max(s.closed_at for s in closings)
        assert last_close <= assignment.returned_at <= last_close + dt.timedelta(hours=1), assignment
        assert assignment.assigned_at <= min(s.opened_at for s in closings), assignment
    for session in stopped:  # type: ignore[attr-defined]
        assert EarlyStop.objects.get(session=session).reason == "bank_failure"
        line = session.entries.get(kind=EntryKind.INTERRUPTION_COUNTED)
        assert "Défaillance de la contrepartie" in line.note and line.cashier is not None
        assert line.at < failure.occurred_at + dt.timedelta(minutes=5)  # type: ignore[attr-defined]


def _assert_a_month_of_seances() -> None:
    """The tables' books of the LU demo span a month (checked within the test above, which
    seeds the demo once)."""
    from house_books.models import DeviceAssignment
    from house_books.selectors import hours_in_force
    from tables.models import ControlDay, Session

    today = gaming_day()
    closed = set(ControlDay.objects.filter(closed_at__isnull=False).values_list("day", flat=True))
    assert len(closed) >= 20 and min(closed) <= today - dt.timedelta(days=25)
    played = set(Session.objects.values_list("day", flat=True))
    assert played - {today} == closed
    per_day = Counter(
        Session.objects.filter(day__lt=today - dt.timedelta(days=1)).values_list("day", flat=True)
    )
    assert set(per_day.values()) <= {2, 3, 4} and len(set(per_day.values())) > 1
    assert not Session.objects.filter(day__lt=today, closed_at__isnull=True).exists()
    # every séance opened under the hours then notified to the ministers
    assert all(hours_in_force(at) for at in Session.objects.values_list("opened_at", flat=True))
    # each past séance had its own shoe of the day, back in the cabinet
    past = DeviceAssignment.objects.filter(day__lt=today)
    assert past.count() == Session.objects.filter(day__lt=today).count()
    assert not past.filter(returned_at__isnull=True).exists()


def _assert_every_seance_plays_decks_of_the_depot() -> None:
    """LU art. 7, 32: every séance played has a shoe of decks the depot issued to its table for
    its day, checked there before play, its hand logs dealt from that shoe; a past séance's decks
    came back to the cabinet counted (52 cards) between its last hand and its closing."""
    from cards_registry.models import IssueLine
    from tables.models import Session

    today = gaming_day()
    sessions = Session.objects.select_related("table").prefetch_related("shoes__decks", "hand_logs")
    assert sessions.count() > 60
    for session in sessions:
        shoes = list(session.shoes.all())
        logs = list(session.hand_logs.all())
        if session.day == today and not logs and not session.result:
            continue  # a séance of today not yet played needs no shoe yet
        assert shoes, session
        assert logs and all(log.shoe_id in {shoe.pk for shoe in shoes} for log in logs), session
        for shoe in shoes:
            assert shoe.decks.count() == 6, shoe
            for shoe_deck in shoe.decks.all():
                line = IssueLine.objects.select_related(
                    "issue", "table_check", "return_line__deck_return"
                ).get(
                    deck_id=shoe_deck.deck_id,
                    issue__table_number=session.table.number,
                    issue__day=session.day,
                )
                assert line.issue.at <= line.table_check.at <= shoe.filled_at, (session, shoe_deck.serial)
                if session.day < today:
                    back = line.return_line
                    assert back.cards_counted == 52 and back.result == "fit", (session, shoe_deck.serial)
                    assert max(log.uploaded_at for log in logs) <= back.deck_return.at <= session.closed_at


def test_seed_demo_alone_stays_french(demo: Any) -> None:
    from tables.models import ControlDay, Session

    assert CasinoSettings.objects.get().profile == "FR"
    today = gaming_day()
    assert set(Session.objects.values_list("day", flat=True)) == {today - dt.timedelta(days=1), today}
    assert list(ControlDay.objects.values_list("day", flat=True)) == [today - dt.timedelta(days=1)]
