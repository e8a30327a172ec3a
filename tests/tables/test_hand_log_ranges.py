"""A hand log's values in range at the door (tables.rules.logs): the engine takes any integer and
any amount (a wrong one is a discrepancy, hand-log.md §6), but the casino's upload refuses what no
shoe can hold: a negative stake or limit, ``decks`` ≤ 0, a negative ``burned`` or
``cut_card_after``, and player ids with a bidirectional override or digits other than 0-9 (they
would print as another player). Each refusal names the field's path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from casino_ops.regulations import RegulationError
from tables.rules import parse_hand_log

EXAMPLE = Path(__file__).resolve().parent.parent / "fixtures" / "handlog" / "worked-example.json"


def _log() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_text())


def _refused(doc: dict[str, Any]) -> RegulationError:
    with pytest.raises(RegulationError) as info:
        parse_hand_log(json.dumps(doc).encode(), "FR")
    assert info.value.code == "HAND_LOG_REJECTED"
    assert info.value.article
    return info.value


def test_the_worked_example_is_taken():
    assert parse_hand_log(EXAMPLE.read_bytes(), "FR")["shoe_id"]


@pytest.mark.parametrize(
    ("field", "value"),
    [("decks", 0), ("decks", -6), ("burned", -1), ("cut_card_after", -1)],
)
def test_shoe_counts_out_of_range_are_refused(field, value):
    doc = _log()
    doc[field] = value
    refusal = _refused(doc)
    assert refusal.field == field and str(value) in refusal.message


@pytest.mark.parametrize("bound", ["min", "max"])
def test_a_negative_limit_is_refused(bound):
    doc = _log()
    doc["limits"][bound] = "-10.00"
    assert _refused(doc).field == f"limits.{bound}"


def test_a_negative_stake_or_insurance_is_refused():
    doc = _log()
    doc["rounds"][0]["boxes"][0]["stakes"][0]["amount"] = "-50.00"
    assert _refused(doc).field == "rounds[0].boxes[0].stakes[0].amount"
    doc = _log()
    rounds_with_insurance = [i for i, rd in enumerate(doc["rounds"]) if rd["insurance"]]
    if rounds_with_insurance:
        i = rounds_with_insurance[0]
        doc["rounds"][i]["insurance"][0]["amount"] = "-25.00"
        assert _refused(doc).field == f"rounds[{i}].insurance[0].amount"


@pytest.mark.parametrize(
    "player",
    ["P\u202e1", "\u2066P1\u2069", "P\u200f1", "P\u0661", "P\u06f1", "P\u0967", "\uff11"],
)
def test_a_player_id_with_a_bidirectional_override_or_other_digits_is_refused(player):
    doc = _log()
    doc["rounds"][0]["boxes"][0]["stakes"][0]["player"] = player
    refusal = _refused(doc)
    assert refusal.field == "rounds[0].boxes[0].stakes[0].player"
    doc = _log()
    settlement = next(k for k, row in enumerate(doc["rounds"][0]["settlements"]) if "player" in row)
    doc["rounds"][0]["settlements"][settlement]["player"] = player
    assert _refused(doc).field == f"rounds[0].settlements[{settlement}].player"


def test_a_player_id_in_plain_letters_of_any_script_is_taken():
    doc = _log()
    old = doc["rounds"][0]["boxes"][0]["stakes"][0]["player"]
    raw = json.dumps(doc).replace(f'"{old}"', '"Zoé-1"')
    assert parse_hand_log(raw.encode(), "FR")
