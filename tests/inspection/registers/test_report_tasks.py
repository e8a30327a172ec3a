"""Registers made by Celery: one report per request, per delivery, and after a worker dies."""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from casino_ops.regulations import RegulationError
from inspection.models import RegisterPart, Report, ReportPart
from inspection.registers.parts import progress_of
from inspection.registers.reports import _LOCK_CLASS, parts_of, produce_report, request_report, split_period
from inspection.tasks import make_report
from tests.support.celery_workers import celery_worker, worker_env

TODAY = dt.date(2026, 11, 30)


def _period() -> tuple[dt.date, dt.date]:
    today = timezone.localdate()
    return today - dt.timedelta(days=60), today + dt.timedelta(days=1)


@pytest.mark.django_db
def test_a_register_requested_twice_makes_one_report(
    demo: None, signing_configured: Any, director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    start, end = _period()
    with django_capture_on_commit_callbacks(execute=True) as queued:
        first = request_report(actor=director, register="depot-log", date_from=start, date_to=end)
    with django_capture_on_commit_callbacks(execute=True) as again:
        second = request_report(actor=director, register="depot-log", date_from=start, date_to=end)
    # the request queues its print once (the print then signs a checkpoint covering its issuing
    # event, whose copy goes to the witness directory on commit: inspection.registers.issuing)
    tasks = [callback for callback in queued if getattr(callback, "__name__", "") != "witness_pending"]
    assert first.pk == second.pk and len(tasks) == 1 and len(again) == 0
    report = Report.objects.get()
    assert report.state == Report.State.DONE and report.progress == 100 and report.attempts == 1
    # the demo's depot log (its séances' decks issued and returned included) on a page or two
    assert report.requested_by == director and report.rows and report.pages >= 1
    with default_storage.open(report.file.name, "rb") as f:
        import hashlib

        assert hashlib.sha256(f.read()).hexdigest() == report.sha256


@pytest.mark.django_db
def test_a_task_delivered_twice_makes_one_report(demo: None, signing_configured: Any) -> None:
    start, end = _period()
    report = request_report(actor=None, register="incidents", date_from=start, date_to=end, enqueue=False)
    assert make_report.apply(args=[report.pk]).get() == "done"
    made = Report.objects.get(pk=report.pk)
    assert make_report.apply(args=[report.pk]).get() == "done"
    again = Report.objects.get(pk=report.pk)
    assert (again.attempts, again.sha256, again.file.name) == (1, made.sha256, made.file.name)
    assert Report.objects.count() == 1
    assert len(default_storage.listdir("registers/incidents")[1]) == 1


@pytest.mark.django_db(transaction=True)
def test_a_delivery_that_finds_the_report_in_hand_leaves_it(demo: None, signing_configured: Any) -> None:
    start, end = _period()
    report = request_report(actor=None, register="order-book", date_from=start, date_to=end, enqueue=False)
    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"],
        port=db["PORT"] or 5432,
        user=db["USER"],
        dbname=db["NAME"],
        password=db["PASSWORD"] or None,
        autocommit=True,
    ) as other:
        other.execute("SELECT pg_advisory_lock(%s, %s)", [_LOCK_CLASS, report.pk])
        assert produce_report(report.pk).state == Report.State.PENDING  # another worker holds it
        other.execute("SELECT pg_advisory_unlock(%s, %s)", [_LOCK_CLASS, report.pk])
    assert produce_report(report.pk).state == Report.State.DONE


@pytest.mark.django_db
def test_a_file_left_by_a_dead_attempt_is_replaced(demo: None, signing_configured: Any) -> None:
    start, end = _period()
    report = request_report(actor=None, register="destructions", date_from=start, date_to=end, enqueue=False)
    name = f"registers/destructions/{report.key}.pdf"
    from django.core.files.base import ContentFile

    default_storage.save(name, ContentFile(b"half a PDF"))
    done = produce_report(report.pk)
    assert done.file.name == name
    with default_storage.open(name, "rb") as f:
        assert f.read(5) == b"%PDF-"


