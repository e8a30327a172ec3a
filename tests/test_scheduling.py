"""The workers get the longest test files first (tests/support/scheduling.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.scheduling import known_durations, longest_first

ROOT = Path(__file__).resolve().parents[1]


def test_the_longest_files_come_first_each_keeping_its_tests_in_order() -> None:
    nodeids = ["a.py::one", "a.py::two", "b.py::one", "c.py::one", "c.py::two", "d.py::one"]
    durations = {"a.py": 1.0, "c.py": 90.0, "b.py": 30.0}
    order = [nodeids[position] for position in longest_first(nodeids, durations)]
    # c (90 s), b (30 s), a (1 s), then d, unlisted, taken to be short
    assert order == ["c.py::one", "c.py::two", "b.py::one", "a.py::one", "a.py::two", "d.py::one"]


def test_while_one_worker_migrates_the_others_start_with_the_longest_files_needing_no_database() -> None:
    nodeids = ["db1.py::t", "db2.py::t", "none1.py::t", "none2.py::t", "none3.py::t", "short.py::t"]
    durations = {"db1.py": 100.0, "db2.py": 90.0, "none1.py": 40.0, "none2.py": 30.0, "none3.py": 20.0}
    without = frozenset({"none1.py", "none2.py", "none3.py", "short.py"})

    def order(workers: int, first_needs_none: bool = False) -> list[str]:
        listed = {**durations, "none1.py": 200.0} if first_needs_none else durations
        positions = longest_first(nodeids, listed, without_database=without, workers=workers)
        return [nodeids[position].split("::")[0] for position in positions]

    # one worker: the longest first, whatever they need
    assert order(1) == ["db1.py", "db2.py", "none1.py", "none2.py", "none3.py", "short.py"]
    # two: the other worker's first file needs no database (db1's worker migrates meanwhile)
    assert order(2) == ["db1.py", "none1.py", "db2.py", "none2.py", "none3.py", "short.py"]
    # three: one each for the two others
    assert order(3) == ["db1.py", "none1.py", "none2.py", "db2.py", "none3.py", "short.py"]
    # a first file needing no database migrates nothing: the plain order
    assert order(2, first_needs_none=True) == [
        "none1.py",
        "db1.py",
        "db2.py",
        "none2.py",
        "none3.py",
        "short.py",
    ]


def test_the_quick_start_needs_no_test_database_and_the_benches_do(tmp_path: Path) -> None:
    """What the order reads of each file, collected as the suite collects it: the quick start
    makes its own database, a bench copies the run's migrated test database."""
    (tmp_path / "uses_database_probe.py").write_text(
        "from tests.support.scheduling import uses_database\n"
        "def pytest_collection_finish(session):\n"
        "    for item in session.items:\n"
        "        print('USES', item.nodeid.split('::')[0], uses_database(item))\n"
    )
    files = ["tests/test_quickstart.py", "tests/benches/test_page_benches.py"]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:xdist",
            "-p",
            "uses_database_probe",
            *files,
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])},
        capture_output=True,
        text=True,
        timeout=120,
    )
    uses = {
        line.split()[1]: line.split()[2] == "True"
        for line in done.stdout.splitlines()
        if line.startswith("USES ")
    }
    assert uses == {files[0]: False, files[1]: True}, done.stdout[-2000:] + done.stderr[-2000:]


def test_the_recorded_durations_name_test_files_of_this_suite() -> None:
    durations = known_durations()
    assert durations, "tests/durations.json is missing: record it with --record-durations"
    assert all(name.startswith("tests/") and name.endswith(".py") for name in durations)
    # the browser tour, minutes long, is among the files started first
    slowest = sorted(durations, key=durations.__getitem__, reverse=True)[:5]
    assert "tests/inspection/portal/test_browser.py" in slowest, slowest
