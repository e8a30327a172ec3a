"""bench/suite_time.py: the suite's time against an earlier commit, test by test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.bench_runner import run_bench

pytestmark = pytest.mark.slow


def _report(path: Path, cases: list[tuple[str, str, float]], failures: int = 0) -> Path:
    rows = "".join(f'<testcase classname="{c}" name="{n}" time="{t}"/>' for c, n, t in cases)
    path.write_text(
        f'<testsuites><testsuite name="pytest" failures="{failures}" errors="0" time="9.5">{rows}'
        "</testsuite></testsuites>"
    )
    return path


def test_a_test_that_moved_to_another_directory_is_the_same_test(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench.suite_time import Run, compare, read_report

    wall, failures, base = read_report(
        _report(
            tmp_path / "base.xml",
            [
                ("tests.portal.test_pages", "test_home", 1.0),
                ("tests.portal.test_pages.TestList", "test_sorted", 2.0),
                ("tests.tables.test_old", "test_renamed_since", 4.0),
            ],
        )
    )
    assert (wall, failures) == (9.5, 0)
    assert base[("test_pages", "TestList", "test_sorted")] == (2.0, "tests/portal/test_pages.py")
    _, _, head = read_report(
        _report(
            tmp_path / "head.xml",
            [
                ("tests.inspection.portal.test_pages", "test_home", 1.5),
                ("tests.inspection.portal.test_pages.TestList", "test_sorted", 2.5),
                ("tests.tables.test_new", "test_added", 8.0),
            ],
        )
    )
    compare([Run("base", "a", 10, 0, tests=base)], [Run("HEAD", "b", 12, 0, tests=head)], top=5)
    out = capsys.readouterr().out
    assert "both    : 2 tests at both commits: 3.0 s at base, 4.0 s at HEAD (+33.3 %)" in out
    assert "new     : 1 tests only at HEAD: 8.0 s\n              8.0 s  tests/tables/test_new.py" in out
    assert "gone    : 1 tests only at base (renamed or removed): 4.0 s" in out


def test_each_round_of_the_tests_at_both_commits_is_printed_with_the_spread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two rounds: the mean, then each round's pair, then how far apart the rounds of one
    commit were (what a difference between the commits is to be read against)."""
    from bench.suite_time import Run, compare, read_report

    def tests(name: str, seconds: float) -> dict:
        return read_report(_report(tmp_path / name, [("tests.test_a", "test_one", seconds)]))[2]

    base = [
        Run("base", "a", 10, 0, tests=tests("b1.xml", 10.0)),
        Run("base", "a", 10, 0, tests=tests("b2.xml", 12.0)),
    ]
    head = [
        Run("HEAD", "b", 10, 0, tests=tests("h1.xml", 11.0)),
        Run("HEAD", "b", 10, 0, tests=tests("h2.xml", 10.0)),
    ]
    compare(base, head, top=5)
    out = capsys.readouterr().out
    assert "both    : 1 tests at both commits: 11.0 s at base, 10.5 s at HEAD (-4.5 %)" in out
    assert "          round 1: 10.0 s at base, 11.0 s at HEAD (+10.0 %)" in out
    assert "          round 2: 12.0 s at base, 10.0 s at HEAD (-16.7 %)" in out
    assert "          rounds of one commit apart by up to 20.0 % (base 20.0 %, HEAD 10.0 %)" in out


def test_the_suite_time_bench_runs_both_commits_on_fresh_clones() -> None:
    """At a tiny size: pytest alone, one file, the current commit against itself."""
    out = run_bench(
        "suite_time.py", "--base", "HEAD", "--pytest-only", "--", "tests/test_scheduling.py", database=False
    )
    # the file's tests, however many it holds, found in both reports and matched
    held = re.search(r"check   : ok: base round 1: its report holds (\d+) tests", out)
    assert held and int(held.group(1)) > 0, out
    assert f"check   : ok: HEAD round 1: its report holds {held.group(1)} tests" in out
    assert f"both    : {held.group(1)} tests at both commits" in out
    assert f"check   : ok: tests matched at both commits: {held.group(1)}" in out
