"""Helpers for the engine's tests: build small logs by hand."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "handlog"

BASE: dict[str, Any] = {
    "format": "casino-hand-log/1",
    "shoe_id": "T-1",
    "table": "BJ01",
    "profile": "FR",
    "house_rules": {},
    "limits": {"min": "10.00", "max": "1000.00"},
    "decks": 6,
    "burned": 5,
    "cut_card_after": 250,
    "rounds": [],
}


def make_log(rounds: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    log = copy.deepcopy(BASE)
    log.update(top)
    log["rounds"] = rounds
    return log


def make_round(
    boxes: dict[int, list[tuple[str, str]]],
    cards: list[str],
    actions: dict[int, list[Any]] | None = None,
    number: int = 1,
    insurance: list[dict[str, Any]] | None = None,
    settlements: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "number": number,
        "boxes": [
            {"box": b, "stakes": [{"player": p, "amount": a} for p, a in st]} for b, st in boxes.items()
        ],
        "cards": cards,
        "insurance": insurance or [],
        "actions": {str(b): a for b, a in (actions or {}).items()},
        "settlements": settlements or [],
    }


def codes(report: dict[str, Any]) -> list[str]:
    return [d["code"] for d in report["discrepancies"]]


def only(report: dict[str, Any], code: str) -> list[dict[str, Any]]:
    return [d for d in report["discrepancies"] if d["code"] == code]


def late_surrender_round() -> dict[str, Any]:
    """A round where box 1 hits, stands and wins its stake, and box 2 surrenders on its first two
    cards (half its stake lost)."""
    return make_round(
        {1: [("P1", "10.00")], 2: [("P2", "10.00")]},
        ["5S", "TD", "9C", "7H", "6S", "8D", "8C"],
        {1: ["hit", "stand"], 2: ["surrender"]},
        settlements=[
            {"box": 1, "hand": 0, "player": "P1", "net": "10.00"},
            {"box": 2, "hand": 0, "player": "P2", "net": "-5.00"},
        ],
    )
