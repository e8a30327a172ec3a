"""Registers printed from hand-made rows: headers when empty, corrections in red beside what they
correct, bad requests refused (those from the demo data: test_registers_demo.py)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from casino_ops.regulations import RegulationError
from inspection.registers import get_register
from inspection.registers.base import Request, place_corrections
from inspection.registers.render import print_register
from tests.audit.conftest import pdf_text, red_pixels, render_page


@pytest.mark.django_db
def test_an_empty_register_still_prints_its_headers(signing_configured: Any, tmp_path: Path) -> None:
    printed = print_register(get_register("receipt-book"), Request(dt.date(2020, 1, 1), dt.date(2020, 1, 31)))
    pdf = tmp_path / "empty.pdf"
    pdf.write_bytes(printed.pdf)
    text = pdf_text(pdf)
    assert printed.rows == 0 and printed.pages == 1
    assert "N° d'ordre du fabricant" in text and "Aucune inscription" in text
    assert "Du 01/01/2020 au 31/01/2020" in text and "page 1 / 1" in text


def test_corrections_come_right_after_what_they_correct() -> None:
    rows = [{"id": 1}, {"id": 2}, {"id": 3, "corrects": 1}, {"id": 4}, {"id": 5, "corrects": 3}]
    ordered = place_corrections(rows)
    assert [r["id"] for r in ordered] == [1, 3, 5, 2, 4]
    assert [r.get("css") for r in ordered] == ["corrected", "correction", "correction", None, None]


@pytest.mark.django_db
def test_a_correction_is_printed_in_red_beside_what_it_corrects(
    signing_configured: Any, tmp_path: Path
) -> None:
    from inspection.registers.receipt_book import ReceiptBook

    at = timezone.now()
    base = {
        "received_on": dt.date(2026, 1, 5),
        "order": "1/1",
        "manufacturer": "Cartamundi",
        "backs": "bleu",
        "decks": 12,
        "visa": "Claire Dubois — 05/01/2026 10:00",
    }
    entries = [
        {
            **base,
            "number": "1/1",
            "serials": "CM-111",
            "corrections": [
                {
                    "number": "1/1",
                    "correction": f"Rectification du {at:%d/%m/%Y} — serials : « CM-111 » devient « CM-112 »",
                }
            ],
        },
        {**base, "number": "1/2", "serials": "CM-222", "destroyed": 2},
    ]
    context = ReceiptBook.context_from_entries(entries)
    printed = print_register(
        get_register("receipt-book"), Request(dt.date(2026, 1, 1), dt.date(2026, 1, 31)), context=context
    )
    pdf = tmp_path / "corrected.pdf"
    pdf.write_bytes(printed.pdf)
    lines = pdf_text(pdf).splitlines()
    order = [i for i, line in enumerate(lines) for s in ("CM-111", "CM-112", "CM-222") if s in line]
    assert order == sorted(order) and "CM-112" in lines[order[1]]  # the correction sits right under its line
    assert "CM-222" in lines[order[-1]]
    assert red_pixels(render_page(pdf, 1, tmp_path / "corrected", dpi=100)) > 100
    assert context["totals"] == {"received": 24, "destroyed": 2, "kept": 22}
    assert printed.rows == 2


@pytest.mark.django_db
def test_a_bad_request_is_refused_with_the_field(signing_configured: Any) -> None:
    with pytest.raises(RegulationError) as refused:
        get_register("receipt-book").check(Request(dt.date(2026, 2, 1), dt.date(2026, 1, 1)))
    assert refused.value.field == "date_from"
    with pytest.raises(RegulationError) as refused:
        get_register("nonsense")
    assert refused.value.field == "register" and "receipt-book" in str(refused.value)


def test_prefixes_are_printed_once():
    """A delivery note typed with its "BL" or a serial carrying its maker's code is not
    prefixed twice ("BL BL 202612-01", "CDF CDF2612-16")."""
    from inspection.registers import fmt

    assert fmt.prefixed("BL", "BL 202612-01") == "BL 202612-01"
    assert fmt.prefixed("BL", "bl202612-01") == "bl202612-01"
    assert fmt.prefixed("BL", "202612-01") == "BL 202612-01"
    assert fmt.prefixed("CDF", "CDF2612-16") == "CDF2612-16"
    assert fmt.prefixed("CDF", "2612-16") == "CDF 2612-16"
    assert fmt.prefixed("BL", "") == ""
