"""bench/depot.py, bench/replay.py and bench/long_registers.py at a tiny size (tests/support/bench_runner.py)."""

from __future__ import annotations

from tests.support.bench_runner import BENCH_WITH_DATABASE, run_bench

pytestmark = BENCH_WITH_DATABASE


def test_the_depot_bench_receives_every_deck() -> None:
    out = run_bench("depot.py", "--decks", "24", "--per-reception", "12")
    assert "check   : ok: decks in the cabinet: 24" in out
    assert "check   : ok: decks read in the whole year's book: 24" in out


def test_the_replay_bench_replays_every_round() -> None:
    out = run_bench(
        "replay.py", "3", "--repeat", "1", "--command-runs", "1", "--memory-sizes", "2", BENCH_NO_DJANGO="1"
    )
    assert "check   : ok: reports printed by the command: 3" in out
    assert "check   : ok: reports printed by the command: 2" in out


def test_the_long_registers_bench_prints_a_long_period_by_its_entries() -> None:
    """On the French demo the other benches seed (its orphans: entries in a few months), not the
    Luxembourg one the bench seeds by default, whose seeding alone takes twenty seconds."""
    out = run_bench(
        "long_registers.py", "--profile", "FR", "--registers", "orphans", "--since", "2020", seeded=True
    )
    assert "check   : ok: orphans, since 2020: every part has an entry (no empty page)" in out
    assert "check   : ok: orphans: the long period holds the last 40 days' entries" in out
