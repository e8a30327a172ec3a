"""bench/portal.py, bench/page_weight.py and bench/registers.py at a tiny size: every page
served, every register printed, signed and reused as the bench says."""

from __future__ import annotations

import pytest

from tests.support.bench_runner import BENCH_WITH_DATABASE, drop_database, run_bench, suffix
from tests.support.ports import free_port

pytestmark = BENCH_WITH_DATABASE


def test_the_portal_bench_serves_every_page() -> None:
    out = run_bench(
        "portal.py",
        *("--clients", "2", "--seconds", "0.5", "--warmup", "0", "--workers", "1"),
        *("--extra-shoes", "2", "--port", str(free_port())),
        seeded=True,
    )
    assert "check   : ok: hand logs added: 2" in out


def test_the_page_weight_bench_weighs_every_page() -> None:
    out = run_bench("page_weight.py", seeded=True)
    assert "check   : ok: portal: dashboard: its static files fetched" in out


@pytest.mark.celery_worker
def test_the_registers_bench_prints_signs_and_reuses_its_parts() -> None:
    try:
        out = run_bench("registers.py", "--rows", "12", "--workers", "1", "--months", "6", seeded=True)
    finally:
        drop_database("bench_registers" + suffix())
    assert "check   : ok: second print, nothing changed: parts made again: 0" in out
    assert "check   : ok: print after one correction in June: parts made again (June's): 1" in out
