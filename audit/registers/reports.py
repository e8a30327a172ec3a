"""Registers made as reports: requested once, made once, by Celery or by the command.

A report row is keyed by what it prints (register, period, table, part), so a
repeated request returns the same row and a task delivered twice (late
acknowledgement, a worker killed mid-way) makes one file: the maker holds a
PostgreSQL advisory lock on the report while it works (released by the
database if its process dies) and writes the result only if the report is not
already made. A register with more rows than ``REGISTER_MAX_ROWS_PER_PART`` is
split by period into parts, each its own signed PDF, so that a worker's memory
stays bounded (WeasyPrint holds the whole document while it lays it out).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import math
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import signing
from audit.models import Report
from casino_ops.regulations import RegulationError

from .base import Request, get_register
from .render import print_register

_LOCK_CLASS = 0x5245_4700  # advisory lock class of report makers ("REG")


def max_rows_per_part() -> int:
    return int(getattr(settings, "REGISTER_MAX_ROWS_PER_PART", 3500))


def report_key(
    register: str, date_from: dt.date, date_to: dt.date, table: int | None, *, part_of: str = ""
) -> str:
    text = f"{register}|{date_from.isoformat()}|{date_to.isoformat()}|{'' if table is None else table}"
    if part_of:
        text += f"|part-of:{part_of}"
    return hashlib.sha256(text.encode()).hexdigest()


def _enqueue(report_id: int) -> None:
    from audit.tasks import make_report

    transaction.on_commit(lambda: make_report.delay(report_id))


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
    """Ask for a register; the same request again returns the same report.

    A report that failed is tried again when asked again. Refuses at once,
    with the reason, when the register, the period or the table is wrong or
    when no signing certificate is configured.
    """
    reg = get_register(register)
    reg.check(Request(date_from, date_to, table))
    if table is not None:
        _check_table(table)
    signing.get_signer()
    user = actor if getattr(actor, "is_authenticated", False) else None
    report, created = Report.objects.get_or_create(
        key=report_key(register, date_from, date_to, table),
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
    from tables.models import Table

    if not Table.objects.filter(number=number).exists():
        raise RegulationError(
            "REGISTER_UNKNOWN_TABLE",
            _("Il n'y a pas de table n° %(n)s.") % {"n": number},
            field="table",
        )


@contextlib.contextmanager
def _maker_lock(report_id: int) -> Iterator[bool]:
    """True when this process may make the report (nobody else is making it)."""
    if connection.vendor != "postgresql":
        yield True  # SQLite quick start: tasks run in-process, one at a time
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [_LOCK_CLASS, report_id])
        got = bool(cursor.fetchone()[0])
    try:
        yield got
    finally:
        if got:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [_LOCK_CLASS, report_id])


def _set_progress(report_id: int, pct: int) -> None:
    Report.objects.filter(pk=report_id).update(progress=max(0, min(100, pct)))


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


def produce_report(report_id: int, *, inline_parts: bool = False) -> Report:
    """Make the report's signed PDF (the task's body; the command calls it too).

    Safe to run twice or concurrently: a made report is left as it is.
    ``inline_parts`` makes the parts of a split register here and now (the
    command) instead of queueing one task per part (Celery).
    """
    report = Report.objects.get(pk=report_id)
    if report.state in (Report.State.DONE, Report.State.SPLIT):
        return report
    with _maker_lock(report_id) as mine:
        if not mine:
            return report  # another delivery holds it; if it dies, its message comes back
        report.refresh_from_db()
        if report.state in (Report.State.DONE, Report.State.SPLIT):
            return report
        Report.objects.filter(pk=report_id).update(
            state=Report.State.RUNNING,
            attempts=F("attempts") + 1,
            started_at=timezone.now(),
            progress=5,
            error="",
        )
        try:
            _make(report, inline_parts=inline_parts)
        except RegulationError as error:
            Report.objects.filter(pk=report_id).update(
                state=Report.State.FAILED, error=f"{error.code}: {error}", finished_at=timezone.now()
            )
            raise
        except Exception as error:
            Report.objects.filter(pk=report_id).update(
                state=Report.State.FAILED, error=repr(error)[:2000], finished_at=timezone.now()
            )
            raise
    report.refresh_from_db()
    return report


def _make(report: Report, *, inline_parts: bool) -> None:
    reg = get_register(report.register)
    req = Request(report.date_from, report.date_to, report.table_number)
    limit = max_rows_per_part()
    rows = reg.count(req)
    if rows > limit and report.date_from < report.date_to:
        _split(report, math.ceil(rows / limit), inline_parts=inline_parts)
        return
    part_label = ""
    if report.parent_id:
        parts = Report.objects.filter(parent_id=report.parent_id).count()
        part_label = _("partie %(n)s sur %(total)s") % {"n": report.part, "total": parts}
    printed = print_register(
        reg, req, progress=lambda pct: _set_progress(report.pk, pct), part_label=part_label
    )
    name = f"registers/{report.register}/{report.key}.pdf"
    with transaction.atomic():
        locked = Report.objects.select_for_update().get(pk=report.pk)
        if locked.state == Report.State.DONE:
            return
        if default_storage.exists(name):  # left by an attempt that died before recording it
            default_storage.delete(name)
        saved = default_storage.save(name, ContentFile(printed.pdf))
        Report.objects.filter(pk=report.pk).update(
            state=Report.State.DONE,
            progress=100,
            file=saved,
            sha256=printed.sha256,
            pages=printed.pages,
            rows=printed.rows,
            head_seq=printed.head_seq,
            head_hash=printed.head_hash,
            finished_at=timezone.now(),
        )
    if report.parent_id:
        _parts_done(report.parent_id)


def _split(report: Report, parts: int, *, inline_parts: bool) -> None:
    children = []
    with transaction.atomic():
        for number, (start, end) in enumerate(split_period(report.date_from, report.date_to, parts), 1):
            child, _created = Report.objects.get_or_create(
                key=report_key(report.register, start, end, report.table_number, part_of=report.key),
                defaults={
                    "register": report.register,
                    "date_from": start,
                    "date_to": end,
                    "table_number": report.table_number,
                    "requested_by": report.requested_by,
                    "parent": report,
                    "part": number,
                },
            )
            children.append(child.pk)
        Report.objects.filter(pk=report.pk).update(state=Report.State.SPLIT, progress=0)
        if not inline_parts:
            for child_id in children:
                _enqueue(child_id)
    if inline_parts:
        for child_id in children:
            produce_report(child_id, inline_parts=True)


def _parts_done(parent_id: int) -> None:
    parts = list(Report.objects.filter(parent_id=parent_id).values_list("state", "progress"))
    if not parts:
        return
    done = sum(1 for state, _p in parts if state == Report.State.DONE)
    Report.objects.filter(pk=parent_id).update(
        progress=int(sum(p for _s, p in parts) / len(parts)),
        finished_at=timezone.now() if done == len(parts) else None,
    )


def parts_of(report: Report) -> list[Report]:
    """The signed files making up ``report``: itself, or its parts in period order (recursively)."""
    if report.state != Report.State.SPLIT:
        return [report]
    out: list[Report] = []
    for part in report.parts.order_by("date_from"):
        out.extend(parts_of(part))
    return out
