"""A register whose worker died whole (its message waiting in the broker until the visibility
timeout) does not stay "running": the beat task resumes it, or fails it with its reason after
its last attempt, and the report list says so."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from inspection.models import Report
from inspection.registers.reports import _LOCK_CLASS, recover_stale, request_report
from tests.support.celery_workers import celery_worker, worker_env

STALE = dt.timedelta(minutes=16)
BEAT_STALE = dt.timedelta(seconds=45)


def _period() -> tuple[dt.date, dt.date]:
    today = timezone.localdate()
    return today - dt.timedelta(days=60), today + dt.timedelta(days=1)


def _lost(attempts: int) -> Report:
    """A report running for 20 minutes at 90 %, without any heartbeat (its parts' messages lost)."""
    start, end = _period()
    report = request_report(actor=None, register="receipt-book", date_from=start, date_to=end, enqueue=False)
    Report.objects.filter(pk=report.pk).update(
        state=Report.State.RUNNING,
        progress=90,
        attempts=attempts,
        started_at=timezone.now() - dt.timedelta(minutes=20),
    )
    return report


def test_the_visibility_timeout_outlasts_the_longest_print_and_the_recovery_runs_every_half_minute(settings):
    from casino_ops import settings as production

    assert production.CELERY_TASK_ACKS_LATE and production.CELERY_TASK_REJECT_ON_WORKER_LOST
    assert (
        production.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] > production.CELERY_TASK_TIME_LIMIT
    )
    assert production.CELERY_TASK_TIME_LIMIT < production.REPORT_STALE_AFTER <= 30 * 60
    beat = production.CELERY_BEAT_SCHEDULE["recover-stale-reports"]
    assert beat["task"] == "inspection.tasks.recover_stale_reports" and beat["schedule"] <= 30


@pytest.mark.django_db
def test_a_lost_report_after_its_last_attempt_is_failed_with_its_reason_and_shown(
    demo, client, users, signing_configured
):
    from casino_ops import roles

    report = _lost(attempts=3)
    assert recover_stale(heartbeat_stale_after=BEAT_STALE, stale_after=STALE) == {
        "resumed": [],
        "failed": [report.pk],
    }
    report.refresh_from_db()
    assert report.state == Report.State.FAILED
    assert "disparu" in report.error and report.finished_at is not None
    client.force_login(users[roles.DIRECTOR])
    page = client.get("/admin/inspection/report/").content.decode()
    assert "disparu" in page


@pytest.mark.django_db(transaction=True)
def test_a_report_whose_maker_is_alive_is_left_alone(signing_configured):
    call_command("seed_demo", verbosity=0)
    report = _lost(attempts=1)
    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"],
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
    ) as other:
        other.execute("SELECT pg_advisory_lock(%s, %s)", [_LOCK_CLASS, report.pk])
        assert recover_stale(heartbeat_stale_after=BEAT_STALE, stale_after=STALE) == {
            "resumed": [],
            "failed": [],
        }
    report.refresh_from_db()
    assert report.state == Report.State.RUNNING
    Report.objects.filter(pk=report.pk).update(started_at=timezone.now())
    assert recover_stale(heartbeat_stale_after=BEAT_STALE, stale_after=STALE) == {
        "resumed": [],
        "failed": [],
    }  # not stale yet


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_report_left_running_by_a_dead_worker_is_resumed_by_the_beat_task(
    signing_configured: Any, settings: Any, tmp_path: Path
) -> None:
    call_command("seed_demo", verbosity=0)
    report = _lost(attempts=1)
    env = worker_env(settings)
    with celery_worker(env, tmp_path) as worker:
        worker.send("inspection.tasks.recover_stale_reports", kwargs={"queue": worker.queue})
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            report.refresh_from_db()
            if report.state in (Report.State.DONE, Report.State.FAILED):
                break
            time.sleep(0.05)
        assert report.state == Report.State.DONE, worker.log_tail()
        assert report.attempts == 2 and report.sha256
