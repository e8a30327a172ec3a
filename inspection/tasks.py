"""Celery tasks of the officers' side: registers, the self-inspection.

Tasks take ids and are idempotent: late acknowledgement delivers a task again
when its worker dies, and a second delivery finds the work done or in hand.
"""

from collections.abc import Callable
from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

from audit import record
from audit.actions import Action
from casino_ops.checks import inspect
from inspection.models import Report, ReportPart

from .registers.issuing import ProofPending
from .registers.parts import all_done, assemble, assemble_or_wait, make_part
from .registers.reports import fail, produce_report, recover_stale
from .templatetags.inspection_panel import store


def task(name: str, **options: Any) -> Callable[[Callable[..., Any]], Any]:
    """Register the function as the Celery task ``inspection.tasks.<name>``, and under its former
    name ``audit.tasks.<name>`` (the registers' tasks were the record's app's) with the same
    options: a message queued under the former name before an upgrade still runs."""

    def decorate(function: Callable[..., Any]) -> Any:
        shared_task(name=f"audit.tasks.{name}", **options)(function)
        return shared_task(name=f"inspection.tasks.{name}", **options)(function)

    return decorate


#: The print's tasks: acknowledged once done, so that the message of a worker that dies goes to
#: another; tried again, after a growing delay, when the database's connection is lost.
_PRINTING: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "bind": True,
}


@task("make_report", max_retries=5, **_PRINTING)
def make_report(self: Any, report_id: int) -> str:
    """Make one register's signed PDF (see inspection.registers.reports); its parts go to the same queue."""
    queue = (self.request.delivery_info or {}).get("routing_key") or None
    return produce_report(report_id, queue=queue).state


@task("make_report_part", max_retries=5, **_PRINTING)
def make_report_part(self: Any, report_part_id: int) -> bool:
    """Make one period of a print (see inspection.registers.parts); the last one assembles the whole.

    Idempotent: a part made is left as it is, a part in hand elsewhere is left
    to that worker (its message comes back if it dies).
    """
    report_id = ReportPart.objects.values_list("report_id", flat=True).get(pk=report_part_id)
    try:
        made = make_part(report_part_id)
        if all_done(report_id):
            assemble_or_wait(report_id, queue=(self.request.delivery_info or {}).get("routing_key") or None)
    except (OperationalError, InterfaceError):
        raise
    except Exception as error:
        fail(report_id, error)
        raise
    return made


@task("assemble_report", max_retries=None, **_PRINTING)
def assemble_report(self: Any, report_id: int) -> str:
    """Assemble a print whose parts are made, once the witnesses cosigned a checkpoint covering
    its issuing event (see inspection.registers.issuing); tried again every
    ``REGISTER_PROOF_RETRY_DELAY`` seconds, ``REGISTER_PROOF_RETRIES`` times, then failed with the
    reason (asked again, it is tried again)."""
    from django.conf import settings

    try:
        return str(assemble(report_id).state)
    except ProofPending as pending:
        last = self.request.retries >= settings.REGISTER_PROOF_RETRIES
        if self.request.called_directly or self.request.is_eager or last:  # in-process: no waiting
            fail(report_id, pending)
            return "failed"
        Report.objects.filter(pk=report_id).exclude(state=Report.State.DONE).update(error=str(pending))
        raise self.retry(countdown=settings.REGISTER_PROOF_RETRY_DELAY) from pending
    except (OperationalError, InterfaceError):
        raise
    except Exception as error:
        fail(report_id, error)
        raise


@task("inspect_books", acks_late=True, reject_on_worker_lost=True)
def inspect_books(day: str | None = None) -> int:
    """The nightly self-inspection (beat): every check run, its result an audited event
    (``inspection.run``: the checks, the breaches with their articles). Returns the breaches' count."""
    import datetime as dt

    from django.db import transaction

    inspected = dt.date.fromisoformat(day) if day else None
    result = inspect(inspected)
    with transaction.atomic():
        record(
            actor=None,
            action=Action.INSPECTION_RUN,
            object_type="inspection",
            object_id=day or "today",
            payload={"day": day, **result.as_dict()},
        )
    if inspected is None:
        store(result)
    return len(result.breaches)


@task("recover_stale_reports", acks_late=True, reject_on_worker_lost=True)
def recover_stale_reports(queue: str | None = None) -> dict[str, list[int]]:
    """Beat, every REPORT_RECOVERY_EVERY seconds: a report left running by a worker that died is
    resumed, or failed with its reason after its last attempt, once its heartbeat is stale (see
    inspection.registers.reports.recover_stale)."""
    import datetime as dt

    from django.conf import settings

    return recover_stale(
        heartbeat_stale_after=dt.timedelta(seconds=settings.REPORT_HEARTBEAT_STALE_AFTER),
        stale_after=dt.timedelta(seconds=settings.REPORT_STALE_AFTER),
        queue=queue,
    )
