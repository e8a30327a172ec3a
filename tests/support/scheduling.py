"""The order in which pytest-xdist hands the test files to its workers: the longest first.

``scripts/test.sh`` runs the suite with ``--dist loadfile --no-loadscope-reorder``: each file
goes whole to one worker, in the order collected. A file that takes minutes (the browser tour,
the quick start's fresh install) handed out last would run alone on one worker while the others
wait. Started first, the short files fill the other workers around it (longest processing time
first). How long each file takes is read from ``tests/durations.json``, written by a run with
``--record-durations``; a file not listed there (a new one) is taken to be short and runs after
the listed ones. The order changes only when files start: every test still runs.

The first worker to need the test database migrates it (the root ``conftest.py``, a quarter of
a minute) while the others wait for their copy of it: so each other worker starts with one of
the longest files that need no database (the quick start's fresh install, a new casino's own
database), which keeps its core busy meanwhile.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

DURATIONS = Path(__file__).resolve().parents[1] / "durations.json"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record-durations",
        action="store_true",
        default=False,
        help="write how long each test file took (set-up, test, tear-down) to tests/durations.json",
    )


def _module(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def known_durations() -> dict[str, float]:
    try:
        data = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}
    return {str(name): float(seconds) for name, seconds in data.items()}


def longest_first(
    nodeids: list[str],
    durations: dict[str, float],
    *,
    without_database: frozenset[str] = frozenset(),
    workers: int = 1,
) -> list[int]:
    """The positions of ``nodeids`` reordered file by file, the longest files first; the tests of
    one file keep their order, and unlisted files keep theirs, after the listed ones. With
    ``workers`` > 1 and a first file that needs the database, the longest listed files of
    ``without_database`` come right after it, one for each other worker."""
    files: dict[str, list[int]] = defaultdict(list)
    for position, nodeid in enumerate(nodeids):
        files[_module(nodeid)].append(position)
    order = sorted(files, key=lambda name: (name not in durations, -durations.get(name, 0.0)))
    if workers > 1 and order and order[0] not in without_database:
        aside = [name for name in order if name in without_database and name in durations][: workers - 1]
        order = [order[0], *aside, *(name for name in order[1:] if name not in aside)]
    return [position for name in order for position in files[name]]


def uses_database(item: pytest.Item) -> bool:
    """A test that uses the test database: marked ``django_db``, or asking for it set up (the
    ``db`` fixtures, the live server, the benches' ``BENCH_WITH_DATABASE``)."""
    return item.get_closest_marker("django_db") is not None or "django_db_setup" in getattr(
        item, "fixturenames", ()
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    durations = known_durations()
    if not durations:
        return
    using: dict[str, bool] = defaultdict(bool)
    for item in items:
        using[_module(item.nodeid)] |= uses_database(item)
    order = longest_first(
        [item.nodeid for item in items],
        durations,
        without_database=frozenset(name for name, uses in using.items() if not uses),
        workers=int(getattr(config, "workerinput", {}).get("workercount", 1)),
    )
    items[:] = [items[position] for position in order]


class _Recorder:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[_module(report.nodeid)] += report.duration

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if not self.seconds or hasattr(session.config, "workerinput"):
            return  # an xdist worker: the controller, which gets every report, writes the file
        rounded = {name: round(seconds, 1) for name, seconds in sorted(self.seconds.items())}
        DURATIONS.write_text(json.dumps(rounded, indent=1) + "\n", encoding="utf-8")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--record-durations"):
        config.pluginmanager.register(_Recorder(), "record-durations")
