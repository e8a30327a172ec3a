"""A register printed whole and from its stored parts: the two read the same, page for page (the
FR demo's books and, from the LU demo, the books it alone writes)."""

from __future__ import annotations

import datetime as dt
import subprocess
from pathlib import Path
from typing import Any

from django.core.files.storage import default_storage
from django.utils import timezone

from inspection.models import Report, ReportPart
from inspection.registers import get_register
from inspection.registers.base import Request
from inspection.registers.render import print_register
from inspection.registers.reports import produce_report, request_report
from tests.audit.conftest import assert_signed_and_tamper_evident

#: The receipt book's fixture: three months of receptions.
START, END = dt.date(2025, 1, 1), dt.date(2025, 3, 31)


def requested_report(actor: Any, register: str = "order-book", *, days: int = 60) -> Report:
    """A print of ``register`` over the ``days`` up to today, asked by ``actor`` and not queued
    (the test makes it, or sends it to its own worker)."""
    today = timezone.localdate()
    return request_report(
        actor=actor,
        register=register,
        date_from=today - dt.timedelta(days=days),
        date_to=today,
        enqueue=False,
    )


def assert_request_in(payload: dict[str, Any], report: Report, actor: Any) -> None:
    """An event's ``payload`` names the print ``report`` as ``actor`` asked it: the register, its
    period, no table."""
    asked = ("register", "date_from", "date_to", "table_number", "requested_by")
    assert {k: payload[k] for k in asked} == {
        "register": report.register,
        "date_from": report.date_from.isoformat(),
        "date_to": report.date_to.isoformat(),
        "table_number": None,
        "requested_by": actor.pk,
    }


def read_report(report: Report) -> bytes:
    with default_storage.open(report.file.name, "rb") as f:
        return f.read()


def page_texts(pdf: bytes) -> list[str]:
    """The text of each page, as poppler's pdftotext reads it (pages end with a form feed)."""
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True, timeout=120
    ).stdout.decode()
    return text.split("\f")[:-1]


TABLE_BOOKS = {"advance-book", "session-report"}


def whole_and_parts_request(name: str) -> Request:
    """The receipt book over the three months of the fixture's receptions; every other
    register over the demo's last two months (two months' parts, or a part per day)."""
    if name == "receipt-book":
        return Request(START, END)
    today = timezone.localdate()
    return Request(
        today - dt.timedelta(days=60), today + dt.timedelta(days=1), 1 if name in TABLE_BOOKS else None
    )


#: The books the FR demo leaves empty: they are printed from the LU demo
#: (test_register_parts_lu.py), where each has entries.
LU_DEMO_BOOKS = ("hours", "bank-failures", "shoe-devices", "closing", "table-notice", "authorised-minimums")


def check_whole_and_reused_parts(name: str, ca_pem: Any, nss_db: str, tmp_path: Path) -> int:
    """A register: the stored parts, taken again by a new print, make the same pages as the
    whole book printed at once; the print from reused parts is signed and checkable by
    pyHanko and pdfsig. Returns how many parts had entries."""
    request = whole_and_parts_request(name)
    at = timezone.now()
    first = request_report(
        actor=None,
        register=name,
        date_from=request.date_from,
        date_to=request.date_to,
        table=request.table,
        enqueue=False,
    )
    produce_report(first.pk, inline_parts=True)  # stores the parts
    from inspection.registers.render import finish, merge

    # a second, new print that takes every part as stored
    report = Report.objects.create(
        key="x" * 64,
        register=name,
        date_from=request.date_from,
        date_to=request.date_to,
        table_number=request.table,
    )
    produce_report(report.pk, inline_parts=True)
    report.refresh_from_db()
    assert report.state == Report.State.DONE, report.error
    links = list(ReportPart.objects.filter(report=report).select_related("part").order_by("number"))
    assert links and all(link.reused for link in links)
    # as the print assembles them: the parts with entries; with none, the headers once
    # over the whole period (a part of its own, stored and reused too)
    filled = [link for link in links if not link.part.empty]
    used = filled or [
        link for link in links if (link.date_from, link.date_to) == (request.date_from, request.date_to)
    ]
    pdfs = []
    for link in used:
        with default_storage.open(link.part.file.name, "rb") as f:
            pdfs.append(f.read())
    # the whole book printed at once, at the same head of the chain (each print moves it: its
    # register.printed event)
    whole = print_register(get_register(name), request, printed_at=at)
    merged, _seq, _hash = finish(merge(pdfs), get_register(name), request, printed_at=at, sign=False)
    whole_pages = page_texts(whole.pdf)
    parts_pages = page_texts(merged)
    assert len(whole_pages) == len(parts_pages) == report.pages
    for n, (a, b) in enumerate(zip(whole_pages, parts_pages, strict=True), 1):
        assert a == b, f"{name}: page {n} differs"
    signed = tmp_path / f"{name}.pdf"
    signed.write_bytes(read_report(report))
    assert_signed_and_tamper_evident(signed, tmp_path, ca_pem, nss_db)
    assert len(page_texts(signed.read_bytes())) == report.pages
    return len(filled)
