"""The audit record against its peers, measured side by side in one run on PostgreSQL.

Contenders, each saving one object of an identical 6-field model in its own
transaction, with the acting user:

- a plain save (the reference);
- this project's audited save (``audit.record`` with the row's content), sealing
  ``inline`` and in ``sealer`` mode (a sealer process running, as ``audit_sealer``);
- django-pghistory (triggers; the user attached with ``pghistory.context``);
- django-simple-history (a historical row; the user set on the instance);
- django-auditlog (a log entry; the user set with ``auditlog.context.set_actor``).

Prints, for one writer, µs per save and the ratio to plain: the contenders take
turns in blocks of a few saves (the sealer running throughout), and each block's
time is compared with plain's block of the same turn, so that a machine whose speed
drifts (a shared host) weighs on every contender alike (median over the blocks);
for N writer processes, the throughput as a share of plain's in the same round
(median and range over alternated rounds). Commits are durable
(``synchronous_commit`` on). The peers' apps are installed only by the bench's
settings (bench.peer_models.settings), never by the project's.

Usage: python bench/peers.py [--saves 2000] [--block 10] [--writers 8] [--seconds 5]
       [--concurrent-rounds 3]
bench/audit.py runs it after its own figures (``--no-peers`` to skip). It creates
(and drops at the end) its own database ``<BENCH_AUDIT_DB>_peers`` (default
``bench_audit_peers``) on the server named by DATABASE_URL.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit.actions import Action  # noqa: E402  (the project, once on the path)
from bench.checks import create_database, database_name, expect, expect_equal, finish  # noqa: E402

BASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
SERVER_URL = BASE_URL.rsplit("/", 1)[0]
DB_NAME = (os.environ.get("BENCH_AUDIT_DB") or database_name("bench_audit")) + "_peers"
SETTINGS = "bench.peer_models.settings"
SEALER: dict[str, float] = {}  # run_sealer's options (--sealer-interval)

LABELS = {
    "plain": "plain save",
    "inline": "this project, AUDIT_SEALING=inline (SQLite's default)",
    "sealer": "this project, default on PostgreSQL: sealer mode (audit_sealer running)",
    "pghistory": "django-pghistory (trigger, with the acting user)",
    "simple_history": "django-simple-history",
    "auditlog": "django-auditlog",
}


def run_after_audit(args: argparse.Namespace) -> None:
    """Called by bench/audit.py: the same measurement in a process of its own (the
    peers' apps need their own settings)."""
    env = {
        **os.environ,
        "DATABASE_URL": BASE_URL.rsplit("/", 1)[0] + "/postgres",
        "DJANGO_SETTINGS_MODULE": SETTINGS,
    }
    command = [sys.executable, str(Path(__file__).resolve())]
    command += ["--saves", str(args.saves), "--writers", str(args.writers), "--seconds", str(args.seconds)]
    command += ["--concurrent-rounds", str(args.rounds)]
    if args.sealer_interval is not None:
        command += ["--sealer-interval", str(args.sealer_interval)]
    sys.stdout.flush()
    subprocess.run(command, env=env, check=True, cwd=ROOT)


def _database(create: bool) -> None:
    import psycopg

    with psycopg.connect(f"{SERVER_URL}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        if create:
            create_database(conn, DB_NAME)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--saves", type=int, default=2000, help="saves per contender per round (one writer)")
    parser.add_argument("--block", type=int, default=10, help="saves per contender per turn, one writer")
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0, help="duration of each concurrent run")
    parser.add_argument(
        "--concurrent-rounds", type=int, default=3, help="alternated rounds, concurrent writers"
    )
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated contenders to measure (plain always): " + ", ".join(LABELS),
    )
    parser.add_argument(
        "--sealer-interval", type=float, help="the sealer's interval (default: the command's)"
    )
    args = parser.parse_args()
    if args.sealer_interval is not None:
        SEALER["interval"] = args.sealer_interval

    _database(create=True)
    os.environ["DATABASE_URL"] = f"{SERVER_URL}/{DB_NAME}"
    os.environ["DJANGO_SETTINGS_MODULE"] = SETTINGS
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    try:
        run(args)
    finally:
        from django.db import connections

        connections.close_all()
        _database(create=False)
    finish()


