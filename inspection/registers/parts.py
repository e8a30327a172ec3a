"""Registers printed once per period: parts made once, stored, reused, merged, signed.

A print (a :class:`~inspection.models.Report`) is planned as the register's
periods (:func:`~inspection.registers.render.part_periods`: months, or days for
the daily books), one :class:`~inspection.models.ReportPart` row each. A period is
printed as a :class:`~audit.models.RegisterPart`: its own signed PDF, stored
with the SHA-256 of everything its pages show (``content_hash``: the books'
rows and totals for that period, the header, the layout). A later print of a
period whose content hash is unchanged takes the stored part as it is; a
correction or a late entry changes that period's content, so that period
alone is printed again (the others keep their hash). A period without any entry is
left out of the print: it is read and stored as empty, and no PDF is laid out for it
(unless a print has no entry at all and shows its headers once from it), so that a
register asked for years with few rows costs about the time of its rows.

Knowing a part's content hash means reading its period. To spare that on a
print where nothing changed, a part records the version of the books at
which its content was last found unchanged (:func:`books_version`: the audit
record's newest event, its sealed head, the events still waiting to be
sealed, the casino's settings and the code of this package). Every change to
a regulated book is an audited act (one act, one audit event, in the same
transaction), so while that version stays the same, no period's content can
have changed and the part is taken without reading; once it moves, each
period is read again and compared by its content hash.

The parts still to make fan out over the Celery workers: the report task
makes the first itself and sends the others as a group of
``inspection.tasks.make_report_part`` tasks (ids only). Each is idempotent (a
PostgreSQL advisory lock per print part; a part found made is left as it
is; a stored part has a unique key: register, table, period, content hash).
The task that completes the last part assembles the print (:func:`assemble`)
under the report's lock, so a part delivered twice or a worker killed
mid-way never makes two documents. Progress is the number of parts done
over the number of parts (:func:`progress_of`), kept in the report's
``progress`` as a percentage as well.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import time
import uuid
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone

import audit
from audit.actions import Action
from audit.models import AuditEvent
from casino_ops.models import CasinoSettings
from inspection.models import RegisterPart, Report, ReportPart

from .base import Register, Request, get_register
from .heartbeat import beating
from .issuing import ProofPending, issue
from .printed import print_payload
from .render import finish, merge, part_periods, read_chunk, render_part

PART_LOCK_CLASS = 0x5245_4701  # advisory lock class of print parts
REPORT_LOCK_CLASS = 0x5245_4700  # the report makers' (inspection.registers.reports)


@cache
def _code_version() -> str:
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    sources = [p for p in here.glob("*.py") if p.name != "admin.py"]  # the admin prints nothing
    for path in sorted([*sources, *(here.parent / "templates" / "registers").glob("*.html")]):
        digest.update(path.name.encode() + b"\x00" + path.read_bytes())
    return digest.hexdigest()[:16]


def books_version() -> str:
    """A version of everything the registers print; it moves with every audited act but the
    prints themselves (a print changes no book: asked again, the same report is found) and the
    alarm of a refused checkpoint (no register prints it; a print over forged books seals it)."""
    events = AuditEvent.objects.exclude(
        action__in=(Action.REGISTER_PRINTED, Action.REGISTER_ISSUED, Action.CHECKPOINT_REFUSED)
    )
    top = events.aggregate(last_id=Max("id"), head_seq=Max("seq"))
    pending = events.filter(seq__isnull=True).count()
    casino: Mapping[str, object] = CasinoSettings.objects.filter(pk=1).values().first() or {}
    settings_hash = hashlib.sha256(json.dumps(casino, default=str, sort_keys=True).encode()).hexdigest()
    return f"{top['last_id'] or 0}.{top['head_seq'] or 0}.{pending}.{settings_hash[:12]}.{_code_version()}"


def part_key(register: str, table: int | None, date_from: dt.date, date_to: dt.date, content: str) -> str:
    text = (
        f"{register}|{'' if table is None else table}|{date_from.isoformat()}|{date_to.isoformat()}|{content}"
    )
    return hashlib.sha256(text.encode()).hexdigest()


@contextlib.contextmanager
def advisory_lock(lock_class: int, key: int, *, wait: bool = False) -> Iterator[bool]:
    """A PostgreSQL advisory lock held by this session (released by the database if it dies)."""
    if connection.vendor != "postgresql":
        yield True  # SQLite quick start: tasks run in-process, one at a time
        return
    with connection.cursor() as cursor:
        if wait:
            cursor.execute("SELECT pg_advisory_lock(%s, %s)", [lock_class, key])
            got = True
        else:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [lock_class, key])
            got = bool(cursor.fetchone()[0])
    try:
        yield got
    finally:
        if got:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [lock_class, key])


def progress_of(report: Report) -> tuple[int, int]:
    """(parts done, parts) of a print."""
    rows = list(ReportPart.objects.filter(report=report).values_list("part_id", flat=True))
    return sum(1 for part in rows if part is not None), len(rows)


def _set_progress(report_id: int) -> None:
    rows = list(ReportPart.objects.filter(report_id=report_id).values_list("part_id", flat=True))
    if rows:
        done = sum(1 for part in rows if part is not None)
        Report.objects.filter(pk=report_id).exclude(state=Report.State.DONE).update(
            progress=min(99, 5 + int(90 * done / len(rows)))
        )


def plan(report: Report) -> list[ReportPart]:
    """The print's parts (made once per report), the stored parts taken where nothing changed."""
    reg = get_register(report.register)
    request = Request(report.date_from, report.date_to, report.table_number)
    periods = part_periods(reg, request)
    existing = list(ReportPart.objects.filter(report=report).order_by("number"))
    wanted = [(p.date_from, p.date_to) for p in periods]
    if [(rp.date_from, rp.date_to) for rp in existing] != wanted:
        with transaction.atomic():
            ReportPart.objects.filter(report=report).delete()
            ReportPart.objects.bulk_create(
                ReportPart(report=report, number=n, date_from=a, date_to=b)
                for n, (a, b) in enumerate(wanted, 1)
            )
        existing = list(ReportPart.objects.filter(report=report).order_by("number"))
    version = books_version()
    missing = [rp for rp in existing if rp.part_id is None]
    if missing:
        stored = RegisterPart.objects.filter(
            register=report.register,
            table_number=report.table_number,
            checked_version=version,
            date_from__in=[rp.date_from for rp in missing],
        )
        by_period = {(p.date_from, p.date_to): p for p in stored}
        for rp in missing:
            found = by_period.get((rp.date_from, rp.date_to))
            if found is not None:
                ReportPart.objects.filter(pk=rp.pk, part__isnull=True).update(part=found, reused=True)
                rp.part, rp.reused = found, True
    _set_progress(report.pk)
    return existing


