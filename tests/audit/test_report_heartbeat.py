"""A register whose worker died is resumed within two minutes of the death, by its heartbeat:
the process making a report (or one of its parts) touches a heartbeat on its row every few
seconds; a report none of whose heartbeats is fresh, one of them left by a process that died,
is resumed by the beat task, and a report whose heartbeat is fresh is never taken."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
import time_machine
from django.db import connection
from django.utils import timezone

from audit.actions import Action
from audit.models import AuditEvent, Report, ReportPart
from inspection.registers.heartbeat import beating
from inspection.registers.parts import PART_LOCK_CLASS, plan
from inspection.registers.reports import recover_stale, request_report

BEAT_STALE = dt.timedelta(seconds=45)
LOST = dt.timedelta(minutes=16)


def _recover() -> dict[str, list[int]]:
    return recover_stale(heartbeat_stale_after=BEAT_STALE, stale_after=LOST)


def _period() -> tuple[dt.date, dt.date]:
    today = timezone.localdate()
    return today - dt.timedelta(days=60), today + dt.timedelta(days=1)


def _running(*, beat: dt.datetime | None, started: dt.datetime | None = None) -> Report:
    """A receipt book its maker took (one attempt), its heartbeat last touched at ``beat``."""
    start, end = _period()
    report = request_report(actor=None, register="receipt-book", date_from=start, date_to=end, enqueue=False)
    Report.objects.filter(pk=report.pk).update(
        state=Report.State.RUNNING,
        attempts=1,
        progress=5,
        started_at=started or timezone.now() - dt.timedelta(minutes=1),
        heartbeat_at=beat,
    )
    report.refresh_from_db()
    return report


@pytest.fixture
def other_session() -> Iterator[psycopg.Connection[Any]]:
    """A second database session: a live worker elsewhere."""
    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"],
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
        autocommit=True,
    ) as other:
        yield other


def test_a_dead_worker_is_found_within_two_minutes_with_the_production_settings() -> None:
    from casino_ops import settings as production

    beat = production.CELERY_BEAT_SCHEDULE["recover-stale-reports"]
    assert beat["task"] == "audit.tasks.recover_stale_reports"
    # stale at most REPORT_HEARTBEAT_STALE_AFTER after its last beat, taken at the next recovery
    assert production.REPORT_HEARTBEAT_STALE_AFTER + float(beat["schedule"]) <= 90  # type: ignore[arg-type]
    # a live worker, one beat late, never looks dead
    assert production.REPORT_HEARTBEAT_STALE_AFTER >= 3 * production.REPORT_HEARTBEAT_EVERY


@pytest.mark.django_db
def test_a_fresh_heartbeat_is_not_taken_and_a_stale_one_is_resumed_and_printed_once(
    demo: None, signing_configured: Any
) -> None:
    report = _running(beat=timezone.now() - dt.timedelta(seconds=30))
    assert _recover() == {"resumed": [], "failed": []}
    report.refresh_from_db()
    assert report.state == Report.State.RUNNING and report.attempts == 1

    with time_machine.travel(timezone.now() + dt.timedelta(seconds=16), tick=False):
        # 46 s without a beat, started 61 s ago: the old 16-minute rule would still wait
        assert _recover() == {"resumed": [report.pk], "failed": []}
    report.refresh_from_db()
    # resumed (the tests' tasks run in-process): made, signed, the print in the chain once
    assert report.state == Report.State.DONE and report.sha256 and report.attempts == 2
    assert report.heartbeat_at is None
    printed = AuditEvent.objects.filter(action=Action.REGISTER_PRINTED, object_id=str(report.pk))
    assert printed.count() == 1


@pytest.mark.django_db
def test_a_report_whose_part_beats_is_not_taken_and_one_whose_part_died_is(
    demo: None, signing_configured: Any
) -> None:
    report = _running(beat=None)  # its maker handed its parts to the queue and let go
    parts = plan(report)
    assert len(parts) >= 2
    ReportPart.objects.filter(pk=parts[1].pk).update(heartbeat_at=timezone.now() - dt.timedelta(seconds=50))
    ReportPart.objects.filter(pk=parts[0].pk).update(heartbeat_at=timezone.now() - dt.timedelta(seconds=5))
    assert _recover() == {"resumed": [], "failed": []}  # one part's worker is alive
    ReportPart.objects.filter(pk=parts[0].pk).update(heartbeat_at=None)  # that one let go
    assert _recover() == {"resumed": [report.pk], "failed": []}
    report.refresh_from_db()
    assert report.state == Report.State.DONE and report.attempts == 2


@pytest.mark.django_db
def test_a_report_waiting_for_its_queued_parts_is_left_to_them(demo: None, signing_configured: Any) -> None:
    """No heartbeat at all: nobody holds it, its parts wait in the queue (a busy queue is no death)."""
    report = _running(beat=None, started=timezone.now() - dt.timedelta(minutes=10))
    plan(report)
    assert _recover() == {"resumed": [], "failed": []}
    report.refresh_from_db()
    assert report.state == Report.State.RUNNING and report.attempts == 1


@pytest.mark.django_db
def test_a_stale_heartbeat_whose_part_is_still_locked_by_a_live_session_is_not_taken(
    demo: None, signing_configured: Any, other_session: psycopg.Connection[Any]
) -> None:
    report = _running(beat=timezone.now() - dt.timedelta(minutes=2))
    parts = plan(report)
    other_session.execute("SELECT pg_advisory_lock(%s, %s)", [PART_LOCK_CLASS, parts[0].pk])
    assert _recover() == {"resumed": [], "failed": []}
    report.refresh_from_db()
    assert report.state == Report.State.RUNNING and report.attempts == 1
    other_session.execute("SELECT pg_advisory_unlock(%s, %s)", [PART_LOCK_CLASS, parts[0].pk])
    assert _recover() == {"resumed": [report.pk], "failed": []}


@pytest.mark.django_db
def test_a_stale_report_after_its_last_attempt_is_failed_and_its_heartbeat_cleared(
    demo: None, signing_configured: Any
) -> None:
    report = _running(beat=timezone.now() - dt.timedelta(minutes=1))
    Report.objects.filter(pk=report.pk).update(attempts=3)
    assert _recover() == {"resumed": [], "failed": [report.pk]}
    report.refresh_from_db()
    assert report.state == Report.State.FAILED and "disparu" in report.error and report.heartbeat_at is None


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_is_touched_from_a_thread_while_held_and_cleared_when_let_go(
    demo: None, signing_configured: Any, settings: Any
) -> None:
    settings.REPORT_HEARTBEAT_EVERY = 0.1
    report = _running(beat=None)
    seen = set()
    with beating(Report, report.pk):
        with beating(Report, report.pk):  # the assembly inside its maker: one heartbeat
            pass
        deadline = time.monotonic() + 10
        while len(seen) < 4 and time.monotonic() < deadline:
            beat = Report.objects.values_list("heartbeat_at", flat=True).get(pk=report.pk)
            assert beat is not None  # the inner context let go, the outer one still holds it
            seen.add(beat)
            time.sleep(0.05)
    assert len(seen) >= 4  # touched again and again, without the main thread's help
    assert Report.objects.values_list("heartbeat_at", flat=True).get(pk=report.pk) is None
