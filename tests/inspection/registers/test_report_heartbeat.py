"""A register whose worker died is resumed within two minutes of the death, by its heartbeat:
the process making a report (or one of its parts) touches a heartbeat on its row every few
seconds; a report none of whose heartbeats is fresh, one of them left by a process that died,
is resumed by the beat task, and a report whose heartbeat is fresh is never taken."""

from __future__ import annotations

import datetime as dt
import hashlib
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import time_machine
from django.core.files.storage import default_storage
from django.db import connection
from django.utils import timezone

from audit.actions import Action
from audit.models import AuditEvent
from inspection.models import RegisterPart, Report, ReportPart
from inspection.portal.checker import check_pdf
from inspection.registers.heartbeat import beating
from inspection.registers.parts import PART_LOCK_CLASS, plan
from inspection.registers.reports import recover_stale, request_report
from tests.support.celery_workers import redis_url, start_worker, worker_env
from tests.support.processes import stop_process

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
    assert beat["task"] == "inspection.tasks.recover_stale_reports"
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
    seen: set[dt.datetime] = set()
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


# --- A real worker killed mid-print ------------------------------------------------------


def _fill(per_month: int) -> tuple[dt.date, dt.date]:
    """A receipt book of ``per_month`` receptions (a sixain each) in each of three months of 2025,
    enough that laying out one month takes a worker a few seconds. Returns the period."""
    from django.contrib.auth import get_user_model

    from cards_registry.models import Book, BookKind, Deck, Manufacturer, Order, Reception, Sixain

    start, end = dt.date(2025, 1, 1), dt.date(2025, 3, 31)
    director = get_user_model().objects.get(username="directeur")
    maker = Manufacturer.objects.order_by("code")[0]
    now = timezone.now()
    rows = 3 * per_month
    order_book = Book.objects.create(kind=BookKind.ORDER, number=700, closed_at=now)
    book = Book.objects.create(kind=BookKind.RECEIPT, number=701, closed_at=now, last_number=rows)
    order = Order.objects.create(
        book=order_book, number=1, manufacturer=maker, ordered_on=start, recorded_by=director
    )
    receptions = Reception.objects.bulk_create(
        Reception(
            book=book,
            number=i + 1,
            order=order,
            manufacturer=maker,
            received_on=dt.date(2025, 1 + i // per_month, 1 + (i % per_month) * 27 // per_month),
            delivery_note=f"BL {i + 1:05d}",
            recorded_by=director,
        )
        for i in range(rows)
    )
    sixains = Sixain.objects.bulk_create(
        Sixain(manufacturer=maker, serial=f"HB{i:05d}", reception=r) for i, r in enumerate(receptions)
    )
    Deck.objects.bulk_create(
        Deck(manufacturer=maker, serial=f"HB{i:05d}-{k}", back_colour="bleu", reception=r, sixain=x)
        for i, (r, x) in enumerate(zip(receptions, sixains, strict=True))
        for k in range(1, 7)
    )
    return start, end


def _worker(env: dict[str, str], queue: str, log: Path) -> subprocess.Popen[bytes]:
    """A real Celery worker, one process (``solo``: killing it kills the worker whole)."""
    return start_worker(env, queue, log.open("w"), name=f"{queue}-{log.stem}")


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_register_whose_worker_is_killed_mid_print_is_resumed_and_signed_within_two_minutes(
    demo: None, signing_configured: Any, settings: Any, tmp_path: Path
) -> None:
    """The worker is killed (SIGKILL, whole: its message stays unacknowledged in the broker for
    the visibility timeout, 20 minutes) while it lays out a part that another task gave it, when
    no process holds the report's lock; a second worker makes the other parts, and the beat's
    recovery, once the dead part's heartbeat is stale, resumes the register: made once, signed,
    its print in the chain once. The heartbeat's settings are shortened (the production ones, 10 s
    and 45 s with a recovery every 30 s, are held to the two minutes above)."""
    from celery import Celery

    start, end = _fill(per_month=60)
    queue = f"registers-{uuid.uuid4().hex[:8]}"
    env = worker_env(
        settings,
        REPORT_HEARTBEAT_EVERY="0.5",
        REPORT_HEARTBEAT_STALE_AFTER="2",
    )
    logs = {name: tmp_path / f"{name}.log" for name in ("first", "second")}
    first = _worker(env, queue, logs["first"])
    second = None
    sender = Celery(broker=redis_url(), set_as_current=False)  # the project's app stays current
    try:
        report = request_report(
            actor=None, register="receipt-book", date_from=start, date_to=end, enqueue=False
        )
        sender.send_task("inspection.tasks.make_report", args=[report.pk], queue=queue)
        deadline = time.monotonic() + 180
        in_hand = None
        while in_hand is None and time.monotonic() < deadline and first.poll() is None:
            made = ReportPart.objects.filter(report=report, part__isnull=False).count()
            beating_parts = ReportPart.objects.filter(
                report=report, part__isnull=True, heartbeat_at__isnull=False
            )
            in_hand = beating_parts.values_list("pk", flat=True).first() if made else None
            time.sleep(0.005)
        assert in_hand is not None, logs["first"].read_text()[-3000:]
        first.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        first.wait()
        # killed mid-print: the part in hand not made, its heartbeat left behind, the report's
        # maker gone already (its lock free: the parts went to the queue)
        dead = ReportPart.objects.get(pk=in_hand)
        assert dead.part_id is None and dead.heartbeat_at is not None
        assert Report.objects.get(pk=report.pk).state == Report.State.RUNNING

        second = _worker(env, queue, logs["second"])
        sent = 0.0
        while time.monotonic() < deadline:
            if time.monotonic() - sent >= 1:  # the beat, every second here
                sender.send_task(
                    "inspection.tasks.recover_stale_reports", kwargs={"queue": queue}, queue=queue
                )
                sent = time.monotonic()
            report.refresh_from_db()
            if report.state in (Report.State.DONE, Report.State.FAILED):
                break
            time.sleep(0.05)
        completed = time.monotonic() - killed
        log_text = logs["second"].read_text()
        assert report.state == Report.State.DONE, log_text[-3000:]
        assert completed < 120, completed
        assert report.attempts == 2  # the first worker's, then the recovery's
        assert "recover_stale_reports" in log_text and "'resumed': [" + str(report.pk) in log_text
        # each period made once, whatever the deliveries; the dead part made by the second worker
        parts = list(ReportPart.objects.filter(report=report).order_by("number"))
        assert len(parts) == 3 and all(p.part_id for p in parts)
        assert RegisterPart.objects.count() == 3 and not any(p.heartbeat_at for p in parts)
        assert len(default_storage.listdir("registers/receipt-book")[1]) == 1
        with default_storage.open(report.file.name, "rb") as f:
            data = f.read()
        assert hashlib.sha256(data).hexdigest() == report.sha256 and check_pdf(data).issued
        printed = AuditEvent.objects.filter(action=Action.REGISTER_PRINTED, object_id=str(report.pk))
        assert printed.count() == 1
    finally:
        stop_process(first)
        if second is not None:
            stop_process(second)
        with sender.connection_for_write() as conn:
            conn.default_channel.queue_delete(queue)
