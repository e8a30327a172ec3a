"""Registers made as reports: requested once, made once, by Celery or by the command.

A report row is keyed by what it prints (register, period, table), so a
repeated request returns the same row and a task delivered twice (late
acknowledgement, a worker killed mid-way) makes one file: the maker holds a
PostgreSQL advisory lock on the report while it works (released by the
database if its process dies) and writes the result only if the report is not
already made. A report is assembled from parts printed once per period and
reused while their period is unchanged (:mod:`inspection.registers.parts`); the
parts still to make fan out over the workers, one task per part, and each
worker holds one period's pages at a time (WeasyPrint holds the whole
document it lays out), so a worker's memory stays bounded. Whoever holds the
report or one of its parts beats a heartbeat on its row
(:mod:`inspection.registers.heartbeat`): a report left by a worker that died
is resumed once its heartbeats are stale (:func:`recover_stale`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
from collections.abc import Iterator
from typing import Any

from django.db import connection, transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import signing
from audit.actions import Action
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.refusals import Refusal
from casino_ops.regulations import RegulationError
from inspection.models import Report, ReportPart
from tables import selectors as tables

from .base import Request, get_register
from .heartbeat import beating
from .parts import (
    PART_LOCK_CLASS,
    REPORT_LOCK_CLASS,
    advisory_lock,
    all_done,
    assemble_or_wait,
    books_version,
    likely_changed_first,
    make_part,
    plan,
)

_LOCK_CLASS = REPORT_LOCK_CLASS  # advisory lock class of report makers ("REG")


def report_key(
    register: str,
    date_from: dt.date,
    date_to: dt.date,
    table: int | None,
    *,
    part_of: str = "",
    version: str = "",
) -> str:
    """What a report prints: register, period, table, and the version of the books
    (:func:`inspection.registers.parts.books_version`), so that a request repeated while
    nothing changed returns the same report, and one made after a change prints anew
    (taking the stored parts of the periods the change left alone)."""
    text = f"{register}|{date_from.isoformat()}|{date_to.isoformat()}|{'' if table is None else table}"
    if part_of:
        text += f"|part-of:{part_of}"
    if version:
        text += f"|books:{version}"
    return hashlib.sha256(text.encode()).hexdigest()


def _enqueue(report_id: int) -> None:
    from inspection.tasks import make_report  # cycle: the tasks run the reports

    transaction.on_commit(lambda: make_report.delay(report_id))


@declare_act(
    act=(Act.REQUEST_REGISTER, Act.PRINT),
    action=Action.REGISTER_ISSUED,
    article="books.no_erasure",
    refusals=(
        Refusal.REGISTER_UNKNOWN,
        Refusal.REGISTER_BAD_PERIOD,
        Refusal.REGISTER_TABLE_REQUIRED,
        Refusal.REGISTER_UNKNOWN_TABLE,
    ),
    gate=False,
)
@transaction.atomic
def request_report(
    *,
    actor: Any,
    register: str,
    date_from: dt.date,
    date_to: dt.date,
    table: int | None = None,
    enqueue: bool = True,
) -> Report:
    """Ask for a register; the same request again returns the same report while the
    books are unchanged (after a change, a new report, made from the unchanged parts).

    A report that failed is tried again when asked again. Refuses at once,
    with the reason, when the register, the period or the table is wrong or
    when no signing certificate is configured.

    Asked by the management in the admin (``Act.REQUEST_REGISTER``) or by an officer in the
    portal (``Act.PRINT``), each door offering it to whoever may perform one of its
    declaration's acts; the command and the tasks ask with no person (``actor=None``), so the
    declaration has no gate of its own. A print request changes no book: the report's event,
    ``Action.REGISTER_ISSUED``, is recorded when it is made (:mod:`.issuing`).
    """
    reg = get_register(register)
    reg.check(Request(date_from, date_to, table))
    if table is not None:
        _check_table(table)
    signing.get_signer()
    user = actor if getattr(actor, "is_authenticated", False) else None
    report, created = Report.objects.get_or_create(
        key=report_key(register, date_from, date_to, table, version=books_version()),
        defaults={
            "register": register,
            "date_from": date_from,
            "date_to": date_to,
            "table_number": table,
            "requested_by": user,
        },
    )
    if not created and report.state == Report.State.FAILED:
        Report.objects.filter(pk=report.pk, state=Report.State.FAILED).update(
            state=Report.State.PENDING, progress=0, error=""
        )
        report.refresh_from_db()
        created = True
    if created and enqueue:
        _enqueue(report.pk)
    return report


def _check_table(number: int) -> None:
    if not tables.table_exists(number):
        raise Refusal.REGISTER_UNKNOWN_TABLE.error(n=number)


def _maker_lock(report_id: int) -> contextlib.AbstractContextManager[bool]:
    """True when this process may make the report (nobody else is making it)."""
    return advisory_lock(_LOCK_CLASS, report_id)


def _enqueue_parts(report_part_ids: list[int], queue: str | None) -> None:
    """One task per part, as a group, on the queue the report's task came from.

    The part rows are committed already (:func:`inspection.registers.parts.plan`).
    """
    if not report_part_ids:
        return
    from celery import group

    options = {"queue": queue} if queue else {}
    from inspection.tasks import make_report_part  # cycle: the tasks run the reports

    group(make_report_part.s(rp_id).set(**options) for rp_id in report_part_ids).apply_async()


def produce_report(report_id: int, *, inline_parts: bool = False, queue: str | None = None) -> Report:
    """Make the report's signed PDF (the task's body; the command calls it too).

    Safe to run twice or concurrently: a made report is left as it is. Plans
    the parts, makes the first missing one here and sends the others to the
    workers (``inline_parts``: makes them all here, as the command does); the
    last part made assembles the whole.
    """
    report = Report.objects.get(pk=report_id)
    if report.state == Report.State.DONE:
        return report
    with _maker_lock(report_id) as mine:
        if not mine:
            return report  # another delivery holds it; if it dies, its message comes back
        report.refresh_from_db()
        if report.state == Report.State.DONE:
            return report
        now = timezone.now()
        Report.objects.filter(pk=report_id).update(
            state=Report.State.RUNNING,
            attempts=F("attempts") + 1,
            started_at=now,
            heartbeat_at=now,
            progress=5,
            error="",
        )
        with beating(Report, report_id):
            try:
                signing.get_signer()  # says clearly that signing is not configured, before any work
                _make(report, inline_parts=inline_parts, queue=queue)
            except Exception as error:
                fail(report_id, error)
                raise
    report.refresh_from_db()
    return report


def fail(report_id: int, error: Exception) -> None:
    """Record why a report could not be made (it is tried again when asked again)."""
    text = f"{error.code}: {error}" if isinstance(error, RegulationError) else repr(error)[:2000]
    Report.objects.filter(pk=report_id).exclude(state=Report.State.DONE).update(
        state=Report.State.FAILED, error=text, finished_at=timezone.now()
    )


def _make(report: Report, *, inline_parts: bool, queue: str | None) -> None:
    missing = [
        rp.pk for rp in likely_changed_first(report, [rp for rp in plan(report) if rp.part_id is None])
    ]
    here, elsewhere = (missing, []) if inline_parts else (missing[:1], missing[1:])
    _enqueue_parts(elsewhere, queue)
    for rp_id in here:
        make_part(rp_id)
    if all_done(report.pk):
        assemble_or_wait(report.pk, queue=queue)


def split_period(date_from: dt.date, date_to: dt.date, parts: int) -> list[tuple[dt.date, dt.date]]:
    """``parts`` consecutive sub-periods, whole days, covering the period exactly."""
    days = (date_to - date_from).days + 1
    parts = max(1, min(parts, days))
    out = []
    start = date_from
    for i in range(parts):
        length = days // parts + (1 if i < days % parts else 0)
        end = start + dt.timedelta(days=length - 1)
        out.append((start, end))
        start = end + dt.timedelta(days=1)
    return out


def parts_of(report: Report) -> list[Report]:
    """The signed files making up ``report``: itself (or, for a report split by an earlier
    version into files of their own, its parts in period order)."""
    if report.state != Report.State.SPLIT:
        return [report]
    out: list[Report] = []
    for part in report.parts.order_by("date_from"):
        out.extend(parts_of(part))
    return out


#: A report's attempts before a lost one is failed instead of resumed.
MAX_ATTEMPTS = 3


def recover_stale(
    *, heartbeat_stale_after: dt.timedelta, stale_after: dt.timedelta, queue: str | None = None
) -> dict[str, list[int]]:
    """Reports left running by a worker that died (its message waits in the broker until the
    visibility timeout). A process making a report or one of its parts beats a heartbeat on its
    row (:mod:`inspection.registers.heartbeat`) and clears it when it lets go, so a report is
    taken when none of its heartbeats is fresher than ``heartbeat_stale_after`` and one of them
    is left behind (its process died holding it), or, with no heartbeat at all, when it started
    before ``stale_after`` ago (its parts' messages lost: they wait in the queue until then), and
    in both cases when no process holds its lock or the lock of any part still to make. Each
    is resumed (queued again, its parts already made kept) or, after :data:`MAX_ATTEMPTS`,
    failed with the reason. A report whose heartbeat is fresh is never taken."""
    done: dict[str, list[int]] = {"resumed": [], "failed": []}
    now = timezone.now()
    beat_limit, lost_limit = now - heartbeat_stale_after, now - stale_after
    candidates = _stale(beat_limit, lost_limit).values_list("pk", flat=True)
    for report_id in list(candidates):
        with _maker_lock(report_id) as free:
            if not free:
                continue  # a live worker holds it (its maker, or the assembly)
            unmade = list(
                ReportPart.objects.filter(report_id=report_id, part__isnull=True).values_list("pk", flat=True)
            )
            with _part_locks(unmade) as parts_free:
                if not parts_free:
                    continue  # a live worker is making one of its parts
                if not _stale(beat_limit, lost_limit).filter(pk=report_id).exists():
                    continue  # a beat or a change came meanwhile
                outcome = _take(Report.objects.get(pk=report_id))
            if outcome:
                done[outcome].append(report_id)
    for report_id in done["resumed"]:
        _enqueue_to(report_id, queue)
    return done


def _stale(beat_limit: dt.datetime, lost_limit: dt.datetime) -> QuerySet[Report]:
    """The running reports none of whose heartbeats (its own, its parts' still to make) is fresh,
    with one left behind, or with none at all and started before ``lost_limit``."""
    parts = ReportPart.objects.filter(report=OuterRef("pk"), part__isnull=True, heartbeat_at__isnull=False)
    return Report.objects.filter(state=Report.State.RUNNING).filter(
        ~Q(heartbeat_at__gte=beat_limit),
        ~Exists(parts.filter(heartbeat_at__gte=beat_limit)),
        Q(heartbeat_at__isnull=False) | Exists(parts) | Q(started_at__lt=lost_limit),
    )


@contextlib.contextmanager
def _part_locks(report_part_ids: list[int]) -> Iterator[bool]:
    """True when no process holds the lock of any of these parts (all held here meanwhile)."""
    if connection.vendor != "postgresql" or not report_part_ids:
        yield True
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, pg_try_advisory_lock(%s, id) FROM unnest(%s::integer[]) AS id",
            [PART_LOCK_CLASS, report_part_ids],
        )
        got = [part_id for part_id, locked in cursor.fetchall() if locked]
    try:
        yield len(got) == len(report_part_ids)
    finally:
        if got:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_advisory_unlock(%s, id) FROM unnest(%s::integer[]) AS id",
                    [PART_LOCK_CLASS, got],
                )


@transaction.atomic
def _take(report: Report) -> str | None:
    """Resume a lost report, or fail it after its last attempt; its heartbeats left by the dead
    are cleared (its locks are held here: nobody alive is on it)."""
    ReportPart.objects.filter(report=report, part__isnull=True).update(heartbeat_at=None)
    if report.attempts >= MAX_ATTEMPTS:
        failed = Report.objects.filter(pk=report.pk, state=Report.State.RUNNING).update(
            state=Report.State.FAILED,
            heartbeat_at=None,
            error=_("Interrompu : le processus qui l'imprimait a disparu (%(n)s tentatives).")
            % {"n": report.attempts},
            finished_at=timezone.now(),
        )
        return "failed" if failed else None
    resumed = Report.objects.filter(pk=report.pk, state=Report.State.RUNNING).update(
        state=Report.State.PENDING,
        heartbeat_at=None,
        error=_("Repris : le processus qui l'imprimait a disparu."),
    )
    return "resumed" if resumed else None


def _enqueue_to(report_id: int, queue: str | None) -> None:
    from inspection.tasks import make_report  # cycle: the tasks run the reports

    make_report.apply_async(args=[report_id], **({"queue": queue} if queue else {}))