def _contenders() -> dict[str, Callable[[], None]]:
    import pghistory
    from auditlog.context import set_actor
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    import audit
    from bench.peer_models.models import AuditedThing, AuditlogThing, PghThing, PlainThing, SimpleThing

    user = get_user_model().objects.create_user(username="bench-dealer", password=None)
    counter = itertools.count(1)

    def fields() -> dict:
        n = next(counter)
        return {
            "serial": f"SN{os.getpid()}-{n:09d}",
            "table_no": n % 30,
            "amount": Decimal(f"{n % 997}.50"),
            "currency": "EUR",
            "note": "advance to the table's float",
            "at": timezone.now(),
        }

    def plain() -> None:
        with transaction.atomic():
            PlainThing.objects.create(**fields())

    def audited() -> None:
        with transaction.atomic():
            thing = AuditedThing.objects.create(**fields())
            payload = {
                "serial": thing.serial,
                "table_no": thing.table_no,
                "amount": str(thing.amount),
                "currency": thing.currency,
                "note": thing.note,
                "at": thing.at.isoformat(),
            }
            audit.record(actor=user, action=Action.TABLE_CREATED, obj=thing, payload=payload)

    def pgh() -> None:
        with transaction.atomic(), pghistory.context(user=user.pk):
            PghThing.objects.create(**fields())

    def simple() -> None:
        with transaction.atomic():
            thing = SimpleThing(**fields())
            thing._history_user = user
            thing.save()

    def auditlog() -> None:
        with transaction.atomic(), set_actor(user):
            AuditlogThing.objects.create(**fields())

    return {
        "plain": plain,
        "inline": audited,
        "sealer": audited,
        "pghistory": pgh,
        "simple_history": simple,
        "auditlog": auditlog,
    }


@contextlib.contextmanager
def _sealer(active: bool) -> Iterator[None]:
    """A sealer process (as the audit_sealer command) while the block runs."""
    from django.db import connections

    from audit.chain import run_sealer

    if not active:
        yield
        return
    ctx = multiprocessing.get_context("fork")
    stop = ctx.Event()

    def sealing() -> None:
        run_sealer(stop.is_set, **SEALER)  # as the audit_sealer command runs it
        connections.close_all()

    connections.close_all()  # never share a connection across fork
    process = ctx.Process(target=sealing)
    process.start()
    try:
        yield
    finally:
        stop.set()
        process.join()


