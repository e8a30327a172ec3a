"""The officers' app's Celery tasks are named after it (``inspection.tasks.*``); their former names
(``audit.tasks.*``, from when the registers lived in the record's app) still run the same task, so
that a message queued before an upgrade is not lost in the broker."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from celery import current_app

from audit.models import AuditEvent
from inspection import tasks
from tests.support.celery_workers import celery_worker, worker_env

TASKS = ("make_report", "make_report_part", "assemble_report", "inspect_books", "recover_stale_reports")


def _function(task: Any) -> Any:
    """The function a task runs (a bound task's is a method of the task)."""
    return getattr(task.__wrapped__, "__func__", task.__wrapped__)


@pytest.mark.parametrize("name", TASKS)
def test_each_task_is_named_after_the_officers_app_and_answers_to_its_former_name(name: str) -> None:
    task = getattr(tasks, name)
    assert task.name == f"inspection.tasks.{name}"
    former = current_app.tasks[f"audit.tasks.{name}"]
    assert former is not task and _function(former) is _function(task)  # the same function
    for option in ("acks_late", "reject_on_worker_lost", "max_retries", "autoretry_for", "typing"):
        assert getattr(former, option, None) == getattr(task, option, None), option


def test_the_beat_queues_the_new_names(settings: Any) -> None:
    queued = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "inspection.tasks.inspect_books" in queued and "inspection.tasks.recover_stale_reports" in queued
    assert not {f"audit.tasks.{name}" for name in TASKS} & queued


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_message_queued_under_the_former_name_runs(
    signing_configured: Any, settings: Any, tmp_path: Path
) -> None:
    with celery_worker(worker_env(settings), tmp_path, prefix="inspection") as worker:
        worker.send("audit.tasks.inspect_books", kwargs={"day": "2026-12-01"})
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not AuditEvent.objects.filter(action="inspection.run").exists():
            time.sleep(0.1)
        event = AuditEvent.objects.filter(action="inspection.run").first()
        assert event is not None, worker.log_tail()
        assert event.object_id == "2026-12-01" and '"checks"' in event.payload
