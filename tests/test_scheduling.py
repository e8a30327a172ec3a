"""The workers get the longest test files first (tests/support/scheduling.py)."""

from __future__ import annotations

from tests.support.scheduling import known_durations, longest_first


def test_the_longest_files_come_first_each_keeping_its_tests_in_order() -> None:
    nodeids = ["a.py::one", "a.py::two", "b.py::one", "c.py::one", "c.py::two", "d.py::one"]
    durations = {"a.py": 1.0, "c.py": 90.0, "b.py": 30.0}
    order = [nodeids[position] for position in longest_first(nodeids, durations)]
    # c (90 s), b (30 s), a (1 s), then d, unlisted, taken to be short
    assert order == ["c.py::one", "c.py::two", "b.py::one", "a.py::one", "a.py::two", "d.py::one"]


def test_the_recorded_durations_name_test_files_of_this_suite() -> None:
    durations = known_durations()
    assert durations, "tests/durations.json is missing: record it with --record-durations"
    assert all(name.startswith("tests/") and name.endswith(".py") for name in durations)
    # the browser tour, minutes long, is among the files started first
    slowest = sorted(durations, key=durations.__getitem__, reverse=True)[:5]
    assert "tests/inspection/portal/test_browser.py" in slowest, slowest
