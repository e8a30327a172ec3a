"""Benchmark of the audit record on PostgreSQL.

Prints:
1. the cost of an audited save against the same save without the record (one
   writer), for both sealing modes (``inline``: sealed in the act's transaction;
   ``sealer``: sealed just after commit by the sealer);
2. the throughput of 8 concurrent writers, audited against plain, both modes,
   with the longest an event waited to be sealed in ``sealer`` mode (the events
   still unsealed when the writers stop are sealed at once and that time counted);
3. ``verify_audit``'s speed in events per second over 1,000,000 events (each
   event's hash and MAC recomputed), then end to end with the books check: each
   event carries the row of one deck (audit.books), and every row of every book
   is compared with what the chain says it holds;
4. a signed checkpoint over them (Merkle tree head, stored subtree hashes), then
   the time to generate one inclusion proof and one consistency proof (RFC 9162).

Usage: python bench/audit.py [--saves 2000] [--events 1000000] [--writers 8]
It creates (and drops at the end) its own database ``bench_audit`` (or
BENCH_AUDIT_DB) on the server named by DATABASE_URL (default: postgres on 127.0.0.1).
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# before any of the project's modules: importing casino_ops names its production settings
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

from audit.actions import Action
from bench.checks import create_database, database_name, expect, expect_equal, finish, load

BASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
SERVER_URL = BASE_URL.rsplit("/", 1)[0]
DB_NAME = os.environ.get("BENCH_AUDIT_DB") or database_name("bench_audit")
SEALER: dict[str, float] = {}  # run_sealer's options (--sealer-interval)


def _recreate_database() -> None:
    import psycopg

    with psycopg.connect(f"{SERVER_URL}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        create_database(conn, DB_NAME)


def _drop_database() -> None:
    import psycopg

    with psycopg.connect(f"{SERVER_URL}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--saves", type=int, default=2000, help="saves per measurement (one writer)")
    parser.add_argument("--events", type=int, default=1_000_000, help="events for the verification")
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0, help="duration of each concurrent run")
    parser.add_argument("--rounds", type=int, default=5, help="alternated rounds of the concurrent runs")
    parser.add_argument(
        "--sealer-interval", type=float, help="the sealer's interval (default: the command's)"
    )
    parser.add_argument(
        "--peers", action=argparse.BooleanOptionalAction, default=True, help="then the peers (bench/peers.py)"
    )
    args = parser.parse_args()
    if args.sealer_interval is not None:
        SEALER["interval"] = args.sealer_interval

    _recreate_database()
    os.environ["DATABASE_URL"] = f"{SERVER_URL}/{DB_NAME}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.DATABASES["default"]["CONN_MAX_AGE"] = None
    settings.AUDIT_WITNESS_DIR = ""  # the bench's checkpoints are witnessed in its own directory (part 4)
    call_command("migrate", verbosity=0)
    try:
        run(args, settings)
    finally:
        from django.db import connections

        connections.close_all()
        _drop_database()
    if args.peers:  # pghistory, simple-history and auditlog in the same run (it checks its own work)
        from bench.peers import run_after_audit

        run_after_audit(args)
    finish()


def run(args: argparse.Namespace, settings) -> None:
    from django.contrib.auth.models import Group
    from django.db import connection, transaction

    import audit
    from audit.chain import seal_pending, sealing, verify_chain

    def next_name(prefix: str) -> str:  # audited saves' names begin with "a", plain ones' with "p"
        return f"{prefix}{uuid.uuid4().hex}"

    def plain_save() -> None:
        with transaction.atomic():
            Group.objects.create(name=next_name("p"))

    def audited_save() -> None:
        with transaction.atomic():
            group = Group.objects.create(name=next_name("a"))
            audit.record(actor=None, action=Action.TABLE_CREATED, obj=group, payload={"name": group.name})

    from bench.peers import _one_writer

    print(f"PostgreSQL {connection.pg_version // 10000}, database {DB_NAME}")
    print(
        "\n1. One writer: cost of one save in its own transaction (the three take turns of 10 saves, "
        "the sealer running; ratio: median of each turn's to plain's)"
    )
    names = ["plain", "inline", "sealer"]
    times, ratios = _one_writer(
        {"plain": plain_save, "inline": audited_save, "sealer": audited_save}, names, args.saves, 10
    )
    seal_pending()
    print(f"   plain save                      {statistics.median(times['plain']) * 1e3:7.3f} ms")
    for mode in ("inline", "sealer"):
        print(
            f"   audited save, sealing {mode:<7}   {statistics.median(times[mode]) * 1e3:7.3f} ms   "
            f"ratio {statistics.median(ratios[mode]):4.2f}x"
            + ("   (the default on PostgreSQL)" if mode == "sealer" else "")
        )

    print(
        f"\n2. {args.writers} concurrent writers for {args.seconds:.0f} s each, {args.rounds} alternated rounds "
        f"(load average {load()}); CPU per save: the writers' processes (client) and their PostgreSQL "
        "backends (server), the sealer's process and backend counted with the audited saves"
    )
    modes = ["plain", "inline", "sealer"]
    figures: dict[str, list[dict]] = {mode: [] for mode in modes}
    for r in range(args.rounds):
        for mode in modes[r % 3 :] + modes[: r % 3]:
            sealing.use("sealer" if mode == "plain" else mode)
            fn = plain_save if mode == "plain" else audited_save
            figures[mode].append(_concurrent(args, fn, sealer=mode == "sealer"))
    plain_rates = [f["rate"] for f in figures["plain"]]
    for mode in modes:
        runs = figures[mode]
        shares = [f["rate"] / p for f, p in zip(runs, plain_rates, strict=True)]
        client = statistics.median(f["client"] for f in runs)
        server = statistics.median(f["server"] for f in runs)
        line = (
            f"   {mode:<7} {statistics.median(f['rate'] for f in runs):8.0f} saves/s   "
            f"{statistics.median(shares):4.2f} of plain ({min(shares):.2f}–{max(shares):.2f})   "
            f"CPU per save: client {client * 1e6:,.0f} µs + server {server * 1e6:,.0f} µs"
        )
        if mode == "sealer":
            waits = sorted(w for f in runs for w in f["waits"])
            line += (
                f"\n           wait before sealing over {len(waits):,} events: median "
                f"{_pct(waits, 50) * 1e3:.0f} ms, p99 {_pct(waits, 99) * 1e3:.0f} ms, "
                f"max {waits[-1] * 1e3 if waits else 0:.0f} ms (the sealing left when the writers stop "
                "is counted in the run's time)"
            )
        print(line)
    seal_pending()
    result = verify_chain()
    print(
        f"   chain after the runs: {result.events} events, unbroken={result.chain_ok}, unsealed={result.pending}"
    )
    for problem in [*result.forged, *result.checkpoint_problems]:
        print(f"   PROBLEM: {problem}")
    _check_saves(result)

    # the chain holds the concurrent runs' events already: filled up to --events, or as it is
    # when the runs made more
    total = max(args.events, result.events)
    print(f"\n3. verify_audit over {total:,} events")
    _fill_chain(args.events, deck_rows=True)
    started = time.perf_counter()
    result = verify_chain()
    elapsed = time.perf_counter() - started
    print(
        f"   {result.events:,} events verified in {elapsed:.2f} s: {result.events / elapsed:,.0f} events/s "
        f"(unbroken={result.chain_ok}; load average {load()})"
    )
    expect(
        result.events == total and result.chain_ok and not result.forged,
        f"{result.events:,} events verified, unbroken (of {total:,} in the chain)",
    )
    from django.core.management import call_command

    out = io.StringIO()
    started = time.perf_counter()
    call_command("verify_audit", "--no-witness", stdout=out)  # no witness here (part 4 has its own)
    elapsed = time.perf_counter() - started
    print(
        f"   with the books check (manage.py verify_audit, end to end): {result.events:,} events and "
        f"{_book_rows():,} rows in {elapsed:.2f} s: {result.events / elapsed:,.0f} events/s"
    )
    print(f"   ({out.getvalue().strip().splitlines()[-1][:60]}…)")
    _proofs(total)


def _check_saves(result) -> None:
    """Every audited save has its event, every event is sealed, the chain is unbroken."""
    from django.contrib.auth.models import Group

    from audit.models import AuditEvent

    audited = Group.objects.filter(name__startswith="a").count()
    events = AuditEvent.objects.filter(action=Action.TABLE_CREATED).count()
    expect_equal(events, audited, "events of the audited saves (one per save)")
    expect(
        result.chain_ok and result.pending == 0 and not result.forged and not result.checkpoint_problems,
        f"chain after the runs unbroken, {result.pending} unsealed, {len(result.forged)} forged",
    )


def _pct(values: list[float], pct: float) -> float:
    return values[min(len(values) - 1, int(len(values) * pct / 100))] if values else 0.0


def _cpu_of(pid: int) -> float:
    """Seconds of CPU of process ``pid`` (user + system), from /proc: the PostgreSQL backends
    are on this machine."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _backend_pid() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def _concurrent(args: argparse.Namespace, fn, sealer: bool) -> dict:
    """Writers in separate processes (as gunicorn workers are), for args.seconds.

    Returns the rate (saves per second, the time to seal what is left when the writers
    stop added), the CPU per save of the writers and of their backends (the sealer's
    counted in), and, with the sealer, each event's wait from its record to its seal."""
    from django.db import connections

    from audit.chain import run_sealer, seal_pending
    from audit.models import AuditEvent

    ctx = multiprocessing.get_context("fork")
    stop = ctx.Event()
    counts = ctx.Array("l", args.writers)
    client = ctx.Array("d", args.writers + 1)
    server = ctx.Array("d", args.writers + 1)
    start_line = ctx.Barrier(args.writers + 1)

    def writer(i: int) -> None:
        fn()  # connected before the start
        pid = _backend_pid()
        c0, s0 = time.process_time(), _cpu_of(pid)
        start_line.wait()
        n = 0
        while not stop.is_set():
            fn()
            n += 1
        counts[i] = n
        client[i], server[i] = time.process_time() - c0, _cpu_of(pid) - s0
        connections.close_all()

    def sealing() -> None:
        pid = _backend_pid()
        c0, s0 = time.process_time(), _cpu_of(pid)
        run_sealer(stop.is_set, **SEALER)  # as the audit_sealer command runs it
        client[args.writers], server[args.writers] = time.process_time() - c0, _cpu_of(pid) - s0
        connections.close_all()

    started_seq = (
        AuditEvent.objects.filter(seq__isnull=False).order_by("-seq").values_list("seq", flat=True).first()
    )
    connections.close_all()  # never share a connection across fork
    procs = [ctx.Process(target=writer, args=(i,)) for i in range(args.writers)]
    sealer_process = ctx.Process(target=sealing) if sealer else None
    for p in [*procs, *([sealer_process] if sealer_process else [])]:
        p.start()
    start_line.wait()
    time.sleep(args.seconds)
    stop.set()
    for p in procs:
        p.join()
    elapsed = args.seconds
    if sealer_process is not None:
        # What the sealer had not sealed yet when the writers stopped is sealed at
        # once, its time added to the run's: the rate is a sustained one.
        started = time.perf_counter()
        sealer_process.join()
        seal_pending()
        elapsed += time.perf_counter() - started
    else:
        seal_pending()  # inline: nothing left; plain: nothing recorded
    saves = sum(counts)
    waits: list[float] = []
    if sealer:
        waits = [
            (sealed - recorded).total_seconds()
            for recorded, sealed in AuditEvent.objects.filter(seq__gt=started_seq or 0).values_list(
                "recorded_at", "sealed_at"
            )
        ]
    return {
        "rate": saves / elapsed,
        "client": sum(client) / max(1, saves),
        "server": sum(server) / max(1, saves),
        "waits": waits,
    }


