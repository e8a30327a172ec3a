"""The benches' migrated database (tests/support/bench_runner.py) is dropped at the session's end."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.bench_runner import drop_template


@pytest.fixture(scope="session", autouse=True)
def _bench_template() -> Iterator[None]:
    yield
    drop_template()
