"""Benchmark of the test suite's time against an earlier commit, test by test.

    python bench/suite_time.py --base REV [--rounds N] [--pytest-only --python PY] [-- PYTEST_ARGS]

Runs the README's test command (``scripts/test.sh -q``, extra arguments to pytest) on a fresh
clone of ``REV`` and on a fresh clone of ``HEAD`` (as committed: what the working tree holds
beside it is not run), one after the other, ``N`` rounds alternating, so that both are measured
in the same hour on the same machine (the machine's speed moves from one hour to the next far
more than one change does). Each run leaves pytest's JUnit report; the tests are matched by
module name, class and test name (a test file that moved to another directory is the same
file), and the bench prints:

* each run's wall time (the whole command, then pytest's own) and the CPU time of the command
  and of every process it started and waited for (the tests' workers, the processes they
  start, the browser; not the database's or Redis' servers);
* the tests present at both commits: their time at ``REV`` and at ``HEAD`` (each test's set-up,
  call and tear-down, summed over the workers), which says whether the code made the tests that
  were there before slower; with several rounds, each round's pair too, and how far apart the
  rounds of one commit were (the noise that difference is read against);
* the tests only at ``HEAD`` (what the suite checks since) and only at ``REV`` (renamed or
  removed), with the files that take the most.

``--pytest-only`` runs ``PY -m pytest -q`` in each clone instead of the whole command (no
install, no lint), with the interpreter ``--python`` names: for a quick look, or the bench's
own test at a tiny size. The bench checks its own work (bench/checks.py): both runs passed,
each report holds its tests and no failure.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.checks import expect, finish, load  # noqa: E402

#: A test, the same at both commits: its module's name (not its directory), class, name.
Key = tuple[str, str, str]


@dataclass
class Run:
    """One run of the suite on one commit."""

    label: str
    commit: str
    wall: float
    returncode: int
    cpu: float = 0.0  # the command's and every process it started and waited for (not the servers')
    pytest_wall: float = 0.0
    failures: int = 0
    tests: dict[Key, tuple[float, str]] = field(default_factory=dict)  # key -> (seconds, file)


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def fresh_clone(rev: str, into: Path) -> str:
    """A fresh clone of this repository at ``rev``; returns the commit's short name."""
    commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    subprocess.run(["git", "clone", "--quiet", "--shared", str(ROOT), str(into)], check=True)
    git("checkout", "--quiet", "--detach", commit, cwd=into)
    return commit[:7]


def read_report(path: Path) -> tuple[float, int, dict[Key, tuple[float, str]]]:
    """pytest's JUnit report: its wall time, failures and errors, and each test's time."""
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    wall = sum(float(s.get("time") or 0) for s in suites)
    failures = sum(int(s.get("failures") or 0) + int(s.get("errors") or 0) for s in suites)
    tests: dict[Key, tuple[float, str]] = {}
    for case in root.iter("testcase"):
        parts = (case.get("classname") or "").split(".")
        module = max((i for i, part in enumerate(parts) if part.startswith("test_")), default=len(parts) - 1)
        key = (parts[module], ".".join(parts[module + 1 :]), case.get("name") or "")
        tests[key] = (float(case.get("time") or 0), "/".join(parts[: module + 1]) + ".py")
    return wall, failures, tests


def run_suite(label: str, clone: Path, commit: str, args: argparse.Namespace, report: Path) -> Run:
    if args.pytest_only:
        command = [
            os.path.abspath(args.python),
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            f"--junitxml={report}",
        ]
    else:
        command = ["scripts/test.sh", "-q", f"--junitxml={report}"]
    # the run is a suite of its own: nothing of a pytest that started the bench (its worker's
    # name, its migrated database) is handed down
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"PYTHONPATH", "VIRTUAL_ENV", "TEST_MIGRATED_DATABASE"} and not k.startswith("PYTEST_")
    }
    started, before = time.monotonic(), _children_cpu()
    try:
        done = subprocess.run(
            [*command, *args.pytest_args],
            cwd=clone,
            env=env,
            capture_output=True,
            text=True,
            timeout=args.timeout,
        )
        returncode, output = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired:
        returncode, output = -1, f"{label}: stopped after --timeout {args.timeout:.0f} s"
    run = Run(label, commit, time.monotonic() - started, returncode, _children_cpu() - before)
    if returncode != 0:
        print(output[-3000:], file=sys.stderr)
    if report.exists():
        run.pytest_wall, run.failures, run.tests = read_report(report)
    print(
        f"{label:7} : {commit} {minutes(run.wall)} for the command ({run.cpu:.0f} s of CPU), "
        f"pytest {run.pytest_wall:.0f} s, "
        f"{len(run.tests):,} tests, exit {run.returncode}",
        flush=True,
    )
    return run


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def minutes(seconds: float) -> str:
    return f"{int(seconds // 60)} min {int(seconds % 60)} s"


