"""Each bench checks its own work before its figures count.

A bench states what it must have done (rows stored, replays made, events sealed,
pages served) with :func:`expect`; each check is printed, and at the end
:func:`finish` exits with status 1 when any fell short, so that a figure is never
printed for work that was not done (a run whose uploads were all refused is a
failed run, not a fast one). The tests of ``tests/benches/`` run every bench at a tiny
size and fail when one exits non-zero.
"""

from __future__ import annotations

import os
import sys
from typing import Any

_FAILED: list[str] = []


def expect(ok: bool, what: str) -> bool:
    """Record and print one check of the bench's own work; ``what`` says what was expected."""
    print(f"check   : {'ok' if ok else 'FAILED'}: {what}", flush=True)
    if not ok:
        _FAILED.append(what)
    return ok


def expect_equal(got: object, wanted: object, what: str) -> bool:
    """``what`` came out as ``wanted`` (both printed when it did not)."""
    return expect(got == wanted, f"{what}: {got}" + ("" if got == wanted else f", expected {wanted}"))


def failed() -> list[str]:
    return list(_FAILED)


def finish() -> None:
    """Exit non-zero when any check fell short (the figures above do not count then)."""
    if _FAILED:
        print(
            f"bench FAILED: {len(_FAILED)} check(s) fell short, the figures above do not count: "
            + "; ".join(_FAILED),
            file=sys.stderr,
            flush=True,
        )
        raise SystemExit(1)


def database_name(default: str) -> str:
    """The bench's own database: ``default``, or with ``BENCH_DB_SUFFIX`` appended (so that two
    runs on one server, such as the benches' test beside a real run, never drop each other's)."""
    return default + os.environ.get("BENCH_DB_SUFFIX", "")


def create_database(conn: Any, name: str, *, seeded: bool = False) -> None:
    """Create the bench's database ``name`` (``conn``: a psycopg connection to the server, in
    autocommit). With ``BENCH_DB_TEMPLATE`` (a database already migrated, as the benches' tests
    make one per run), it is created as a copy of that one: the bench's ``migrate`` then finds
    nothing (or only its own apps) to apply, instead of migrating an empty database. A bench
    that then seeds the demo (``seed_demo --if-empty``, the test settings) says ``seeded``: with
    ``BENCH_DB_TEMPLATE_SEEDED`` (the same, the demo seeded in it) its seeding finds it done."""
    template = (seeded and os.environ.get("BENCH_DB_TEMPLATE_SEEDED")) or os.environ.get("BENCH_DB_TEMPLATE")
    conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))


def load() -> str:
    """The machine's load average (1, 5, 15 min), printed with every figure taken on it."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())
