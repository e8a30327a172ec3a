"""Rejected logs (hand-log.md §1, §6): one line naming file, line and field; exit 2."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from tables.blackjack import Rejected, validate
from tables.blackjack.cli import main

from .conftest import FIXTURES, make_log, make_round


def good() -> dict[str, Any]:
    return make_log([make_round({1: [("P1", "10.00")]}, ["TC", "7D", "TH", "TD"], {1: ["stand"]})])


def reject(doc: Any) -> Rejected:
    with pytest.raises(Rejected) as exc:
        validate(doc)
    return exc.value


@pytest.mark.parametrize(
    "amount", [10, "+10", "1e1", "10.005", "10.00\n", "1234567890123", "", "10.", ".5", " 10", "١٠"]
)
def test_amount_grammar_is_exact(amount: Any) -> None:
    doc = good()
    doc["rounds"][0]["boxes"][0]["stakes"][0]["amount"] = amount
    assert reject(doc).field == "rounds[0].boxes[0].stakes[0].amount"


@pytest.mark.parametrize("amount", ["0", "-5", "123456789012.99", "10.5"])
def test_well_formed_amounts(amount: str) -> None:
    doc = good()
    doc["rounds"][0]["boxes"][0]["stakes"][0]["amount"] = amount
    validate(doc)


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda d: d.pop("decks"), "decks"),
        (lambda d: d.update(format="casino-hand-log/2"), "format"),
        (lambda d: d.update(decks=True), "decks"),
        (lambda d: d.update(profile="BE"), "profile"),
        (lambda d: d.update(shoe_id=""), "shoe_id"),
        (lambda d: d["limits"].pop("max"), "limits.max"),
        (lambda d: d.update(house_rules={"surrender": 1}), "house_rules.surrender"),
        (lambda d: d.update(house_rules={"dealer_hits_soft_17": True}), "house_rules.dealer_hits_soft_17"),
        (lambda d: d.update(house_rules={"double_totals": "any"}), "house_rules.double_totals"),
        (lambda d: d.update(profile="LU", house_rules={"surrender": False}), "house_rules.surrender"),
        (lambda d: d.update(house_rules={"max_hands_after_split": 1}), "house_rules.max_hands_after_split"),
        (lambda d: d.update(house_rules={"max_boxes_per_player": 0}), "house_rules.max_boxes_per_player"),
        (lambda d: d["rounds"][0].pop("insurance"), "rounds[0].insurance"),
        (lambda d: d["rounds"][0]["boxes"][0].update(box=8), "rounds[0].boxes[0].box"),
        (lambda d: d["rounds"][0]["boxes"].append({"box": 1, "stakes": []}), "rounds[0].boxes[1].box"),
        (
            lambda d: d["rounds"][0]["boxes"][0]["stakes"].append({"player": "P1", "amount": "10"}),
            "rounds[0].boxes[0].stakes[1].player",
        ),
        (lambda d: d["rounds"][0]["boxes"][0].update(stakes=[]), "rounds[0].boxes"),
        (lambda d: d["rounds"][0]["cards"].append(10), "rounds[0].cards[4]"),
        (lambda d: d["rounds"][0]["actions"].update({"8": []}), "rounds[0].actions.8"),
        (lambda d: d["rounds"][0]["actions"]["1"].append("fold"), "rounds[0].actions.1[1]"),
        (
            lambda d: d["rounds"][0]["actions"]["1"].append({"act": "double", "declined": "B1"}),
            "rounds[0].actions.1[1].declined",
        ),
        (
            lambda d: d["rounds"][0]["settlements"].append(
                {"box": 1, "hand": 0, "player": "P1", "net": "1", "insurance_net": "1"}
            ),
            "rounds[0].settlements[0]",
        ),
        (
            lambda d: d["rounds"][0]["settlements"].append({"box": 1, "player": "P1", "net": "1"}),
            "rounds[0].settlements[0].hand",
        ),
        (
            lambda d: d["rounds"][0]["insurance"].append({"box": 1, "player": "P1", "amount": 5}),
            "rounds[0].insurance[0].amount",
        ),
    ],
)
def test_rejections_name_the_field(mutate: Any, field: str) -> None:
    doc = good()
    mutate(doc)
    assert reject(doc).field == field


def test_accepted_oddities() -> None:
    doc = good()
    doc["extra"] = 1  # unknown top-level keys are ignored
    doc["house_rules"] = {"double_after_split": True, "resplit_aces": False}  # at defaults
    doc["rounds"][0]["insurance"].append({"box": 9, "player": "P1", "amount": "5"})
    doc["rounds"][0]["actions"]["1"] = [{"act": "stand", "declined": ["B1"]}]
    validate(doc)


def write_jsonl(path: Path, lines: list[str]) -> None:
    path.write_bytes(("\n".join(lines) + "\n").encode())


def test_jsonl_with_one_bad_line_among_good_ones(tmp_path: Path) -> None:
    ok = json.dumps(good())
    bad = good()
    del bad["rounds"][0]["cards"]
    f = tmp_path / "day.jsonl"
    write_jsonl(f, [ok, "", json.dumps(bad), ok])
    out, err = io.StringIO(), io.StringIO()
    assert main(["--json", str(f)], out, err) == 2
    assert err.getvalue() == f"{f}:3: rejected: rounds[0].cards: missing\n"
    assert len(out.getvalue().splitlines()) == 2  # the good logs are still reported


def test_non_json_and_non_utf8_files(tmp_path: Path) -> None:
    a = tmp_path / "a.json"
    a.write_text("{oops")
    b = tmp_path / "b.jsonl"
    b.write_bytes(b'{"format": "caf\xe9"}\n')
    c = tmp_path / "c.json"
    c.write_text("NaN")
    out, err = io.StringIO(), io.StringIO()
    status = main(
        [str(a), str(b), str(c), str(FIXTURES / "worked-example.json"), str(tmp_path / "missing.json")],
        out,
        err,
    )
    assert status == 2
    lines = err.getvalue().splitlines()
    assert len(lines) == 4
    assert lines[0].startswith(f"{a}: rejected: document: not JSON")
    assert lines[1] == f"{b}:1: rejected: document: not JSON (not UTF-8)"
    assert lines[2].startswith(f"{c}: rejected: document: not JSON")
    assert lines[3].startswith(f"{tmp_path / 'missing.json'}: rejected: document: cannot read")
    assert "Traceback" not in err.getvalue()
    assert "Sabot BJ03-2026-11-30-S2" in out.getvalue()


def test_missing_field_in_json_file(tmp_path: Path) -> None:
    doc = good()
    doc["rounds"][0]["boxes"][0]["stakes"][0].pop("amount")
    f = tmp_path / "x.json"
    f.write_text(json.dumps(doc))
    out, err = io.StringIO(), io.StringIO()
    assert main([str(f)], out, err) == 2
    assert err.getvalue() == f"{f}: rejected: rounds[0].boxes[0].stakes[0].amount: missing\n"


def test_exit_0_when_no_discrepancy(tmp_path: Path) -> None:
    doc = copy.deepcopy(good())
    doc["rounds"][0]["settlements"] = [{"box": 1, "hand": 0, "player": "P1", "net": "10.00"}]
    f = tmp_path / "ok.json"
    f.write_text(json.dumps(doc))
    out, err = io.StringIO(), io.StringIO()
    assert main([str(f)], out, err) == 0, out.getvalue()
    assert "conforme" in out.getvalue()
