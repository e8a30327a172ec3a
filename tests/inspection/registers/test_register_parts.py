"""Registers printed once per period: parts stored, reused, made again only where the books changed,
merged with pages numbered over the whole and one signature; and the layout of the pages."""

from __future__ import annotations

import datetime as dt
import html
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.storage import default_storage
from django.utils import timezone

from inspection.models import RegisterPart, Report, ReportPart
from inspection.registers import get_register, register_names
from inspection.registers.base import Request
from inspection.registers.parts import progress_of
from inspection.registers.render import print_register
from inspection.registers.reports import produce_report, request_report
from tests.audit.conftest import assert_signed_and_tamper_evident, pdf_text
from tests.support.builders import kept_for_module
from tests.support.demo_rows import loaded
from tests.support.register_parts import (  # noqa: F401
    END,
    LU_DEMO_BOOKS,
    START,
    TABLE_BOOKS,
    check_whole_and_reused_parts,
    page_texts,
    read_report,
    whole_and_parts_request,
)


@pytest.fixture(scope="module")
def demo_book(django_db_setup: None, django_db_blocker: Any) -> Any:
    """Made once for the module (seed_demo takes seconds): every test here prints from it."""
    yield from kept_for_module(django_db_blocker, _demo_book)


@pytest.fixture
def book(db: None, demo_book: list[Any]) -> list[Any]:
    """The demo casino, and six receptions a month in the receipt book from January to March 2025."""
    from cards_registry.models import Reception

    return [Reception.objects.get(pk=reception.pk) for reception in demo_book]


