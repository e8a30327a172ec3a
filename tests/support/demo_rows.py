"""The demo casino (``seed_demo``), seeded once and copied into each test that wants it.

Seeding takes seconds; copying its rows takes a fraction of that. :func:`seed` runs
``seed_demo`` in a transaction of its own (a thread of its own, so on its own connection: it
sees the test database as committed, whatever the current test has written), reads back
(``COPY … TO STDOUT``) every row it added, and rolls them back. :func:`load` writes those rows
into the current test's transaction (``COPY … FROM STDIN``): the test sees the database as
``seed_demo`` would have left it, and its rollback (or a transactional test's flush) takes the
rows away again.

The demo's rows point at rows made before it (content types, permissions, the roles' groups).
A transactional test's flush makes those again under new keys: :func:`load` then finds the
rows the demo was seeded on changed, and seeds it again.

The audit record's events are written as the chain writes them: inserted unsealed, then
sealed by the one update its guard lets through; no guard is lifted.

A demo belongs to the day it was seeded in: its "today" is the gaming day then (the roll-over
at 06:00) and its books are dated from the calendar day. A run that goes on past midnight or
past the roll-over would otherwise test the demo of an earlier day against the day now (its
séances "past their gaming day", its day "never closed"): a demo seeded across one of those
turns is seeded again, and a demo seeded before the last turn is not used (:func:`loaded`).

Under pytest-xdist the workers share what was seeded: the first worker to want a profile seeds
it and leaves it in the run's temporary directory (:data:`SHARED`); the others, waiting on its
lock meanwhile, read it there, and use it when the rows it was seeded on are their database's
too (each worker's database is migrated from the same code, so they are); else they seed it
themselves.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import hashlib
import io
import os
import pickle
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EVENTS = "audit_event"
MIGRATIONS = "django_migrations"
SEAL = ("seq", "prev_hash", "hash", "sealed_at")


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    pk: str | None  # the integer key whose sequence is moved past the rows, else None
    rows: bytes  # COPY's text format, one row a line


@dataclass(frozen=True)
class Demo:
    profile: str
    output: str  # what seed_demo printed
    base: str  # digest of the rows that were there before the demo
    base_tables: tuple[str, ...]
    tables: tuple[Table, ...]
    day: tuple[dt.date, dt.date]  # the days it was seeded in (:func:`day_now`)


def day_now() -> tuple[dt.date, dt.date]:
    """The days the demo's dates come from: the calendar day and the gaming day (the demo's
    roll-over, 06:00), both in the casino's time zone."""
    from django.utils import timezone

    from casino_ops import clock

    return timezone.localdate(), clock.gaming_date(timezone.now())


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _columns(cursor: Any, table: str) -> tuple[str, ...]:
    cursor.execute(
        "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0"
        " AND NOT attisdropped ORDER BY attnum",
        [_quote(table)],
    )
    return tuple(row[0] for row in cursor.fetchall())


def _key(cursor: Any, table: str) -> str | None:
    """The table's one-column primary key when a sequence (serial or identity) feeds it."""
    cursor.execute(
        "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
        " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = %s::regclass AND i.indisprimary",
        [_quote(table)],
    )
    keys = [row[0] for row in cursor.fetchall()]
    if len(keys) != 1:
        return None
    cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [_quote(table), keys[0]])
    return keys[0] if cursor.fetchone()[0] else None


def _rows(cursor: Any, table: str) -> list[bytes]:
    """The table's rows as COPY lines, in a stable order."""
    buffer = io.BytesIO()
    with cursor.copy(f"COPY (SELECT * FROM {_quote(table)} ORDER BY 1) TO STDOUT") as copy:
        for data in copy:
            buffer.write(data)
    return buffer.getvalue().splitlines(keepends=True)


def _tables(connection: Any) -> list[str]:
    with connection.cursor() as cursor:
        return sorted(connection.introspection.table_names(cursor, include_views=False))


