"""The replay command through manage.py (a subprocess, as an operator runs it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .conftest import FIXTURES

ROOT = Path(__file__).resolve().parents[3]


def test_manage_py_replay_worked_example() -> None:
    env = {**os.environ, "DEBUG": "1"}
    proc = subprocess.run(
        [sys.executable, "manage.py", "replay", "--json", "tests/fixtures/handlog/worked-example.json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    expected = json.loads((FIXTURES / "worked-example.report.json").read_text())
    assert [json.loads(x) for x in proc.stdout.splitlines()] == [expected]


def test_manage_py_replay_rejects_with_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    env = {**os.environ, "DEBUG": "1"}
    proc = subprocess.run(
        [sys.executable, "manage.py", "replay", str(bad), "tests/fixtures/handlog/worked-example.json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"{bad}: rejected: document: not JSON")
    assert "Traceback" not in proc.stderr
    assert "Sabot BJ03-2026-11-30-S2" in proc.stdout


def test_manage_py_replay_json_on_the_spec_examples() -> None:
    """``manage.py replay --json`` on sample.jsonl and house-rules.jsonl: their reports, field for field."""
    env = {**os.environ, "DEBUG": "1"}
    names = ("sample", "house-rules")
    proc = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "replay",
            "--json",
            *(f"tests/fixtures/handlog/{n}.jsonl" for n in names),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == ""
    want = [json.loads(x) for n in names for x in (FIXTURES / f"{n}.report.jsonl").read_text().splitlines()]
    assert [json.loads(x) for x in proc.stdout.splitlines()] == want
