"""Benchmark of the hand-log replay.

    python bench/replay.py [N] [--mode all|engine|command|memory] [--repeat R]

* engine: N simulated shoes (both profiles, house-rule variations, 1 to 7
  boxes, players behind) already parsed from JSON, replayed in-process on
  one core. Measured: validation + replay + building the report dicts
  (JSON serialisation of the report is not included). The figure is the
  best of R passes (default 15): other work on the machine only ever slows
  a pass down, so the fastest one is the engine's own speed. The same passes
  are also given by CPU time (the process's own time on its one core), which
  a busy machine disturbs less than wall-clock time.
* command: the same shoes written to a .jsonl file and replayed by the
  command in a subprocess (``manage.py replay --json`` when Django is set
  up, else ``python -m tables.blackjack.cli --json``): includes starting
  Python, reading, parsing, serialising the reports. Best of 3 runs.
* memory: the command's peak RSS on one .jsonl of 100, 1,000 and 10,000
  shoes; it should stay flat, the file being streamed line by line.

Each figure names the engine it measured (the plain Python source, or a
compiled build of it when the modules loaded are extension modules).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.checks import expect, expect_equal, finish, load  # noqa: E402
from tables.blackjack import replay  # noqa: E402
from tables.blackjack.simulator import simulate_shoe  # noqa: E402

FR_RULES = ("surrender", "hit_on_21_forbidden", "single_player_two_boxes")


def make_shoes(n: int, seed: int = 7) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    shoes = []
    for i in range(n):
        profile = "FR" if i % 2 else "LU"
        hr: dict[str, Any] = {}
        for key in ("split_identical_only", "resplit_aces") + (FR_RULES if profile == "FR" else ()):
            if rng.random() < 0.3:
                hr[key] = True
        if rng.random() < 0.2:
            hr["double_after_split"] = False
        if rng.random() < 0.3:
            hr["max_hands_after_split"] = rng.choice((2, 3, 4))
        limits = rng.choice((("10.00", "1000.00"), ("25.00", "5000.00"), ("5.00", "500.00")))
        shoes.append(simulate_shoe(seed * 100_000 + i, profile, hr, limits, shoe_id=f"BENCH-{i}"))
    return shoes


def engine_build() -> str:
    """Which engine is loaded: the plain Python source or a compiled build of it."""
    module = sys.modules[replay.__module__]
    path = getattr(module, "__file__", "") or ""
    if path.endswith(".py"):
        return f"plain Python ({sys.implementation.name} {sys.version.split()[0]})"
    return f"compiled build ({Path(path).name})"


def bench_engine(logs: list[dict[str, Any]], repeat: int = 15) -> None:
    rounds = sum(len(log["rounds"]) for log in logs)
    parsed = [json.loads(json.dumps(log)) for log in logs]
    walls = []
    cpus = []
    replayed = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        c0 = time.process_time()
        replayed = 0
        for log in parsed:
            report = replay(log)
            replayed += sum(1 for r in report["rounds"] if r["replayed"])
        cpus.append(time.process_time() - c0)
        walls.append(time.perf_counter() - t0)
    expect_equal(replayed, rounds, "rounds replayed by the engine in a pass")
    best = min(walls)
    median = sorted(walls)[len(walls) // 2]
    print(
        f"engine  : {len(logs)} shoes, {rounds} rounds, best of {repeat} passes: {best:.3f} s"
        f" -> {rounds / best:,.0f} rounds/s (median pass {rounds / median:,.0f} rounds/s;"
        f" validation + replay + report dicts, one core, JSON encoding excluded; load average {load()})"
    )
    print(
        f"engine  : by CPU time of the one core used, best of {repeat} passes:"
        f" {rounds / min(cpus):,.0f} rounds/s (not counting time the system gave other processes)"
    )
    print(f"engine  : measured the {engine_build()} engine")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"engine  : peak RSS of this process {peak / 1024:.1f} MiB")


def command_argv(path: str) -> list[str]:
    if (ROOT / "manage.py").exists() and os.environ.get("BENCH_NO_DJANGO") != "1":
        return [sys.executable, "manage.py", "replay", "--json", path]
    return [sys.executable, "-m", "tables.blackjack.cli", "--json", path]


_MEASURE = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)\n"
    "n = sum(1 for line in p.stdout if line.strip())\n"
    "p.wait()\n"
    "dt = time.perf_counter() - t\n"
    "print(p.returncode, dt, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, n)\n"
)


def run_command(path: str, count: int) -> tuple[int, float, int]:
    """(exit status, seconds, peak RSS in KiB) of the command on one file of ``count`` logs; its
    exit status and one report printed per log are checked."""
    env = {**os.environ, "DEBUG": os.environ.get("DEBUG", "1")}
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, *command_argv(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.split()
    expect_equal(int(out[0]), 0, f"the command's exit status on {count} logs")
    expect_equal(int(out[3]), count, "reports printed by the command")
    return int(out[0]), float(out[1]), int(out[2])


def write_jsonl(path: Path, logs: list[dict[str, Any]], count: int) -> int:
    """Write ``count`` logs, cycling through ``logs``; return the rounds written."""
    lines = [json.dumps(log) for log in logs]
    rounds = [len(log["rounds"]) for log in logs]
    total = 0
    with path.open("w") as fh:
        for i in range(count):
            fh.write(lines[i % len(lines)])
            fh.write("\n")
            total += rounds[i % len(lines)]
    return total


def bench_command(logs: list[dict[str, Any]], tmp: Path, repeat: int = 3) -> None:
    path = tmp / "shoes.jsonl"
    rounds = write_jsonl(path, logs, len(logs))
    runs = [run_command(str(path), len(logs)) for _ in range(repeat)]
    status, secs, rss = min(runs, key=lambda r: r[1])
    print(
        f"command : {' '.join(command_argv('FILE')[1:])}: {len(logs)} shoes, {rounds} rounds"
        f" in {secs:.2f} s (best of {repeat} runs) -> {rounds / secs:,.0f} rounds/s (exit {status},"
        f" process start and JSON in/out included), peak RSS {rss / 1024:.1f} MiB"
    )


def bench_memory(
    logs: list[dict[str, Any]], tmp: Path, sizes: tuple[int, ...] = (100, 1_000, 10_000)
) -> None:
    for count in sizes:
        path = tmp / f"shoes-{count}.jsonl"
        rounds = write_jsonl(path, logs, count)
        status, secs, rss = run_command(str(path), count)
        print(
            f"memory  : {count:>6} shoes ({rounds:>7} rounds, {path.stat().st_size / 2**20:6.1f}"
            f" MiB file): peak RSS {rss / 1024:6.1f} MiB, {secs:6.2f} s,"
            f" {rounds / secs:,.0f} rounds/s, exit {status}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("n", nargs="?", type=int, default=200, help="simulated shoes")
    parser.add_argument("--mode", choices=("all", "engine", "command", "memory"), default="all")
    parser.add_argument("--repeat", type=int, default=15, help="engine passes, the best is reported")
    parser.add_argument(
        "--memory-sizes", default="100,1000,10000", help="shoes in each file of the memory measure"
    )
    parser.add_argument("--command-runs", type=int, default=3, help="command runs, the best is reported")
    args = parser.parse_args()
    t0 = time.perf_counter()
    logs = make_shoes(args.n)
    boxes = sorted({len(rd["boxes"]) for log in logs for rd in log["rounds"]})
    behind = sum(1 for log in logs for rd in log["rounds"] for b in rd["boxes"] if len(b["stakes"]) > 1)
    print(
        f"simulated {args.n} shoes in {time.perf_counter() - t0:.2f} s"
        f" (boxes per round {boxes[0]}-{boxes[-1]}, {behind} boxes with players behind)"
    )
    if args.mode in ("all", "engine"):
        bench_engine(logs, max(1, args.repeat))
    with tempfile.TemporaryDirectory() as d:
        if args.mode in ("all", "command"):
            bench_command(logs, Path(d), max(1, args.command_runs))
        if args.mode in ("all", "memory"):
            bench_memory(logs[:100], Path(d), tuple(int(n) for n in args.memory_sizes.split(",")))
    expect(True, "every report made")  # reached only when no pass raised
    finish()


if __name__ == "__main__":
    main()
