"""bench/audit.py and bench/peers.py at a tiny size: every audited save has its event, sealed,
the chain unbroken, the proofs hold, and each peer recorded every save with its user."""

from __future__ import annotations

from tests.support.bench_runner import BENCH_WITH_DATABASE, run_bench

pytestmark = BENCH_WITH_DATABASE


def test_the_audit_bench_seals_every_save_and_its_proofs_hold() -> None:
    out = run_bench(
        "audit.py",
        "--saves",
        "20",
        "--events",
        "10000",
        "--writers",
        "2",
        "--seconds",
        "0.5",
        "--rounds",
        "1",
        "--no-peers",
    )
    assert "check   : ok: events of the audited saves (one per save)" in out
    assert "check   : ok: the consistency proof holds" in out


def test_the_peers_bench_checks_each_peers_records() -> None:
    out = run_bench(
        "peers.py", "--saves", "20", "--writers", "2", "--seconds", "0.5", "--concurrent-rounds", "1"
    )
    assert "check   : ok: this project: sealed events of the audited saves" in out
    assert "check   : ok: pghistory: records with the acting user" in out