def _one_writer(
    contenders: dict[str, Callable[[], None]], names: list[str], saves: int, block: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Seconds per save of each contender, block by block, taking turns (the order
    rotating at each turn), the sealer running throughout; and each block's ratio
    to plain's block of the same turn."""

    from audit.chain import seal_pending, sealing

    times: dict[str, list[float]] = {name: [] for name in names}
    with _sealer("sealer" in names):
        for name in names:  # warm up
            sealing.use("sealer" if name == "sealer" else "inline")
            for _ in range(20):
                contenders[name]()
        for turn in range(max(1, saves // block)):
            shift = turn % len(names)
            for name in names[shift:] + names[:shift]:
                sealing.use("sealer" if name == "sealer" else "inline")
                if name == "inline":
                    seal_pending()  # the sealer's backlog is not inline's to seal
                fn = contenders[name]
                started = time.perf_counter()
                for _ in range(block):
                    fn()
                times[name].append((time.perf_counter() - started) / block)
    ratios = {name: [t / p for t, p in zip(times[name], times["plain"], strict=True)] for name in names}
    return times, ratios


def _concurrent(
    fn: Callable[[], None], writers: int, seconds: float, drain: Callable[[], object] | None = None
) -> float:
    """Saves per second of `writers` processes (as gunicorn workers are) for `seconds`.

    ``drain``: work the run left behind (the events still to seal when the writers
    stop), done at once and its time added to the run's: the rate is sustained."""
    from django.db import connections

    ctx = multiprocessing.get_context("fork")
    stop = ctx.Event()
    counts = ctx.Array("l", writers)
    start_line = ctx.Barrier(writers + 1)

    def writer(i: int) -> None:
        fn()  # connect before the start
        start_line.wait()
        n = 0
        while not stop.is_set():
            fn()
            n += 1
        counts[i] = n
        connections.close_all()

    connections.close_all()
    procs = [ctx.Process(target=writer, args=(i,)) for i in range(writers)]
    for p in procs:
        p.start()
    start_line.wait()
    time.sleep(seconds)
    stop.set()
    for p in procs:
        p.join()
    elapsed = seconds
    if drain is not None:
        started = time.perf_counter()
        drain()
        elapsed += time.perf_counter() - started
    return sum(counts) / elapsed


def run(args: argparse.Namespace) -> None:
    from django.db import connection

    from audit.chain import seal_pending, sealing, verify_chain

    contenders = _contenders()
    only = {"plain", *filter(None, args.only.split(","))}
    names = [name for name in contenders if len(only) == 1 or name in only]
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        sync = cursor.fetchone()[0]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\nThe peers, side by side (database {DB_NAME}, synchronous_commit={sync}, load average {load})")
    print(
        f"   one writer: {args.saves} saves per contender, in turns of {args.block} saves each "
        "(paired with plain's)"
    )

    def measure(name: str, fn: Callable[[], float]) -> float:
        sealing.use("sealer" if name == "sealer" else "inline")
        with _sealer(name == "sealer"):
            value = fn()
        seal_pending()
        return value

    single, paired = _one_writer(contenders, names, args.saves, args.block)
    seal_pending()

    print(
        f"   {args.writers} writers: {args.seconds:.0f} s per contender in each of {args.concurrent_rounds} "
        "alternated rounds"
    )
    shares: dict[str, list[float]] = {name: [] for name in names}
    rates: dict[str, list[float]] = {name: [] for name in names}
    for r in range(args.concurrent_rounds):
        in_round = {}
        for name in names[r % len(names) :] + names[: r % len(names)]:
            drain = seal_pending if name == "sealer" else None
            in_round[name] = measure(
                name,
                lambda name=name, drain=drain: _concurrent(
                    contenders[name], args.writers, args.seconds, drain
                ),
            )
        for name in names:
            rates[name].append(in_round[name])
            shares[name].append(in_round[name] / in_round["plain"])

    print(
        f"\n   | contender | one writer, µs/op (× plain) | {args.writers} writers, saves/s | share of plain |"
    )
    print("   |---|---|---|---|")
    for name in names:
        us, ratio = statistics.median(single[name]), statistics.median(paired[name])
        low, high = min(shares[name]), max(shares[name])
        spread = f"{statistics.median(shares[name]):.2f}" + (
            f" ({low:.2f}–{high:.2f})" if len(shares[name]) > 1 else ""
        )
        print(
            f"   | {LABELS[name]} | {us * 1e6:,.0f} ({ratio:.2f}) | "
            f"{statistics.median(rates[name]):,.0f} | {spread} |"
        )
    _check_records(single, rates)
    result = verify_chain()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"   chain after the runs: {result.events} events, unbroken={result.chain_ok}, unsealed={result.pending}; "
        f"load average {load}"
    )
    for problem in [*result.forged, *result.checkpoint_problems]:
        print(f"   PROBLEM: {problem}")
    expect(
        result.chain_ok and result.pending == 0 and not result.forged,
        "the chain unbroken, every event sealed",
    )


def _check_records(single: dict, rates: dict) -> None:
    """Each peer really recorded every save, with the acting user."""
    from auditlog.models import LogEntry

    from bench.peer_models.models import AuditlogThing, PghThing, PghThingEvent, SimpleThing

    pgh = PghThingEvent.objects.filter(pgh_context__metadata__user__isnull=False).count()
    simple = SimpleThing.history.filter(history_user__isnull=False).count()
    log = LogEntry.objects.filter(actor__isnull=False).count()
    print(
        f"   records with the acting user: pghistory {pgh:,} of {PghThing.objects.count():,} saves, "
        f"simple-history {simple:,} of {SimpleThing.objects.count():,}, "
        f"auditlog {log:,} of {AuditlogThing.objects.count():,}"
    )
    from audit.models import AuditEvent
    from bench.peer_models.models import AuditedThing

    expect_equal(pgh, PghThing.objects.count(), "pghistory: records with the acting user")
    expect_equal(simple, SimpleThing.objects.count(), "simple-history: records with the acting user")
    expect_equal(log, AuditlogThing.objects.count(), "auditlog: records with the acting user")
    expect_equal(
        AuditEvent.objects.filter(action=Action.TABLE_CREATED, seq__isnull=False).count(),
        AuditedThing.objects.count(),
        "this project: sealed events of the audited saves",
    )


if __name__ == "__main__":
    main()
