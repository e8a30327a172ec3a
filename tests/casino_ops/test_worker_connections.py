"""A worker keeps its database connection from one task to the next (a new connection per task
was a tenth of a replay's CPU: the busy day's bench, docs/development.md), and closes it, as
Django does between requests, when it broke or is older than ``CONN_MAX_AGE``."""

from __future__ import annotations

import pytest
from celery.signals import task_postrun, task_prerun
from django.db import connection


class _Request:
    is_eager = False  # a task run by a worker, not in the caller's process


class _Task:
    request = _Request()


def _run_a_task() -> None:
    """What Celery sends around a task a worker runs (its Django fix-up listens as well)."""
    task_prerun.send(sender=_Task(), task_id="t", task=_Task(), args=(), kwargs={})
    task_postrun.send(
        sender=_Task(), task_id="t", task=_Task(), args=(), kwargs={}, retval=0, state="SUCCESS"
    )


@pytest.fixture
def worker_fixup():
    """Celery's Django fix-up of a worker, installed as a worker starts, with our settings."""
    from celery.fixups.django import DjangoWorkerFixup

    from casino_ops.celery import app

    fixup = DjangoWorkerFixup(app)
    fixup.install()
    yield fixup
    task_prerun.disconnect(fixup.on_task_prerun)
    task_postrun.disconnect(fixup.on_task_postrun)


@pytest.mark.django_db(transaction=True)
def test_a_worker_keeps_its_connection_between_tasks(worker_fixup):
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        before = cursor.fetchone()[0]
    for _ in range(3):
        _run_a_task()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] == before


@pytest.mark.django_db(transaction=True)
def test_a_broken_connection_is_closed_after_its_task(worker_fixup):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    connection.connection.close()  # the server went away under the task
    connection.errors_occurred = True  # as Django marks it on the error the task met
    _run_a_task()
    assert connection.connection is None  # the next task connects again
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone()[0] == 1