def likely_changed_first(report: Report, missing: list[ReportPart]) -> list[ReportPart]:
    """``missing`` with the periods the audit events since the last check point at first
    (they are the ones likely to be printed again; the others are only read and compared)."""
    checked = RegisterPart.objects.filter(
        register=report.register, table_number=report.table_number
    ).values_list("checked_version", flat=True)
    since = max((int(v.split(".", 1)[0]) for v in checked if v.split(".", 1)[0].isdigit()), default=None)
    if since is None or len(missing) < 2:
        return missing
    events = list(
        AuditEvent.objects.filter(id__gt=since).order_by("id").values_list("object_type", "object_id")[:5000]
    )
    days = get_register(report.register).touched_days(events) if events else set()
    if not days:
        return missing
    return sorted(missing, key=lambda rp: not any(rp.date_from <= d <= rp.date_to for d in days))


def make_part(report_part_id: int) -> bool:
    """Make (or find) the stored part of one period of a print. True when this call did it."""
    rp = ReportPart.objects.select_related("report").get(pk=report_part_id)
    if rp.part_id is not None:
        return False
    with advisory_lock(PART_LOCK_CLASS, report_part_id) as mine:
        if not mine:
            return False  # another delivery holds it; if it dies, its message comes back
        rp.refresh_from_db()
        if rp.part_id is not None:
            return False
        with beating(ReportPart, report_part_id):
            _make_part(rp)
    _set_progress(rp.report_id)
    return True