def _proofs(total: int) -> None:
    import random
    import statistics
    import tempfile

    from django.conf import settings

    from audit.checkpoints import make_checkpoint
    from audit.devcert import make_dev_certificate
    from audit.proofs import consistency_proof, inclusion_proof

    print(f"\n4. Merkle proofs (RFC 9162) over {total:,} events")
    with tempfile.TemporaryDirectory() as directory:
        cert = make_dev_certificate(Path(directory), casino="Bench")
        settings.SIGNING_PKCS12, settings.SIGNING_PKCS12_PASSWORD = str(cert.pkcs12), cert.password
        settings.AUDIT_WITNESS_DIR = str(Path(directory) / "witness")
        started = time.perf_counter()
        first = make_checkpoint()
        print(
            f"   checkpoint no. {first.number} at {first.seq:,} events (verified, tree head signed, subtrees stored) "
            f"in {time.perf_counter() - started:.2f} s"
        )
        random.seed(11)
        timings = []
        held = 0
        for seq in [1, first.seq, *random.sample(range(1, first.seq + 1), 200)]:
            started = time.perf_counter()
            proof = inclusion_proof(seq)
            timings.append(time.perf_counter() - started)
            held += bool(proof["holds"])
        print(
            f"   inclusion proof of one event: median {statistics.median(timings) * 1e3:.1f} ms, "
            f"max {max(timings) * 1e3:.1f} ms over {len(timings)} events ({len(proof['path'])} hashes)"
        )
        expect_equal(held, len(timings), "inclusion proofs that hold")
        _fill_chain(total + 12_345)
        second = make_checkpoint()
        started = time.perf_counter()
        proof = consistency_proof(first.number, second.number)
        print(
            f"   consistency proof {first.seq:,} -> {second.seq:,} events: "
            f"{(time.perf_counter() - started) * 1e3:.1f} ms ({len(proof['path'])} hashes)"
        )
        from inspection.verifier import verify_consistency  # the officers' offline check

        holds = verify_consistency(
            proof["first_size"],
            proof["second_size"],
            bytes.fromhex(proof["first_root"]),
            bytes.fromhex(proof["second_root"]),
            [bytes.fromhex(h) for h in proof["path"]],
        )
        expect(holds, "the consistency proof holds (the officers' verifier)")


