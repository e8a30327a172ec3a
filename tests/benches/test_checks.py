"""A bench's check that falls short makes it exit non-zero (bench/checks.py)."""

from __future__ import annotations

import subprocess
import sys

from tests.support.bench_runner import ROOT


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); {code}"],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_check_falling_short_exits_non_zero_and_says_the_figures_do_not_count() -> None:
    done = _run(
        "from bench.checks import expect_equal, finish; "
        "expect_equal(0, 1237, 'hand logs stored'); print('21600 rounds in 6.9 s'); finish()"
    )
    assert done.returncode == 1
    assert "check   : FAILED: hand logs stored: 0, expected 1237" in done.stdout
    assert "the figures above do not count" in done.stderr


def test_checks_all_held_exit_zero() -> None:
    done = _run("from bench.checks import expect_equal, finish; expect_equal(4, 4, 'logs stored'); finish()")
    assert done.returncode == 0, done.stderr
    assert "check   : ok: logs stored: 4" in done.stdout