def _digest(connection: Any, tables: tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    with connection.connection.cursor() as cursor:
        for table in tables:
            digest.update(table.encode() + b"\0")
            for line in _rows(cursor, table):
                digest.update(line)
    return digest.hexdigest()


def _seed_here(profile: str) -> Demo:
    from django.core.management import call_command
    from django.db import connection, transaction

    out = io.StringIO()
    connection.ensure_connection()
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '30s'")  # a row the current test holds
        tables = _tables(connection)
        with connection.connection.cursor() as cursor:
            before = {table: _rows(cursor, table) for table in tables}
        call_command("seed_demo", profile=profile, stdout=out)
        made = []
        with connection.connection.cursor() as cursor:
            for table in tables:
                old = set(before[table])
                lines = _rows(cursor, table)
                if not old <= set(lines):
                    changed = sorted(old - set(lines))[:3]
                    raise AssertionError(f"seed_demo changed rows of {table} made before it: {changed}")
                new = [line for line in lines if line not in old]
                if new:
                    made.append(Table(table, _columns(cursor, table), _key(cursor, table), b"".join(new)))
        # the rows the demo's may point at; not migrate's log, whose times differ per database
        base_tables = tuple(table for table in tables if before[table] and table != MIGRATIONS)
        base = _digest(connection, base_tables)  # before the rollback: the same rows as before
        transaction.set_rollback(True)
    return Demo(
        profile=profile,
        output=out.getvalue(),
        base=base,
        base_tables=base_tables,
        tables=tuple(made),
        day=day_now(),
    )


def seed(profile: str) -> Demo:
    """``seed_demo --profile <profile>`` on the test database as committed, read back, rolled
    back; seeded again when a day turned while it was seeded (a few seconds: the second one
    starts after the turn and ends long before the next)."""
    while True:
        day = day_now()
        demo = _seed_once(profile)  # dated the day its seeding ended in
        if demo.day == day:
            return demo


def _seed_once(profile: str) -> Demo:
    from django.db import connections

    result: list[Demo] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(_seed_here(profile))
        except BaseException as error:  # handed to the test
            failure.append(error)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, name=f"seed_demo {profile}")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]


def current(demo: Demo) -> bool:
    """The rows ``demo`` was seeded on are still those of the database."""
    from django.db import connection

    connection.ensure_connection()
    return _digest(connection, demo.base_tables) == demo.base


def load(demo: Demo) -> None:
    """The demo's rows written into the current test's transaction, each table's sequence
    moved past them (as seeding would have)."""
    from django.db import connection, transaction

    with transaction.atomic():
        with connection.connection.cursor() as cursor:
            for table in demo.tables:
                columns = ", ".join(_quote(c) for c in table.columns)
                if table.name != EVENTS:
                    with cursor.copy(f"COPY {_quote(table.name)} ({columns}) FROM STDIN") as copy:
                        copy.write(table.rows)
                    continue
                # inserted unsealed, then sealed: the chain's own two steps
                cursor.execute(f"CREATE TEMP TABLE demo_events (LIKE {EVENTS}) ON COMMIT DROP")
                with cursor.copy(f"COPY demo_events ({columns}) FROM STDIN") as copy:
                    copy.write(table.rows)
                unsealed = ", ".join("NULL" if c in SEAL else _quote(c) for c in table.columns)
                cursor.execute(f"INSERT INTO {EVENTS} ({columns}) SELECT {unsealed} FROM demo_events")
                seal = ", ".join(f"{_quote(c)} = d.{_quote(c)}" for c in SEAL)
                cursor.execute(f"UPDATE {EVENTS} e SET {seal} FROM demo_events d WHERE e.id = d.id")
                cursor.execute("DROP TABLE demo_events")
            for table in demo.tables:
                if table.pk:
                    cursor.execute(
                        f"SELECT setval(pg_get_serial_sequence(%s, %s), (SELECT max({_quote(table.pk)})"
                        f" FROM {_quote(table.name)}))",
                        [_quote(table.name), table.pk],
                    )


_seeded: dict[str, Demo] = {}
# The directory the workers of one run share (set by the root conftest under pytest-xdist).
SHARED: Path | None = None


def _shared_or_seeded(profile: str) -> Demo:
    """The demo another worker of this run seeded, when it was seeded on the rows this
    database holds; else seeded here, and left for the others."""
    if SHARED is None:
        return seed(profile)
    SHARED.mkdir(parents=True, exist_ok=True)
    kept = SHARED / f"{profile}.pickle"
    with (SHARED / f"{profile}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker seeding it: wait for its rows
        if kept.exists():
            demo: Demo = pickle.loads(kept.read_bytes())
            if demo.day == day_now() and current(demo):
                return demo
        demo = seed(profile)
        partial = kept.with_suffix(f".{os.getpid()}")
        partial.write_bytes(pickle.dumps(demo))
        partial.replace(kept)
        return demo


def loaded(profile: str) -> Demo:
    """The demo of ``profile`` written into the current transaction (seeded when not yet, when
    a day turned since it was seeded, or when the rows it was seeded on have changed): for a
    fixture, or a module's data with :func:`tests.support.builders.kept_for_module`."""
    demo = _seeded.get(profile)
    if demo is None or demo.day != day_now() or not current(demo):
        demo = _seeded[profile] = _shared_or_seeded(profile)
    load(demo)
    return demo
