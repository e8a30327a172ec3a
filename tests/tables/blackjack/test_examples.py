"""The conformance examples of the spec: reports equal field for field."""

from __future__ import annotations

import io
import json

from tables.blackjack import replay
from tables.blackjack.cli import main

from .conftest import FIXTURES


def test_worked_example_report() -> None:
    log = json.loads((FIXTURES / "worked-example.json").read_text())
    expected = json.loads((FIXTURES / "worked-example.report.json").read_text())
    assert replay(log) == expected


def test_sample_shoes_equal_their_reports() -> None:
    logs = (FIXTURES / "sample.jsonl").read_text().splitlines()
    reports = (FIXTURES / "sample.report.jsonl").read_text().splitlines()
    assert len(logs) == len(reports) == 12
    for line, rep in zip(logs, reports, strict=True):
        assert replay(json.loads(line)) == json.loads(rep)


def test_cli_json_on_samples_exits_1() -> None:
    out, err = io.StringIO(), io.StringIO()
    status = main(["--json", str(FIXTURES / "sample.jsonl")], out, err)
    assert status == 1
    assert err.getvalue() == ""
    got = [json.loads(x) for x in out.getvalue().splitlines()]
    want = [json.loads(x) for x in (FIXTURES / "sample.report.jsonl").read_text().splitlines()]
    assert got == want


def test_cli_worked_example_exit_1_and_french_summary() -> None:
    out, err = io.StringIO(), io.StringIO()
    status = main([str(FIXTURES / "worked-example.json")], out, err)
    assert status == 1
    text = out.getvalue()
    assert "Sabot BJ03-2026-11-30-S2" in text
    assert "SETTLEMENT_MISMATCH (FR art. 55-4 1°) : 1" in text
    assert "en faveur des joueurs : 20,00" in text
    assert "1 sabot rejoué" in text


def test_house_rules_shoes_equal_their_reports() -> None:
    logs = (FIXTURES / "house-rules.jsonl").read_text().splitlines()
    reports = (FIXTURES / "house-rules.report.jsonl").read_text().splitlines()
    assert len(logs) == len(reports) == 2
    for line, rep in zip(logs, reports, strict=True):
        assert replay(json.loads(line)) == json.loads(rep)


def test_cli_json_on_house_rules_exits_1() -> None:
    out, err = io.StringIO(), io.StringIO()
    status = main(["--json", str(FIXTURES / "house-rules.jsonl")], out, err)
    assert status == 1
    assert err.getvalue() == ""
    got = [json.loads(x) for x in out.getvalue().splitlines()]
    want = [json.loads(x) for x in (FIXTURES / "house-rules.report.jsonl").read_text().splitlines()]
    assert got == want
