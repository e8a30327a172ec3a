"""bench/ingest.py at a tiny size: every hand log posted is stored, replayed by a real worker and
sealed (its logs were once all refused, and it still printed a throughput); bench/profile_ingest.py
posts and replays every log it profiles."""

from __future__ import annotations

import pytest

from tests.support.bench_runner import BENCH_WITH_DATABASE, run_bench

pytestmark = BENCH_WITH_DATABASE


@pytest.mark.celery_worker
def test_the_ingest_bench_stores_and_replays_every_log() -> None:
    out = run_bench(
        "ingest.py", "--tables", "2", "--hours", "1", "--rate", "20", "--workers", "1", "--clients", "1"
    )
    assert "check   : ok: hand logs refused by the API: 0" in out
    assert "check   : ok: hand logs stored: " in out and "check   : ok: replays stored: " in out
    assert "check   : ok: events left unsealed: 0" in out


def test_the_ingest_profile_posts_and_replays_every_log() -> None:
    out = run_bench("profile_ingest.py", "--tables", "2", "--hours", "1", "--rate", "20", "--top", "3")
    assert "check   : ok: hand logs stored: 4" in out and "check   : ok: replays stored: 4" in out
    assert "| API (POST) |" in out and "| worker (replay) |" in out


def test_the_ingest_profile_posts_batches_and_replays_every_log() -> None:
    out = run_bench(
        "profile_ingest.py", "--tables", "2", "--hours", "1", "--rate", "20", "--top", "3", "--batch", "2"
    )
    assert "2 log(s) a request" in out
    assert "check   : ok: hand logs stored: 4" in out and "check   : ok: replays stored: 4" in out
