"""verify_audit's chain in ranges, one process each (AUDIT_VERIFY_PROCESSES): the result is the
one pass's, sentence for sentence, whatever was tampered with and wherever (inside a range, at
the edge between two, several breaks), and the clock still checked across the edges."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import time_machine
from django.core.management import call_command
from django.db import connection, transaction

from audit.chain import verify as chain_verify
from audit.chain import verify_chain
from tests.support.guards import restore_event_guard
from tests.support.tampering import record_numbered_events

pytestmark = pytest.mark.django_db(transaction=True)


def _tamper(sql: str, params: Any = None) -> None:
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE audit_event DISABLE TRIGGER USER")
        try:
            cursor.execute(sql, params or [])
        finally:
            restore_event_guard(cursor)


@pytest.fixture
def ranged(settings: Any, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Ranges of 4 events; records what each ranged walk returned (None: it gave way to the one pass)."""
    settings.AUDIT_VERIFY_MIN_RANGE = 4
    walks: list[Any] = []
    real = chain_verify._walk_in_ranges

    def spy(*args: Any) -> Any:
        walks.append(real(*args))
        return walks[-1]

    monkeypatch.setattr(chain_verify, "_walk_in_ranges", spy)
    return walks


def _both() -> tuple[Any, Any]:
    one = verify_chain(checkpoints=False)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            cursor.execute("SELECT pg_export_snapshot()")
            snapshot = cursor.fetchone()[0]
        split = verify_chain(checkpoints=False, snapshot=snapshot, processes=3)
    return one, split


def _same(one: Any, split: Any) -> None:
    assert (split.events, split.head_seq, split.head_hash, split.broken_at, split.reason) == (
        one.events,
        one.head_seq,
        one.head_hash,
        one.broken_at,
        one.reason,
    )
    assert split.clock_problems == one.clock_problems


TAMPERS = {
    "intact": [],
    "a payload edited inside the second range": [
        "UPDATE audit_event SET payload = '{\"i\":0}' WHERE seq = 6"
    ],
    "the first event of a range deleted": ["DELETE FROM audit_event WHERE seq = 5"],
    "the last event of a range deleted": ["DELETE FROM audit_event WHERE seq = 4"],
    "a whole range deleted": ["DELETE FROM audit_event WHERE seq BETWEEN 5 AND 8"],
    "the newest events deleted": ["DELETE FROM audit_event WHERE seq > 10"],
    "the link at a range's edge rewritten": [
        "UPDATE audit_event SET prev_hash = repeat('f', 64) WHERE seq = 9"
    ],
    "two breaks, the later range's found first": [
        "UPDATE audit_event SET action = 'forged' WHERE seq = 11",
        "UPDATE audit_event SET payload = '{\"i\":9}' WHERE seq = 3",
    ],
    "an event's number moved out of order": ["UPDATE audit_event SET seq = 0 WHERE seq = 7"],
}


#: Where the one pass finds the chain broken (the newest events removed whole leave it unbroken:
#: the witness's window, verify_audit says it).
BROKEN_AT = {
    "": None,
    TAMPERS["a payload edited inside the second range"][0]: 6,
    TAMPERS["the first event of a range deleted"][0]: 5,
    TAMPERS["the last event of a range deleted"][0]: 4,
    TAMPERS["a whole range deleted"][0]: 5,
    TAMPERS["the newest events deleted"][0]: None,
    TAMPERS["the link at a range's edge rewritten"][0]: 9,
    TAMPERS["two breaks, the later range's found first"][0]: 3,
    TAMPERS["an event's number moved out of order"][0]: 1,
}


@pytest.mark.parametrize("sqls", TAMPERS.values(), ids=TAMPERS.keys())
def test_the_ranges_find_what_the_one_pass_finds(ranged: list[Any], sqls: list[str]) -> None:
    record_numbered_events(12)
    for sql in sqls:
        _tamper(sql)
    one, split = _both()
    _same(one, split)
    assert ranged and ranged[-1] is not None  # the ranges ran (3 processes), not the one pass
    assert one.broken_at == BROKEN_AT[sqls[0] if sqls else ""]


def test_a_clock_run_backwards_is_named_once_by_the_ranges_as_by_the_one_pass(ranged: list[Any]) -> None:
    start = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)
    with time_machine.travel(start, tick=False):
        record_numbered_events(5)
    with time_machine.travel(start - dt.timedelta(hours=2), tick=True):
        record_numbered_events(7)
    one, split = _both()
    # The sealer seals one alarm just after the first event behind (audit.clock_backwards): the
    # acts after it are measured from it, so the incident is named once, by either walk.
    assert one.broken_at is None and len(one.clock_problems) == 1
    _same(one, split)


def test_verify_audit_runs_the_ranges_and_says_ok(
    ranged: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    record_numbered_events(12)
    call_command("verify_audit", "--no-witness")
    assert "OK: 12 events" in capsys.readouterr().out
    assert ranged and ranged[-1] is not None
