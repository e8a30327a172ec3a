"""bench/scale.py at a tiny size: the record built with COPY verifies end to end, its proofs
hold, the guard is back, and every portal page and the month's register are served."""

from __future__ import annotations

from tests.support.bench_runner import BENCH_WITH_DATABASE, run_bench

pytestmark = BENCH_WITH_DATABASE


def test_the_scale_bench_builds_a_record_that_verifies_and_serves_its_pages() -> None:
    out = run_bench(
        "scale.py",
        *("--events", "3000", "--requests", "2", "--proofs", "3", "--processes", "2"),
        seeded=True,
    )
    assert "check   : ok: sealed events added to the chain: 3000" in out
    assert "check   : ok: deck rows loaded, one per event: 3000" in out
    assert "check   : ok: the guard against sealed inserts enabled ALWAYS again: A" in out
    assert "check   : ok: verify_audit: OK over all" in out
    assert "check   : ok: consistency proofs that hold (the officers' verifier): 3" in out
    assert "check   : ok: the month's receipt book printed and signed" in out
