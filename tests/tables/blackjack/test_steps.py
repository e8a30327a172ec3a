"""The steps of a round for the visual replay (pure, next to the engine)."""

from __future__ import annotations

import json
from typing import Any

from tables.blackjack import replay
from tables.blackjack.rules import DISCREPANCY_CODES
from tables.blackjack.steps import (
    DEAL_CODES,
    INSURANCE_CODES,
    PLAY_CODES,
    SETTLEMENT_CODES,
    STAKE_CODES,
    card_face,
    round_steps,
    round_summaries,
)
from tests.support.samples import WORKED_EXAMPLE_STEPS

from .conftest import FIXTURES, late_surrender_round, make_log, make_round


def _worked() -> tuple[dict[str, Any], dict[str, Any]]:
    doc = json.loads((FIXTURES / "worked-example.json").read_text())
    return doc, replay(doc)


def test_worked_example_steps_in_shoe_order() -> None:
    doc, rep = _worked()
    steps = round_steps(doc["rounds"][0], rep["rounds"][0], rep["discrepancies"])
    assert [c["code"] for s in steps for c in s["drawn"]] == doc["rounds"][0]["cards"]
    assert [s["title"] for s in steps] == WORKED_EXAMPLE_STEPS
    assert [s["index"] for s in steps] == list(range(len(steps)))
    # the engine's settlement discrepancy shows at the payments, on box 5
    (d,) = steps[-1]["discrepancies"]
    assert d["code"] == "SETTLEMENT_MISMATCH"
    box5 = {b["number"]: b for b in steps[-1]["boxes"]}[5]
    assert box5["discrepancies"] == [d]
    assert box5["hands"][0]["nets"] == [
        {"player": "P2", "amount": "10.00", "net": "-10.00", "recorded": "10.00", "differs": True}
    ]
    # cards are plain faces (no markup) unless the caller gives its own
    assert steps[2]["dealer"] == [{"code": "AS", "rank": "A", "suit": "♠", "red": False, "invalid": False}]


def test_the_card_function_is_the_callers() -> None:
    doc, rep = _worked()
    seen: list[str] = []

    def tagged(code: str) -> dict[str, Any]:
        seen.append(code)
        return {**card_face(code), "tag": True}

    steps = round_steps(doc["rounds"][0], rep["rounds"][0], [], card=tagged)
    assert all(c.get("tag") for s in steps for c in s["drawn"])
    assert set(doc["rounds"][0]["cards"]) <= set(seen)


def test_card_faces() -> None:
    assert card_face("TH") == {"code": "TH", "rank": "10", "suit": "♥", "red": True, "invalid": False}
    assert card_face("10D")["rank"] == "10" and card_face("10D")["red"]
    assert card_face("1X") == {"code": "1X", "rank": "1X", "suit": "?", "red": False, "invalid": True}


def test_a_late_surrender_shows_on_its_box_at_its_decision() -> None:
    rd = late_surrender_round()
    rep = replay(make_log([rd], house_rules={"surrender": True}))
    steps = round_steps(rd, rep["rounds"][0], rep["discrepancies"])
    (step,) = [s for s in steps if s["discrepancies"]]
    assert step["title"] == "Case 2 : abandonne" and step["focus"] == 2
    assert step["discrepancies"][0]["reason"] == "after a draw at the table"
    box2 = {b["number"]: b for b in steps[-1]["boxes"]}[2]
    assert box2["hands"][0]["outcome"] == "abandon"


def test_too_many_boxes_shows_with_the_stakes() -> None:
    rd = make_round(
        {1: [("P1", "10.00")], 2: [("P1", "10.00")], 4: [("P2", "10.00")]},
        ["TC", "TD", "TH", "7D", "9S", "9H", "9D", "TS"],
        {1: ["stand"], 2: ["stand"], 4: ["stand"]},
    )
    rep = replay(make_log([rd], house_rules={"max_boxes_per_player": 1}))
    steps = round_steps(rd, rep["rounds"][0], rep["discrepancies"])
    assert [d["code"] for d in steps[0]["discrepancies"]] == ["TOO_MANY_BOXES"]
    assert steps[0]["title"] == "Mises sur les cases"


def test_the_placed_codes_are_the_engines() -> None:
    placed = STAKE_CODES | DEAL_CODES | INSURANCE_CODES | PLAY_CODES | SETTLEMENT_CODES
    assert placed <= set(DISCREPANCY_CODES)  # a misspelt code would silently show at the end
    assert not (STAKE_CODES & PLAY_CODES)


def test_round_summaries_count_discrepancies_per_round() -> None:
    report = {"rounds": [{"number": 1}, {"number": 2, "replayed": False}]}
    disc = [{"round": 2}, {"round": 2}, {"round": None}]
    assert round_summaries(report, disc) == [
        {"position": 1, "number": 1, "replayed": True, "discrepancies": 0},
        {"position": 2, "number": 2, "replayed": False, "discrepancies": 2},
    ]


def test_the_engine_and_its_steps_import_no_django() -> None:
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys; import tables.blackjack, tables.blackjack.steps, tables.blackjack.simulator;"
        " bad = sorted(m for m in sys.modules if m.split('.')[0] in"
        " ('django', 'casino_ops', 'audit', 'cards_registry', 'inspection', 'rest_framework')"
        " or (m.startswith('tables.') and not m.startswith('tables.blackjack')));"
        " print(bad); sys.exit(1 if bad else 0)"
    )
    root = Path(__file__).resolve().parents[3]
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