def _book_rows() -> int:
    from django.db import connection

    from audit.books import books

    total = 0
    with connection.cursor() as cursor:
        for book in books():
            cursor.execute(f'SELECT count(*) FROM "{book.table}"')
            total += cursor.fetchone()[0]
    return total


def _deck_books(need: int) -> tuple[int, int, int]:
    """A maker, an order and a reception recorded by one act (their rows bound to its
    event), then ``need`` decks of that reception loaded with COPY from the next id on
    (their events are appended by _fill_chain). Returns the first deck id and the
    reception's row ids (manufacturer, reception)."""

    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone

    import audit
    from cards_registry.models import Book, Deck, Manufacturer, Order, Reception

    user = get_user_model().objects.create(username=f"bench-{uuid.uuid4().hex[:8]}")
    today = timezone.localdate()
    with transaction.atomic():
        maker = Manufacturer.objects.create(
            code="BENCH",
            name="Bench",
            approval_reference="-",
            ministry="-",
            valid_from=today,
            registered_by=user,
        )
        book = Book.objects.create(kind="receipt", number=1, last_number=1)
        order = Order.objects.create(
            book=Book.objects.create(kind="order", number=1, last_number=1),
            number=1,
            manufacturer=maker,
            ordered_on=today,
            recorded_by=user,
        )
        reception = Reception.objects.create(
            book=book, number=1, order=order, manufacturer=maker, received_on=today, recorded_by=user
        )
        audit.record(actor=None, action=Action.DEPOT_RECEPTION_RECORDED, obj=reception, payload={})
    from audit.chain import seal_pending

    seal_pending()
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence('cards_registry_deck', 'id'))")
        first = cursor.fetchone()[0]
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence('cards_registry_deck', 'id'), %s)", [first + need]
        )
    buffer = io.StringIO()
    for i in range(need):
        buffer.write(f"{first + i}\tBENCH{first + i:09d}\tbleu\tin_cabinet\t{maker.pk}\t{reception.pk}\t\n")
    raw = connection.connection
    with (
        raw.cursor() as cursor,
        cursor.copy(
            f"COPY {Deck._meta.db_table} (id, serial, back_colour, status, manufacturer_id, reception_id, "
            "status_before_quarantine) FROM STDIN"
        ) as copy,
    ):
        copy.write(buffer.getvalue())
    return first, maker.pk, reception.pk


