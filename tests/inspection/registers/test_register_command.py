"""``manage.py register`` refuses a badly written or absurd date in one line, without a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("day", ["01/12/2026", "9999-12-01", "0001-01-01"])
def test_a_bad_date_is_one_line_and_exit_2(day: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "register", "order-book", "--from", day, "--to", "2026-12-01",
         "--output", str(tmp_path / "x.pdf")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "argument --from" in done.stderr and day in done.stderr