def _demo_book() -> list[Any]:
    from cards_registry.models import Book, BookKind, Deck, Manufacturer, Order, Reception, Sixain

    loaded("FR")
    director = get_user_model().objects.get(username="directeur")
    maker = Manufacturer.objects.order_by("code").first()
    now = timezone.now()
    order_book = Book.objects.create(kind=BookKind.ORDER, number=800, closed_at=now)
    receipts = Book.objects.create(kind=BookKind.RECEIPT, number=801, closed_at=now, last_number=18)
    order = Order.objects.create(
        book=order_book, number=1, manufacturer=maker, ordered_on=START, recorded_by=director
    )
    receptions = []
    for i in range(18):
        reception = Reception.objects.create(
            book=receipts,
            number=i + 1,
            order=order,
            manufacturer=maker,
            received_on=dt.date(2025, 1 + i // 6, 3 + 4 * (i % 6)),
            delivery_note=f"BL {i + 1:04d}",
            recorded_by=director,
        )
        sixain = Sixain.objects.create(manufacturer=maker, serial=f"PX{i:04d}", reception=reception)
        for k in range(1, 7):
            Deck.objects.create(
                manufacturer=maker,
                serial=f"PX{i:04d}-{k}",
                back_colour="bleu",
                reception=reception,
                sixain=sixain,
            )
        receptions.append(reception)
    return receptions


def _print(register: str = "receipt-book", start: dt.date = START, end: dt.date = END) -> Report:
    report = request_report(actor=None, register=register, date_from=start, date_to=end, enqueue=False)
    return produce_report(report.pk, inline_parts=True)


@pytest.mark.django_db
def test_a_print_is_made_of_monthly_parts_reused_until_a_correction_touches_their_month(
    book: list[Any], signing_configured: Any, nss_db: str, tmp_path: Path
) -> None:
    from cards_registry.services import record_correction

    first = _print()
    assert first.state == Report.State.DONE
    parts = list(ReportPart.objects.filter(report=first).select_related("part").order_by("number"))
    assert [(p.date_from, p.date_to) for p in parts] == [
        (dt.date(2025, 1, 1), dt.date(2025, 1, 31)),
        (dt.date(2025, 2, 1), dt.date(2025, 2, 28)),
        (dt.date(2025, 3, 1), dt.date(2025, 3, 31)),
    ]
    assert not any(p.reused for p in parts) and progress_of(first) == (3, 3)
    assert first.pages == sum(p.part.pages for p in parts) and first.rows == 18
    assert RegisterPart.objects.count() == 3

    # the same request while nothing changed: the same report
    assert _print().pk == first.pk

    # a correction in February: a new print, February made again, January and March taken as they are
    director = get_user_model().objects.get(username="directeur")
    record_correction(
        actor=director,
        entry=book[7],
        field="delivery_note",
        new_value="BL 9999",
        reason="erreur de saisie",
        approval="Approuvé, le directeur responsable",
    )
    second = request_report(actor=None, register="receipt-book", date_from=START, date_to=END, enqueue=False)
    from inspection.registers.parts import likely_changed_first, plan

    order = likely_changed_first(second, [rp for rp in plan(second) if rp.part_id is None])
    assert [rp.date_from.month for rp in order] == [2, 1, 3]  # the corrected month is made first
    second = produce_report(second.pk, inline_parts=True)
    assert second.pk != first.pk and second.state == Report.State.DONE
    again = list(ReportPart.objects.filter(report=second).select_related("part").order_by("number"))
    assert [p.reused for p in again] == [True, False, True]
    assert again[0].part_id == parts[0].part_id and again[2].part_id == parts[2].part_id
    assert again[1].part_id != parts[1].part_id and RegisterPart.objects.count() == 4
    assert again[1].part.content_hash != parts[1].part.content_hash
    text = " ".join(pdf_text_of(read_report(second), tmp_path).split())
    assert "BL 9999" in text and "erreur de saisie" in text

    # one signature over the whole, checked by outside tools; pages numbered over the whole
    pdf = tmp_path / "second.pdf"
    pdf.write_bytes(read_report(second))
    assert_signed_and_tamper_evident(pdf, tmp_path, signing_configured.ca_pem, nss_db)
    pages = page_texts(read_report(second))
    assert len(pages) == second.pages
    for n, page in enumerate(pages, 1):
        assert f"page {n} / {len(pages)}" in page
        assert "Du 01/01/2025 au 31/03/2025" in page  # the period asked for, on every page
        assert " p. " not in page  # the parts' own stamp is taken off


def pdf_text_of(data: bytes, tmp_path: Path) -> str:
    path = tmp_path / "x.pdf"
    path.write_bytes(data)
    return pdf_text(path)


@pytest.mark.django_db
def test_a_stored_part_is_a_signed_pdf_of_its_own_period(
    book: list[Any], signing_configured: Any, nss_db: str, tmp_path: Path
) -> None:
    _print()
    part = RegisterPart.objects.get(date_from=dt.date(2025, 2, 1))
    pdf = tmp_path / "part.pdf"
    with default_storage.open(part.file.name, "rb") as f:
        pdf.write_bytes(f.read())
    assert_signed_and_tamper_evident(pdf, tmp_path, signing_configured.ca_pem, nss_db)
    text = pdf_text(pdf)
    assert "Du 01/02/2025 au 28/02/2025" in text and part.content_hash in text.replace("\n", "")
    assert f"p. 1 / {part.pages}" in text


@pytest.mark.django_db
@pytest.mark.parametrize("name", [name for name in register_names() if name not in LU_DEMO_BOOKS])
def test_a_print_from_reused_parts_reads_the_same_page_for_page_as_a_whole_print(
    name: str, book: list[Any], signing_configured: Any, nss_db: str, tmp_path: Path
) -> None:
    assert check_whole_and_reused_parts(name, signing_configured.ca_pem, nss_db, tmp_path) > 0


def _control_period() -> tuple[dt.date, dt.date]:
    today = timezone.localdate()
    return today - dt.timedelta(days=3), today + dt.timedelta(days=1)


@pytest.mark.django_db
def test_a_daily_book_is_printed_by_day(book: list[Any], signing_configured: Any) -> None:
    from tables.models import ControlDay

    start, end = _control_period()
    report = _print("control-register", start, end)
    days = list(
        ControlDay.objects.filter(day__range=(start, end)).order_by("day").values_list("day", flat=True)
    )
    assert days
    parts = list(ReportPart.objects.filter(report=report).order_by("number"))
    assert [(p.date_from, p.date_to) for p in parts] == [(d, d) for d in days]


# --- Layout (the depot log's title cut off, orphan words, codes broken mid-word) ------


def _words(pdf: Path, page: int = 1) -> tuple[float, float, list[tuple[float, float, float, float, str]]]:
    """pdftotext -bbox: the page's size and its words (xMin, yMin, xMax, yMax, text)."""
    out = subprocess.run(
        ["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    size = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', out)
    assert size
    words = [
        (float(a), float(b), float(c), float(d), html.unescape(w))
        for a, b, c, d, w in re.findall(
            r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)</word>', out
        )
    ]
    return float(size.group(1)), float(size.group(2)), words


def _printed(name: str, tmp_path: Path, start: dt.date, end: dt.date, table: int | None = None) -> Path:
    printed = print_register(get_register(name), Request(start, end, table))
    pdf = tmp_path / f"{name}.pdf"
    pdf.write_bytes(printed.pdf)
    return pdf


def _title_lines(words: list[tuple[float, float, float, float, str]], title: str) -> list[list[str]]:
    """The lines (grouped by height) of page 1 that hold the title's words, top to bottom."""
    wanted = [w for w in title.upper().replace("\u00a0", " ").split()]
    found = [w for w in words if w[1] < 120 and w[4] in wanted]  # the title is printed in capitals
    lines: dict[float, list[str]] = {}
    for w in found:
        lines.setdefault(round(w[1]), []).append(w[4])
    return [lines[y] for y in sorted(lines)]


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["depot-log", "receipt-book", "destructions", "order-book", "incidents"])
def test_the_title_is_whole_on_page_one_and_leaves_no_word_alone(
    name: str, book: list[Any], signing_configured: Any, tmp_path: Path
) -> None:
    today = timezone.localdate()
    pdf = _printed(name, tmp_path, today - dt.timedelta(days=60), today + dt.timedelta(days=1))
    width, height, words = _words(pdf)
    assert words
    outside = [w for w in words if w[0] < 0 or w[1] < 0 or w[2] > width or w[3] > height]
    assert not outside, f"cut off at the edge of page 1: {outside[:5]}"
    title = str(get_register(name).title)
    lines = _title_lines(words, title)
    assert sum(len(line) for line in lines) >= len(title.split()), (lines, title)
    assert all(len(line) >= 2 for line in lines), f"a word alone on a line of the title: {lines}"


@pytest.mark.django_db
def test_the_session_report_does_not_break_codes_mid_word(
    book: list[Any], signing_configured: Any, tmp_path: Path
) -> None:
    """On the demo data (``book``: seed_demo, plus receptions early in 2025 that this report does not show)."""
    from tables.models import Discrepancy

    codes = set(Discrepancy.objects.values_list("code", flat=True))
    tables = set(Discrepancy.objects.values_list("session__table__number", flat=True))
    assert codes and tables, "the demo has discrepancies found at the replay"
    today = timezone.localdate()
    table = sorted(tables)[0]
    pdf = _printed(
        "session-report", tmp_path, today - dt.timedelta(days=3), today + dt.timedelta(days=1), table
    )
    words = {w for page in range(1, 4) for w in _page_words(pdf, page)}
    pieces = {w for w in words if any(w != c and w in c and len(w) > 3 for c in codes) and w not in codes}
    assert not pieces, f"codes broken mid-word: {sorted(pieces)[:10]}"
    assert not codes & words  # the discrepancies by their labels, never their codes
    # the discrepancies by their labels, in whole words
    from django.utils import translation

    from tables.labels import discrepancy_label

    with translation.override("fr"):
        firsts = {discrepancy_label(code).split()[0].strip(",:;") for code in codes}
    assert firsts & words, "the discrepancies of these pages by their labels"


def _page_words(pdf: Path, page: int) -> list[str]:
    try:
        return [w[4] for w in _words(pdf, page)[2]]
    except subprocess.CalledProcessError:
        return []


@pytest.mark.django_db
def test_a_long_period_with_few_rows_costs_its_rows_not_its_months(
    book: list[Any], signing_configured: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six years asked for, rows in three months: only those three months are planned and
    rendered (the empty months are left out, found by reading spans of months, not each of the
    72), and the print is the same pages as the three months' alone."""
    from inspection.registers import render

    short = _print()
    reads = []
    read_chunk = render.read_chunk
    monkeypatch.setattr(render, "read_chunk", lambda *a, **k: reads.append(a[1]) or read_chunk(*a, **k))
    long = _print(start=dt.date(2020, 1, 1), end=dt.date(2025, 12, 31))
    assert long.state == Report.State.DONE and long.rows == short.rows == 18
    links = list(ReportPart.objects.filter(report=long).select_related("part"))
    assert [(link.date_from, link.date_to) for link in links] == [
        (dt.date(2025, month, 1), render._month_end(dt.date(2025, month, 1))) for month in (1, 2, 3)
    ]
    assert all(link.part.file and link.part.pages > 0 for link in links)
    assert len(reads) < 72 / 2, [(r.date_from, r.date_to) for r in reads]  # the months' and the spans'
    assert long.pages == short.pages
    assert len(page_texts(read_report(long))) == long.pages
    assert "Du 01/01/2020 au 31/12/2025" in page_texts(read_report(long))[0]


@pytest.mark.django_db
def test_a_period_without_rows_prints_its_headers_once_even_from_stored_empty_months(
    book: list[Any], signing_configured: Any
) -> None:
    """Empty months stored without a PDF; a print of one of them alone (its only part, found
    stored) still prints the headers once."""
    _print(start=dt.date(2024, 1, 1), end=dt.date(2024, 12, 31))
    alone = _print(start=dt.date(2024, 6, 1), end=dt.date(2024, 6, 30))
    assert alone.state == Report.State.DONE and alone.rows == 0 and alone.pages >= 1
    assert len(page_texts(read_report(alone))) == alone.pages
