"""Where the CPU of an audited save goes: client and server, and the sealer's share.

    python bench/profile_save.py [--saves 2000] [--top 12]

One writer, in its own database (``bench_profile``, dropped at the end). For a plain
save (a row in its own transaction), the same save audited in each sealing mode, and
the sealer's pass over the events the sealer-mode saves left: the CPU time per save of
this process (the client: Django, the record's JSON, MAC) and of its PostgreSQL backend
(the server: parse, plan, insert, index, WAL, commit), read from /proc (the server must
be on this machine). CPU time, not wall time: a busy machine disturbs it much less.
Then the Python profile (cProfile) of the audited save and of a sealing pass, the top
``--top`` functions by their own time, and EXPLAIN (ANALYZE, BUFFERS, WAL) of the
record's INSERT and of the seal's UPDATE.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.checks import create_database, database_name, expect_equal, finish, load

BASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
SERVER_URL = BASE_URL.rsplit("/", 1)[0]
DB_NAME = database_name("bench_profile")
TICK = os.sysconf("SC_CLK_TCK")


def _database(create: bool) -> None:
    import psycopg

    with psycopg.connect(f"{SERVER_URL}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        if create:
            create_database(conn, DB_NAME)


def _backend_cpu(pid: int) -> float:
    """Seconds of CPU the PostgreSQL backend ``pid`` has used (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def _backend_pid() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def cpu_per_call(fn, n: int) -> tuple[float, float, float]:
    """(client CPU, server CPU, wall) in seconds per call of ``fn``, over ``n`` calls."""
    pid = _backend_pid()
    c0, s0, w0 = time.process_time(), _backend_cpu(pid), time.perf_counter()
    for _ in range(n):
        fn()
    c1, s1, w1 = time.process_time(), _backend_cpu(pid), time.perf_counter()
    return (c1 - c0) / n, (s1 - s0) / n, (w1 - w0) / n


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--saves", type=int, default=2000)
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    _database(create=True)
    os.environ["DATABASE_URL"] = f"{SERVER_URL}/{DB_NAME}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.DATABASES["default"]["CONN_MAX_AGE"] = None
    call_command("migrate", verbosity=0)
    try:
        run(args, settings)
    finally:
        from django.db import connections

        connections.close_all()
        _database(create=False)
    finish()


def run(args: argparse.Namespace, settings) -> None:
    from django.contrib.auth.models import Group
    from django.db import connection, transaction

    import audit
    from audit.actions import Action
    from audit.chain import seal_pending, sealing
    from audit.models import AuditEvent

    payload = {
        "serial": "SN000000001",
        "table_no": 7,
        "amount": "512.50",
        "currency": "EUR",
        "note": "advance",
    }

    def plain() -> None:
        with transaction.atomic():
            Group.objects.create(name=f"p{uuid.uuid4().hex}")

    def audited() -> None:
        with transaction.atomic():
            group = Group.objects.create(name=f"a{uuid.uuid4().hex}")
            audit.record(actor=None, action=Action.TABLE_CREATED, obj=group, payload=payload)

    n = args.saves
    print(f"PostgreSQL {connection.pg_version // 10000}, one writer, {n} saves each; load average {load()}")
    print("   | what | client CPU µs | server CPU µs | together µs | wall µs |")
    print("   |---|---|---|---|---|")

    def line(label: str, figures: tuple[float, float, float]) -> None:
        c, s, w = figures
        print(f"   | {label} | {c * 1e6:,.0f} | {s * 1e6:,.0f} | {(c + s) * 1e6:,.0f} | {w * 1e6:,.0f} |")

    for warm in (plain, audited):
        for _ in range(50):
            warm()
    seal_pending()
    line("plain save", cpu_per_call(plain, n))
    sealing.use("inline")
    line("audited save, sealing inline", cpu_per_call(audited, n))
    sealing.use("sealer")
    line("audited save, sealing sealer (the save)", cpu_per_call(audited, n))
    pending = AuditEvent.objects.filter(seq__isnull=True).count()
    c, s, w = cpu_per_call(seal_pending, 1)
    line(f"the sealer's pass, per event ({pending} events)", (c / pending, s / pending, w / pending))
    expect_equal(AuditEvent.objects.filter(seq__isnull=True).count(), 0, "events left unsealed")
    from audit.chain import run_sealer
    from audit.chain.seal import SEALER_INTERVAL

    until = time.monotonic() + 3.0
    passes = [0]

    def count_pass() -> None:
        passes[0] += 1

    pid = _backend_pid()
    c0, s0 = time.process_time(), _backend_cpu(pid)
    run_sealer(lambda: time.monotonic() > until, between_passes=count_pass)
    c, s = time.process_time() - c0, _backend_cpu(pid) - s0
    line(
        f"the sealer idle, per pass ({passes[0]} passes in 3 s, interval {SEALER_INTERVAL} s)",
        (c / passes[0], s / passes[0], 3.0 / passes[0]),
    )

    def profile(label: str, fn, calls: int) -> None:
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(calls):
            fn()
        profiler.disable()
        print(f"\n{label}: the top {args.top} functions by own time ({calls} calls)")
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime")
        rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[: args.top]
        total = sum(v[2] for v in stats.stats.values())
        for (filename, lineno, name), (_cc, ncalls, tottime, _cum, _callers) in rows:
            where = f"{Path(filename).name}:{lineno}" if lineno else filename
            print(
                f"   {tottime / calls * 1e6:7.1f} µs/call {100 * tottime / total:5.1f} %  {name} ({where}) "
                f"x{ncalls // calls}"
            )

    sealing.use("sealer")
    profile("audited save, sealer mode (the writer's process)", audited, min(n, 1000))
    profile("sealing pass (the sealer's process), per pass of 1000 events", seal_pending, 1)

    print("\nEXPLAIN (ANALYZE, BUFFERS, WAL) of the record's INSERT and of the seal's UPDATE (one event)")
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "EXPLAIN (ANALYZE, BUFFERS, WAL, COSTS OFF) INSERT INTO audit_event "
            "(recorded_at, actor_id, actor_name, action, object_type, object_id, payload, mac) "
            "VALUES (now(), NULL, 'system', 'table.created', 'auth.group', '1', %s, %s) RETURNING id",
            ['{"a":1}', "0" * 64],
        )
        for (row,) in cursor.fetchall():
            print(f"   {row}")
        cursor.execute("SELECT max(id) FROM audit_event")
        event_id = cursor.fetchone()[0]
        cursor.execute("SELECT max(seq) FROM audit_event")
        seq = cursor.fetchone()[0]
        cursor.execute(
            "EXPLAIN (ANALYZE, BUFFERS, WAL, COSTS OFF) UPDATE audit_event SET seq = %s, prev_hash = %s, "
            "hash = %s, sealed_at = now() WHERE id = %s AND seq IS NULL",
            [seq + 1, "0" * 64, "1" * 64, event_id],
        )
        for (row,) in cursor.fetchall():
            print(f"   {row}")
        transaction.set_rollback(True)


if __name__ == "__main__":
    main()