@pytest.mark.django_db
def test_without_a_certificate_the_request_is_refused_and_nothing_is_queued(
    demo: None, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.SIGNING_PKCS12 = ""
    with django_capture_on_commit_callbacks() as queued, pytest.raises(RegulationError) as refused:
        request_report(actor=None, register="order-book", date_from=TODAY, date_to=TODAY)
    assert refused.value.code == "SIGNING_NOT_CONFIGURED" and not queued
    assert not Report.objects.exists()


@pytest.mark.django_db
def test_a_failed_report_is_tried_again_when_asked_again(
    demo: None, signing_configured: Any, settings: Any
) -> None:
    start, end = _period()
    report = request_report(actor=None, register="order-book", date_from=start, date_to=end, enqueue=False)
    settings.SIGNING_PKCS12 = "/nonexistent.p12"
    with pytest.raises(RegulationError):
        produce_report(report.pk)
    assert Report.objects.get(pk=report.pk).state == Report.State.FAILED
    assert "SIGNING_NOT_CONFIGURED" in Report.objects.get(pk=report.pk).error
    settings.SIGNING_PKCS12 = str(signing_configured.pkcs12)
    again = request_report(actor=None, register="order-book", date_from=start, date_to=end, enqueue=False)
    assert again.pk == report.pk and again.state == Report.State.PENDING
    assert produce_report(report.pk).state == Report.State.DONE


def test_split_period_covers_the_period_exactly() -> None:
    parts = split_period(dt.date(2026, 1, 1), dt.date(2026, 1, 10), 3)
    assert parts == [
        (dt.date(2026, 1, 1), dt.date(2026, 1, 4)),
        (dt.date(2026, 1, 5), dt.date(2026, 1, 7)),
        (dt.date(2026, 1, 8), dt.date(2026, 1, 10)),
    ]
    assert split_period(dt.date(2026, 1, 1), dt.date(2026, 1, 1), 5) == [(dt.date(2026, 1, 1),) * 2]


@pytest.mark.django_db
def test_a_long_period_is_printed_by_month_as_one_signed_document(
    demo: None,
    signing_configured: Any,
    django_capture_on_commit_callbacks: Any,
    tmp_path: Path,
) -> None:
    from cards_registry.selectors import depot_log

    start, end = timezone.localdate() - dt.timedelta(days=400), timezone.localdate() + dt.timedelta(days=1)
    total = len(depot_log(start, end))
    assert total > 3
    with django_capture_on_commit_callbacks(execute=True):
        report = request_report(actor=None, register="depot-log", date_from=start, date_to=end)
    report.refresh_from_db()
    assert report.state == Report.State.DONE and report.rows == total
    parts = list(ReportPart.objects.filter(report=report).select_related("part").order_by("number"))
    assert len(parts) >= 12 and all(p.part_id for p in parts)
    # by month: each part a calendar month cut to the period, in order; the months without
    # any entry are left out of the print, so they are not parts either
    assert all((p.date_from.year, p.date_from.month) == (p.date_to.year, p.date_to.month) for p in parts)
    assert all(p.date_from.day == 1 or p.date_from == start for p in parts)
    assert start <= parts[0].date_from and parts[-1].date_to <= end
    assert all(a.date_to < b.date_from for a, b in zip(parts, parts[1:], strict=False))
    assert all(not p.part.empty for p in parts) and sum(p.part.rows for p in parts) == total
    assert parts_of(report) == [report] and progress_of(report) == (len(parts), len(parts))

    # the command writes the same document, one file
    out = tmp_path / "log.pdf"
    call_command(
        "register", "depot-log", "--from", start.isoformat(), "--to", end.isoformat(), "--output", str(out)
    )
    import hashlib

    assert hashlib.sha256(out.read_bytes()).hexdigest() == report.sha256
    assert not list(tmp_path.glob("log-*.pdf"))


# --- A real worker on Redis, killed mid-task ---------------------------------------------


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_task_whose_worker_is_killed_is_retried_and_makes_one_report(
    demo: None, signing_configured: Any, settings: Any, tmp_path: Path
) -> None:
    env = worker_env(
        settings,
        CELERY_WORKER_MAX_TASKS_PER_CHILD="5",
    )
    with celery_worker(env, tmp_path, pool=("-P", "prefork", "-c", "1")) as worker:
        start, end = _period()
        report = request_report(
            actor=None, register="receipt-book", date_from=start, date_to=end, enqueue=False
        )
        worker.send("inspection.tasks.make_report", args=[report.pk])
        killed = None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and killed is None:
            state = Report.objects.filter(pk=report.pk).values_list("state", "attempts", "file").get()
            if state[0] == Report.State.RUNNING:
                children = _children(worker.process.pid)
                assert len(children) == 1
                os.kill(children[0], signal.SIGKILL)
                killed = state
            elif state[0] == Report.State.DONE:
                pytest.fail("the task finished before it could be killed")
            time.sleep(0.01)
        assert killed is not None, worker.log_tail()
        assert killed[1] == 1 and not killed[2]  # killed during its first attempt, before any file
        while time.monotonic() < deadline:
            report.refresh_from_db()
            if report.state == Report.State.DONE:
                break
            time.sleep(0.05)
        log_text = worker.log.read_text()
        assert report.state == Report.State.DONE, log_text[-3000:]
        assert report.attempts == 2  # the redelivery made it
        assert "WorkerLostError" in log_text or "exited prematurely" in log_text or "SIGKILL" in log_text
        assert Report.objects.filter(register="receipt-book").count() == 1
        assert len(default_storage.listdir("registers/receipt-book")[1]) == 1
        with default_storage.open(report.file.name, "rb") as f:
            import hashlib

            assert hashlib.sha256(f.read()).hexdigest() == report.sha256


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_parts_fan_out_over_the_workers_and_a_part_whose_worker_is_killed_is_made_once(
    demo: None, signing_configured: Any, settings: Any, tmp_path: Path
) -> None:
    env = worker_env(settings)
    with celery_worker(env, tmp_path, pool=("-P", "prefork", "-c", "2")) as worker:
        start, end = (
            timezone.localdate() - dt.timedelta(days=200),  # at least six months with entries
            timezone.localdate() + dt.timedelta(days=1),
        )
        report = request_report(actor=None, register="depot-log", date_from=start, date_to=end, enqueue=False)
        worker.send("inspection.tasks.make_report", args=[report.pk])
        deadline = time.monotonic() + 240
        killed = None
        seen: set[tuple[int, int]] = set()
        while time.monotonic() < deadline:
            done, total = progress_of(report)
            seen.add((done, total))
            state = Report.objects.filter(pk=report.pk).values_list("state", flat=True).get()
            if killed is None and total and 1 <= done < total - 1:
                children = _children(worker.process.pid)
                os.kill(children[-1], signal.SIGKILL)  # one of the two, busy with a part
                killed = (done, total)
            if state in (Report.State.DONE, Report.State.FAILED):
                break
            time.sleep(0.01)
        report.refresh_from_db()
        log_text = worker.log.read_text()
        assert killed is not None, log_text[-3000:]
        assert report.state == Report.State.DONE, log_text[-3000:]
        parts = list(ReportPart.objects.filter(report=report).order_by("number"))
        assert len(parts) >= 6 and all(p.part_id for p in parts)
        assert progress_of(report) == (len(parts), len(parts))
        assert any(0 < d < t for d, t in seen)  # progress was seen part by part
        # each period made once, whatever the deliveries
        assert RegisterPart.objects.count() == len(parts)
        assert len({p.part_id for p in parts}) == len(parts)
        assert "make_report_part" in log_text
        assert len(default_storage.listdir("registers/depot-log")[1]) == 1
        with default_storage.open(report.file.name, "rb") as f:
            import hashlib

            assert hashlib.sha256(f.read()).hexdigest() == report.sha256