def _make_part(rp: ReportPart) -> None:
    """Read the period, and lay it out and store it unless a stored part has the same content."""
    report = rp.report
    reg = get_register(report.register)
    version = books_version()  # before reading: a change made meanwhile moves it
    chunk = read_chunk(reg, Request(rp.date_from, rp.date_to, report.table_number))
    key = part_key(report.register, report.table_number, rp.date_from, rp.date_to, chunk.content_hash)
    part = RegisterPart.objects.filter(key=key).first()
    reused = part is not None
    if part is None:
        # A period without any entry is left out of the print (assemble): it is stored as
        # empty, without laying out a PDF nobody reads (a long period costs its rows, not
        # its months); the headers of a print with no entry at all are made when needed.
        started = time.perf_counter()
        pdf, pages = render_part(reg, chunk) if not chunk.empty else (b"", 0)
        seconds = time.perf_counter() - started
        saved = _save_pdf(report.register, key, pdf) if pdf else ""
        try:
            with transaction.atomic():
                part = RegisterPart.objects.create(
                    key=key,
                    register=report.register,
                    table_number=report.table_number,
                    date_from=rp.date_from,
                    date_to=rp.date_to,
                    content_hash=chunk.content_hash,
                    checked_version=version,
                    file=saved,
                    sha256=hashlib.sha256(pdf).hexdigest() if pdf else "",
                    pages=pages,
                    rows=chunk.rows,
                    empty=chunk.empty,
                    seconds=seconds,
                )
        except IntegrityError:  # made meanwhile by another print of the same period
            if saved:
                default_storage.delete(saved)
            part = RegisterPart.objects.get(key=key)
            reused = True
    if reused:
        RegisterPart.objects.filter(pk=part.pk).update(checked_version=version)
    ReportPart.objects.filter(pk=rp.pk, part__isnull=True).update(part=part, reused=reused)


def _save_pdf(register: str, key: str, pdf: bytes) -> str:
    name = f"registers/parts/{register}/{key[:32]}-{uuid.uuid4().hex[:8]}.pdf"
    return default_storage.save(name, ContentFile(pdf))


def _with_pdf(part: RegisterPart, reg: Register, request: Request) -> RegisterPart:
    """``part`` with its PDF: an empty period stored without one (:func:`make_part`) is laid
    out now, when a print with no entry at all shows its headers from it."""
    if part.file:
        return part
    chunk = read_chunk(reg, Request(part.date_from, part.date_to, request.table))
    if chunk.content_hash != part.content_hash:  # the books moved since: the key says which content
        raise RuntimeError(f"register part {part.pk} no longer matches its period's content")
    started = time.perf_counter()
    pdf, pages = render_part(reg, chunk)
    saved = _save_pdf(part.register, part.key, pdf)
    updated = RegisterPart.objects.filter(pk=part.pk, file="").update(
        file=saved, sha256=hashlib.sha256(pdf).hexdigest(), pages=pages, seconds=time.perf_counter() - started
    )
    if not updated:  # laid out meanwhile by another print
        default_storage.delete(saved)
    part.refresh_from_db()
    return part


def all_done(report_id: int) -> bool:
    return (
        ReportPart.objects.filter(report_id=report_id).exists()
        and not ReportPart.objects.filter(report_id=report_id, part__isnull=True).exists()
    )