def total(runs: list[Run], keys: set[Key]) -> float:
    """The mean over ``runs`` of the summed time of the tests ``keys``."""
    return sum(sum(run.tests[key][0] for key in keys) for run in runs) / len(runs)


def by_file(runs: list[Run], keys: set[Key], top: int) -> str:
    files: dict[str, float] = defaultdict(float)
    for run in runs:
        for key in keys:
            seconds, name = run.tests[key]
            files[name] += seconds / len(runs)
    largest = sorted(files.items(), key=lambda item: -item[1])[:top]
    return "\n".join(f"          {seconds:7.1f} s  {name}" for name, seconds in largest)


def _pair(then: float, now: float) -> str:
    change = f"{(now - then) / then * 100:+.1f} %" if then else "n/a"
    return f"{then:.1f} s at base, {now:.1f} s at HEAD ({change})"


def _spread(runs: list[Run], keys: set[Key]) -> float:
    """How far apart the rounds of one commit were on ``keys``: (slowest - fastest) / fastest,
    in %: the noise a difference between the commits is read against."""
    times = [total([run], keys) for run in runs]
    return (max(times) - min(times)) / min(times) * 100 if min(times) else 0.0


def compare(base: list[Run], head: list[Run], top: int) -> None:
    """What the tests of each commit took: those at both, those only at one."""
    at_base = set.intersection(*(set(run.tests) for run in base))
    at_head = set.intersection(*(set(run.tests) for run in head))
    both = at_base & at_head
    print(f"both    : {len(both):,} tests at both commits: {_pair(total(base, both), total(head, both))}")
    if len(base) > 1 or len(head) > 1:
        for round_, (b, h) in enumerate(zip(base, head, strict=False), start=1):
            print(f"          round {round_}: {_pair(total([b], both), total([h], both))}")
        spreads = {label: _spread(runs, both) for label, runs in (("base", base), ("HEAD", head))}
        print(
            f"          rounds of one commit apart by up to {max(spreads.values()):.1f} % "
            f"(base {spreads['base']:.1f} %, HEAD {spreads['HEAD']:.1f} %)"
        )
    new, gone = at_head - both, at_base - both
    print(f"new     : {len(new):,} tests only at HEAD: {total(head, new):.1f} s")
    if new:
        print(by_file(head, new, top))
    print(f"gone    : {len(gone):,} tests only at base (renamed or removed): {total(base, gone):.1f} s")
    if gone:
        print(by_file(base, gone, top))
    expect(bool(both), f"tests matched at both commits: {len(both):,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the earlier commit (a name git knows)")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each commit, alternating")
    parser.add_argument("--pytest-only", action="store_true", help="pytest alone, not scripts/test.sh")
    parser.add_argument("--python", default=sys.executable, help="the interpreter of --pytest-only")
    parser.add_argument("--top", type=int, default=12, help="files listed under new and gone")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds a run may take")
    parser.add_argument("pytest_args", nargs="*", help="after --: given to pytest")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds: at least 1")
    try:
        git("rev-parse", "--verify", f"{args.base}^{{commit}}")
    except subprocess.CalledProcessError:
        parser.error(f"--base: {args.base!r} names no commit of this repository")
    command = "pytest alone" if args.pytest_only else "scripts/test.sh -q"
    print(
        f"suite   : base {args.base} against HEAD, {command}, fresh clones, {args.rounds} round(s), "
        f"{os.cpu_count()} cores, load {load()}",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="suite-time-") as tmp:
        clones = {label: Path(tmp) / label for label in ("base", "HEAD")}
        commits = {
            label: fresh_clone(rev, clones[label]) for label, rev in (("base", args.base), ("HEAD", "HEAD"))
        }
        runs: dict[str, list[Run]] = {"base": [], "HEAD": []}
        for round_ in range(args.rounds):
            for label in ("base", "HEAD"):
                report = Path(tmp) / f"{label}-{round_}.xml"
                run = run_suite(label, clones[label], commits[label], args, report)
                expect(
                    run.returncode == 0, f"{label} {commits[label]} round {round_ + 1}: exit {run.returncode}"
                )
                expect(
                    bool(run.tests), f"{label} round {round_ + 1}: its report holds {len(run.tests):,} tests"
                )
                expect(run.failures == 0, f"{label} round {round_ + 1}: {run.failures} failed")
                runs[label].append(run)
        if all(run.tests for run in runs["base"] + runs["HEAD"]):
            compare(runs["base"], runs["HEAD"], args.top)
    finish()


if __name__ == "__main__":
    main()
