"""The session report as printed (pdftotext): discrepancies by their labels, never a raw code,
``None`` or a key of the engine's detail, and every amount in French (30 000,00, never 10.00)."""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from casino_ops import roles
from inspection.registers import get_register
from inspection.registers.base import Request
from inspection.registers.render import print_register
from tables import services
from tables.blackjack.simulator import simulate_shoe
from tables.models import Discrepancy
from tests.audit.conftest import pdf_text, render_page
from tests.support import builders
from tests.support.builders import at_day

DAY = dt.date(2026, 11, 30)


@pytest.mark.django_db
def test_the_session_report_prints_labels_and_french_amounts(
    users: dict[str, Any], casino: Any, signing_configured: Any, tmp_path: Path
) -> None:
    director, croupier = users[roles.DIRECTOR], users[roles.CROUPIER]
    table = services.create_table(actor=director, number=3, code="BJ03")
    with at_day(DAY, 14):
        session = services.open_session(
            actor=director,
            table=table,
            minimum=Decimal("10.00"),
            maximum=Decimal("1000.00"),
            advance_amount=Decimal("30000.00"),
            croupier=croupier,
        )
        builders.shoe(session, croupier=croupier)  # the séance's own shoe, of the depot's decks
    # a log of another shoe (never filled at this session) and other limits: found on receipt
    shoe = simulate_shoe(7, "FR", table="BJ03", limits=("25.00", "2500.00"), faults=["SETTLEMENT_MISMATCH"])
    with at_day(DAY, 22):
        log = services.upload_hand_log(
            actor=croupier, session=session, raw=json.dumps(shoe).encode(), source="api"
        )
        services.replay_hand_log(hand_log_id=log.pk)
    codes = set(Discrepancy.objects.values_list("code", flat=True))
    assert {"SHOE_UNKNOWN", "LIMITS_MISMATCH"} <= codes

    pdf = tmp_path / "session-report.pdf"
    pdf.write_bytes(print_register(get_register("session-report"), Request(DAY, DAY, 3)).pdf)
    text = pdf_text(pdf)
    flat = "".join(text.split())

    assert "None" not in text
    for code in codes:
        assert code not in flat, code
    for label in (
        "Sabot du journal inconnu de la séance",
        "Limites du journal différentes de celles de la séance",
    ):
        assert "".join(label.split()) in flat, label
    assert "shoe_id" not in flat and "session:" not in flat.lower()
    assert not re.search(r"\d\.\d\d(?!\d)", text), re.findall(r".{20}\d\.\d\d.{10}", text)  # no dot decimal
    assert "25,00" in flat and "2500,00" in flat
    assert "".join("30 000,00".split()) in flat

    png = render_page(pdf, 1, tmp_path / "session-report", dpi=80)
    assert png.exists()