def _fill_chain(total: int, *, deck_rows: bool = False) -> None:
    """Append sealed events quickly: hashes computed by the same function as the
    sealer, rows loaded with COPY (the guard is lifted for the load, as a
    superuser restoring a backup would). ``deck_rows``: each event carries the row
    of one deck, loaded in the books too, as a reception's event would."""
    import datetime as dt

    from django.db import connection

    from audit.chain import canonical_json, event_bytes, event_hash, event_mac, format_time, head

    seq, prev = head()
    need = total - seq - (1 if deck_rows else 0)
    if need <= 0:
        return
    if deck_rows:
        first_deck, maker_id, reception_id = _deck_books(need)
        seq, prev = head()
    now = dt.datetime.now(dt.UTC)
    started = time.perf_counter()
    buffer = io.StringIO()
    for i in range(need):
        seq += 1
        recorded = now + dt.timedelta(microseconds=i)
        content = {"deck": f"SN{seq:09d}", "table": seq % 30, "amount": f"{seq % 997}.50"}
        if deck_rows:
            deck = first_deck + i
            content = {
                "deck": f"BENCH{deck:09d}",
                "rows": [
                    [
                        "cards_registry_deck",
                        deck,
                        {
                            "back_colour": "bleu",
                            "manufacturer": maker_id,
                            "reception": reception_id,
                            "serial": f"BENCH{deck:09d}",
                            "sixain": None,
                            "status": "in_cabinet",
                            "status_before_quarantine": "",
                            "unsealed_at": None,
                        },
                    ]
                ],
            }
        payload = canonical_json(content)
        stamp = format_time(recorded)
        digest = event_hash(
            prev_hash=prev,
            seq=seq,
            recorded_at=stamp,
            actor_name="system",
            action="bench.event",
            object_type="bench.thing",
            object_id=str(seq),
            payload=payload,
        )
        mac = event_mac(
            event_bytes(
                recorded_at=stamp,
                actor_name="system",
                action="bench.event",
                object_type="bench.thing",
                object_id=str(seq),
                payload=payload,
            )
        )
        buffer.write(
            f"{seq}\t{stamp}\tsystem\tbench.event\tbench.thing\t{seq}\t{payload}\t{mac}\t{prev}\t{digest}\t{stamp}\n"
        )
        prev = digest
    raw = connection.connection
    with raw.cursor() as cursor:
        cursor.execute("ALTER TABLE audit_event DISABLE TRIGGER audit_event_guard_insert")
        with cursor.copy(
            "COPY audit_event (seq, recorded_at, actor_name, action, object_type, object_id, payload, mac, "
            "prev_hash, hash, sealed_at) FROM STDIN"
        ) as copy:
            copy.write(buffer.getvalue())
        cursor.execute("ALTER TABLE audit_event ENABLE ALWAYS TRIGGER audit_event_guard_insert")
    raw.commit() if not raw.autocommit else None
    # A chain that grew over months has been vacuumed; a bulk load has not (its first
    # read would also pay for setting every row's visibility hint bits).
    raw.autocommit, was = True, raw.autocommit
    with raw.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE) audit_event")
        if deck_rows:
            cursor.execute("VACUUM (ANALYZE) cards_registry_deck")
    raw.autocommit = was
    print(f"   (appended {need:,} sealed events in {time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