def _made(report_part: ReportPart) -> RegisterPart:
    """The part a report part points at (every one is made once :func:`all_done`)."""
    if report_part.part is None:
        raise RuntimeError(f"report part {report_part.pk} is not made yet")
    return report_part.part


def assemble_or_wait(report_id: int, *, queue: str | None = None) -> Report:
    """:func:`assemble`; while the witnesses have not cosigned the issuing event's checkpoint,
    the report waits (its ``error`` says why) and is assembled again later by the task
    ``inspection.tasks.assemble_report``, on ``queue`` (with Celery run in-process, it fails with the reason: asked
    again, it is tried again)."""
    from django.conf import settings

    try:
        return assemble(report_id)
    except ProofPending as pending:
        if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
            from .reports import fail  # cycle: the reports assemble through here

            fail(report_id, pending)
        else:
            Report.objects.filter(pk=report_id).exclude(state=Report.State.DONE).update(error=str(pending))
            from inspection.tasks import assemble_report  # cycle: the tasks run the parts

            assemble_report.apply_async(
                args=[report_id],
                countdown=settings.REGISTER_PROOF_RETRY_DELAY,
                **({"queue": queue} if queue else {}),
            )
        return Report.objects.get(pk=report_id)


def assemble(report_id: int) -> Report:
    """Merge the print's parts into one document: pages numbered over the whole, one signature.

    Waits for the report's lock (its maker may be finishing a part); a print
    already made is left as it is. Periods without any entry are left out; a
    print without any entry is one part over the whole period.
    """
    with advisory_lock(REPORT_LOCK_CLASS, report_id, wait=True), beating(Report, report_id):
        report = Report.objects.get(pk=report_id)
        if report.state == Report.State.DONE or not all_done(report_id):
            return report
        reg = get_register(report.register)
        request = Request(report.date_from, report.date_to, report.table_number)
        rps = list(ReportPart.objects.filter(report=report).select_related("part").order_by("number"))
        parts = [_made(rp) for rp in rps if not _made(rp).empty]
        if not parts:
            whole_rp = next(
                (rp for rp in rps if (rp.date_from, rp.date_to) == (report.date_from, report.date_to)), None
            )
            if whole_rp is not None:
                parts = [_made(whole_rp)]
            else:  # the headers once, for the whole period
                whole = ReportPart.objects.create(
                    report=report, number=len(rps) + 1, date_from=report.date_from, date_to=report.date_to
                )
                make_part(whole.pk)
                whole.refresh_from_db()
                parts = [_made(whole)]
            parts = [_with_pdf(parts[0], reg, request)]
        issuance = issue(report, [part.content_hash for part in parts])  # ProofPending: not yet
        pdfs = []
        for part in parts:
            with default_storage.open(part.file.name, "rb") as f:
                pdfs.append(f.read())
        writer = merge(pdfs)
        del pdfs
        signed, seq, digest = finish(writer, reg, request, issuance=issuance)
        del writer
        name = f"registers/{report.register}/{report.key}.pdf"
        with transaction.atomic():
            locked = Report.objects.select_for_update().get(pk=report.pk)
            if locked.state == Report.State.DONE:
                return locked
            if default_storage.exists(name):  # left by an attempt that died before recording it
                default_storage.delete(name)
            saved = default_storage.save(name, ContentFile(signed))
            Report.objects.filter(pk=report.pk).update(
                state=Report.State.DONE,
                progress=100,
                file=saved,
                sha256=hashlib.sha256(signed).hexdigest(),
                pages=sum(p.pages for p in parts),
                rows=sum(p.rows for p in parts),
                head_seq=seq,
                head_hash=digest,
                error="",
                finished_at=timezone.now(),
            )
            locked.refresh_from_db()
            # the print in the chain: what the portal's "issued by this casino" rests on
            audit.record(
                actor=locked.requested_by,
                action=Action.REGISTER_PRINTED,
                obj=locked,
                payload=print_payload(locked),
            )
    report.refresh_from_db()
    return report
