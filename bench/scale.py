"""Benchmark of the record at scale: millions of sealed events with their book rows.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/scale.py
        [--events 10000000] [--database bench_scale] [--processes 2] [--requests 50] [--keep-db] [--reuse]

1. Builds its own database (``--database``, dropped and made again; the server of
   DATABASE_URL): migrated, the demo casino seeded (``seed_demo``), then ``--events`` sealed
   events, each carrying the row of one deck (``cards_registry_deck``, its book), bound to a
   reception of the year before. The events are made by the project's own code
   (``canonical_json``, ``event_mac``, the chain's hash after the demo's head), so the record
   verifies; their MACs and payloads in ``--processes`` processes, the chain's hashes (one after
   the other, by nature) in this one, streamed with ``COPY … FROM STDIN`` while made. The guard
   refuses an event inserted already sealed (``audit_event_guard_insert``): it is lifted for the
   load, in the load's transaction, and enabled ALWAYS again before the commit, as a superuser
   restoring a backup would (the books' guards refuse UPDATE, DELETE and TRUNCATE only: COPY
   passes them). Then ``VACUUM (ANALYZE)``, as a record grown over months has been vacuumed.
   Prints the build time.
2. Measures and prints: ``manage.py verify_audit`` end to end (events/s, the processes it
   uses); a signed checkpoint, then one inclusion proof and one consistency proof (median of
   several, ms); the officers' audit trail (its first page, a page deep in the record, one
   object's events, the events of one act) and an entry's history (a deck's page) in the portal, signed in as the
   demo officer with his passkey (p50/p95 over ``--requests`` requests, Django test client,
   cache cleared before each); a register for one month (the receipt book of the current month
   on screen, and its PDF, each made whole).
3. Checks its own work (bench/checks.py): events and rows built as asked, verify_audit's
   ``OK`` over all of them, every proof holds, every page served with what it must show.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import multiprocessing
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.checks import create_database, database_name, expect, expect_equal, finish, load  # noqa: E402

ACTION = "bench.deck_loaded"
OBJECT_TYPE = "cards_registry.deck"
CHUNK = 20_000  # events made per task of the processes


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--events", type=int, default=10_000_000, help="sealed events to build")
    p.add_argument("--database", default=database_name("bench_scale"), help="the bench's own database")
    p.add_argument("--processes", type=int, default=os.cpu_count() or 1, help="processes making the events")
    p.add_argument("--requests", type=int, default=50, help="requests per page measured")
    p.add_argument("--proofs", type=int, default=21, help="proofs of each kind measured")
    p.add_argument("--keep-db", action="store_true", help="keep the bench database afterwards")
    p.add_argument(
        "--reuse",
        action="store_true",
        help="measure again a record kept by an earlier run (--keep-db): no build; kept afterwards",
    )
    return p.parse_args()


def _admin_url(server_url: str) -> str:
    parts = urlsplit(server_url)
    return urlunsplit(parts._replace(path="/postgres")).replace("postgres://", "postgresql://", 1)


def _drop(server_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(_admin_url(server_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _kept_keys(args: argparse.Namespace) -> Path:
    """The demo authority that enrols the demo's officers and the casino's demo signer of the
    checkpoints and registers, in a directory named after the database and kept with it
    (``--keep-db``): the officers' acts and the checkpoints of a record measured again
    (``--reuse``) verify only under the keys that made them."""
    import secrets

    from audit.devcert import make_dev_certificate
    from casino_ops.authority import make_dev_authority

    directory = Path(tempfile.gettempdir()) / f"{args.database}-keys"
    made = directory / "signer.json"
    if not (args.reuse and made.exists()):
        shutil.rmtree(directory, ignore_errors=True)
        make_dev_authority(directory / "authority")
        password = secrets.token_urlsafe(18)
        cert = make_dev_certificate(directory / "signer", casino="Bench", password=password)
        made.write_text(json.dumps({"pkcs12": str(cert.pkcs12), "password": password}))
    if not os.environ.get("OFFICER_AUTHORITY_CERTIFICATE"):
        os.environ["OFFICER_AUTHORITY_CERTIFICATE"] = str(directory / "authority" / "authority.pem")
        os.environ["OFFICER_AUTHORITY_DEMO_KEY"] = str(directory / "authority" / "authority-key.pem")
    return directory


def main() -> None:
    args = parse_args()
    server_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    import psycopg

    if args.reuse:
        args.keep_db = True
    else:
        _drop(server_url, args.database)
        with psycopg.connect(_admin_url(server_url), autocommit=True) as conn:
            create_database(conn, args.database, seeded=True)
    os.environ["DATABASE_URL"] = urlunsplit(urlsplit(server_url)._replace(path=f"/{args.database}"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    keys = _kept_keys(args)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.AUDIT_WITNESS_DIR = ""  # the checkpoints of part 3 are witnessed in their own directory
    print(f"database {args.database}, {args.events:,} events, load average {load()}", flush=True)
    try:
        call_command("migrate", verbosity=0)
        call_command("seed_demo", "--if-empty", stdout=open(os.devnull, "w"))  # seeded: a copy
        if args.reuse:
            found(args)
        else:
            build(args)
        measure_verify(args)
        signer = json.loads((keys / "signer.json").read_text())  # the checkpoints' and registers'
        settings.SIGNING_PKCS12, settings.SIGNING_PKCS12_PASSWORD = signer["pkcs12"], signer["password"]
        measure_proofs(args, keys)
        measure_pages(args)
    finally:
        from django.db import connections

        connections.close_all()
        if not args.keep_db:
            _drop(server_url, args.database)
            shutil.rmtree(keys, ignore_errors=True)
    finish()


# --- 1. The record -------------------------------------------------------------------------


def _reception() -> tuple[int, int, int]:
    """A closed receipt book of the year before, one reception in it (its act recorded and
    sealed as the depot's would be); returns (maker, reception, user) ids."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.db.models import Max
    from django.utils import timezone

    import audit
    from audit.actions import Action
    from audit.chain import seal_pending
    from cards_registry.models import Book, Manufacturer, Order, Reception

    user = get_user_model().objects.get(username="directeur")
    day = timezone.localdate().replace(month=1, day=15) - dt.timedelta(days=365)
    with transaction.atomic():
        maker = Manufacturer.objects.create(
            code="BENCH-SCALE",
            name="Bench",
            approval_reference="-",
            ministry="-",
            valid_from=day,
            registered_by=user,
        )

        def closed(kind: str) -> Book:
            number = (Book.objects.filter(kind=kind).aggregate(n=Max("number"))["n"] or 0) + 1
            return Book.objects.create(kind=kind, number=number, last_number=1, closed_at=timezone.now())

        order = Order.objects.create(
            book=closed("order"), number=1, manufacturer=maker, ordered_on=day, recorded_by=user
        )
        reception = Reception.objects.create(
            book=closed("receipt"),
            number=1,
            order=order,
            manufacturer=maker,
            received_on=day,
            recorded_by=user,
        )
        audit.record(actor=None, action=Action.DEPOT_RECEPTION_RECORDED, obj=reception, payload={})
    seal_pending()
    return maker.pk, reception.pk, user.pk


def _make_chunk(
    task: tuple[int, int, int, int, int, str],
) -> tuple[list[bytes], list[bytes], list[bytes], bytes]:
    """Events ``seq0 .. seq0 + count - 1`` (decks ``deck0 …``): for each, the hashed content
    after ``prev_hash`` and ``seq`` (its MAC's bytes), the COPY line's beginning (up to the
    previous hash); and the decks' COPY lines. Runs in the processes."""
    seq0, count, deck0, maker_id, reception_id, stamp0 = task
    from audit.chain import canonical_json, event_bytes, event_mac

    base = dt.datetime.fromisoformat(stamp0)
    contents, heads, tails = [], [], []
    decks = io.StringIO()
    for i in range(count):
        seq, deck = seq0 + i, deck0 + i
        serial = f"SCALE{deck:010d}"
        payload = canonical_json(
            {
                "deck": serial,
                "rows": [
                    [
                        "cards_registry_deck",
                        deck,
                        {
                            "back_colour": "bleu",
                            "manufacturer": maker_id,
                            "reception": reception_id,
                            "serial": serial,
                            "sixain": None,
                            "status": "in_cabinet",
                            "status_before_quarantine": "",
                            "unsealed_at": None,
                        },
                    ]
                ],
            }
        )
        stamp = (base + dt.timedelta(microseconds=seq)).isoformat(timespec="microseconds")[:-6] + "Z"
        content = event_bytes(
            recorded_at=stamp,
            actor_name="system",
            action=ACTION,
            object_type=OBJECT_TYPE,
            object_id=str(deck),
            payload=payload,
        )
        contents.append(b"\x1f%d\x1f" % seq + content)
        heads.append(
            f"{seq}\t{stamp}\tsystem\t{ACTION}\t{OBJECT_TYPE}\t{deck}\t{payload}\t{event_mac(content)}\t".encode()
        )
        tails.append(f"\t{stamp}\n".encode())  # sealed at its moment
        decks.write(f"{deck}\t{serial}\tbleu\tin_cabinet\t{maker_id}\t{reception_id}\t\n")
    return contents, heads, tails, decks.getvalue().encode()


def build(args: argparse.Namespace) -> None:
    import hashlib

    from django.db import connection

    from audit.chain import head

    print(
        f"\n1. Building {args.events:,} sealed events with their decks ({args.processes} processes)",
        flush=True,
    )
    started = time.perf_counter()
    demo_events, _ = head()
    maker_id, reception_id, _user = _reception()
    seq, prev_hash = head()
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence('cards_registry_deck', 'id'))")
        deck0 = cursor.fetchone()[0]
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence('cards_registry_deck', 'id'), %s)", [deck0 + args.events]
        )
    # After the demo's events (the chain's moments only go forward), one microsecond apart.
    stamp0 = (dt.datetime.now(dt.UTC) + dt.timedelta(seconds=1)).isoformat()
    tasks = [
        (seq + 1 + start, min(CHUNK, args.events - start), deck0 + start, maker_id, reception_id, stamp0)
        for start in range(0, args.events, CHUNK)
    ]
    prev = prev_hash.encode()
    sha256 = hashlib.sha256
    # A connection older than CONN_MAX_AGE (the demo's seeding on a loaded machine) is made
    # again before the load takes it, not closed under it.
    connection.close_if_unusable_or_obsolete()
    connection.ensure_connection()
    raw = connection.connection
    context = multiprocessing.get_context("fork")
    made = 0
    with context.Pool(args.processes) as pool, raw.transaction(), raw.cursor() as cursor:
        cursor.execute("ALTER TABLE audit_event DISABLE TRIGGER audit_event_guard_insert")
        deck_lines = tempfile.TemporaryFile()  # the decks' COPY lines, loaded after the events
        with cursor.copy(
            "COPY audit_event (seq, recorded_at, actor_name, action, object_type, object_id, payload, mac, "
            "prev_hash, hash, sealed_at) FROM STDIN"
        ) as events:
            for contents, heads, tails, decks in pool.imap(_make_chunk, tasks):
                out = []
                for content, line, tail in zip(contents, heads, tails, strict=True):
                    digest = sha256(prev + content).hexdigest().encode()
                    out += (line, prev, b"\t", digest, tail)
                    prev = digest
                events.write(b"".join(out))
                deck_lines.write(decks)
                made += len(contents)
        deck_lines.seek(0)
        with cursor.copy(
            "COPY cards_registry_deck (id, serial, back_colour, status, manufacturer_id, reception_id, "
            "status_before_quarantine) FROM STDIN"
        ) as copy:
            while block := deck_lines.read(1 << 20):
                copy.write(block)
        deck_lines.close()
        cursor.execute("ALTER TABLE audit_event ENABLE ALWAYS TRIGGER audit_event_guard_insert")
    loaded = time.perf_counter() - started
    raw.autocommit, was = True, raw.autocommit
    with raw.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE) audit_event")
        cursor.execute("VACUUM (ANALYZE) cards_registry_deck")
        cursor.execute(
            "SELECT tgenabled FROM pg_trigger WHERE tgname = 'audit_event_guard_insert' "
            "AND tgrelid = 'audit_event'::regclass"
        )
        guard = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM cards_registry_deck WHERE reception_id = %s", [reception_id])
        decks = cursor.fetchone()[0]
        cursor.execute("SELECT pg_size_pretty(pg_total_relation_size('audit_event'))")
        size = cursor.fetchone()[0]
    raw.autocommit = was
    elapsed = time.perf_counter() - started
    head_seq, _hash = head()
    print(
        f"   built in {elapsed:.1f} s ({loaded:.1f} s to make and COPY, {elapsed - loaded:.1f} s to VACUUM "
        f"ANALYZE): {args.events / elapsed:,.0f} events/s; audit_event {size}; load average {load()}",
        flush=True,
    )
    expect_equal(made, args.events, "events made")
    expect_equal(head_seq - seq, args.events, "sealed events added to the chain")
    expect_equal(decks, args.events, "deck rows loaded, one per event")
    expect_equal(guard, "A", "the guard against sealed inserts enabled ALWAYS again")
    args.demo_events = demo_events
    args.first_seq, args.head_seq, args.deck0 = seq + 1, head_seq, deck0


def found(args: argparse.Namespace) -> None:
    """The record an earlier run built and kept (``--reuse``): where its decks and events start."""
    from django.db.models import Min

    from audit.chain import head, seal_pending
    from audit.models import AuditEvent
    from cards_registry.models import Deck

    seal_pending()  # what an earlier run appended after its build
    deck0 = Deck.objects.filter(manufacturer__code="BENCH-SCALE").aggregate(Min("id"))["id__min"]
    expect(deck0 is not None, f"a record built by an earlier run in {args.database} (--reuse)")
    first = AuditEvent.objects.filter(object_type=OBJECT_TYPE, object_id=str(deck0)).aggregate(Min("seq"))[
        "seq__min"
    ]
    head_seq, _hash = head()
    print(
        f"\n1. The record kept by an earlier run: {head_seq:,} events, the bench's from no. {first:,} "
        f"(load average {load()})",
        flush=True,
    )
    args.first_seq, args.head_seq, args.deck0 = first, head_seq, deck0


# --- 2. verify_audit ---------------------------------------------------------------------------


def measure_verify(args: argparse.Namespace) -> None:
    from django.conf import settings
    from django.core.management import call_command

    ranges = min(settings.AUDIT_VERIFY_PROCESSES, args.head_seq // max(1, settings.AUDIT_VERIFY_MIN_RANGE))
    processes = ranges if ranges >= 2 else 1  # as audit.chain.verify._walk_in_ranges splits it
    print(f"\n2. verify_audit over {args.head_seq:,} events (load average {load()})", flush=True)
    out = io.StringIO()
    cpu0 = os.times()
    started = time.perf_counter()
    try:
        call_command("verify_audit", "--no-witness", stdout=out, stderr=out)
        code = 0
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    elapsed = time.perf_counter() - started
    cpu1 = os.times()
    own = (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system)
    children = (cpu1.children_user - cpu0.children_user) + (cpu1.children_system - cpu0.children_system)
    last = out.getvalue().strip().splitlines()[-1] if out.getvalue().strip() else ""
    print(
        f"   end to end: {args.head_seq:,} events in {elapsed:.2f} s: {args.head_seq / elapsed:,.0f} events/s, "
        f"{processes} process(es) hashing the chain in ranges and one comparing the books, on {os.cpu_count()} "
        f"cores; their Python CPU {own:.1f} s (the command) + {children:.1f} s (its processes), "
        f"{(own + children) / args.head_seq * 1e6:.1f} µs per event, PostgreSQL's not counted "
        f"(load average {load()})",
        flush=True,
    )
    print(f"   ({last[:100]}…)")
    expect(
        code == 0 and last.startswith(f"OK: {args.head_seq} events"),
        f"verify_audit: OK over all {args.head_seq:,} events"
        + ("" if code == 0 else f" (exit {code}: {last[:300]})"),
    )


# --- 3. Proofs ---------------------------------------------------------------------------------


def measure_proofs(args: argparse.Namespace, directory: Path) -> None:
    import random

    from django.conf import settings

    from audit.checkpoints import make_checkpoint
    from audit.proofs import consistency_proof, inclusion_proof
    from inspection.verifier import verify_consistency

    print(f"\n3. Merkle proofs (RFC 9162) over {args.head_seq:,} events", flush=True)
    settings.AUDIT_WITNESS_DIR = str(directory / "witness")
    started = time.perf_counter()
    first = make_checkpoint()
    print(
        f"   checkpoint no. {first.number} at {first.seq:,} events in {time.perf_counter() - started:.1f} s"
    )
    random.seed(38)
    timings, held = [], 0
    for seq in [1, first.seq, *random.sample(range(1, first.seq + 1), max(0, args.proofs - 2))]:
        t0 = time.perf_counter()
        proof = inclusion_proof(seq)
        timings.append(time.perf_counter() - t0)
        held += bool(proof["holds"])
    print(
        f"   inclusion proof: median {statistics.median(timings) * 1e3:.1f} ms, max {max(timings) * 1e3:.1f} ms "
        f"over {len(timings)} events ({len(proof['path'])} hashes)"
    )
    expect_equal(held, len(timings), "inclusion proofs that hold")
    # A few events more (as a day's acts), then a second checkpoint.
    from audit.chain import seal_pending

    _append(args, 1000)
    seal_pending()
    second = make_checkpoint()
    timings, holds = [], 0
    sizes = [first.seq, *random.sample(range(1, first.seq), max(0, args.proofs - 1))]
    for size in sizes:
        t0 = time.perf_counter()
        proof = consistency_proof(first_size=size, second=second.number)
        timings.append(time.perf_counter() - t0)
        holds += verify_consistency(
            proof["first_size"],
            proof["second_size"],
            bytes.fromhex(proof["first_root"]),
            bytes.fromhex(proof["second_root"]),
            [bytes.fromhex(h) for h in proof["path"]],
        )
    print(
        f"   consistency proof (to {second.seq:,} events): median {statistics.median(timings) * 1e3:.1f} ms, "
        f"max {max(timings) * 1e3:.1f} ms over {len(timings)} first sizes"
    )
    expect_equal(holds, len(timings), "consistency proofs that hold (the officers' verifier)")
    settings.AUDIT_WITNESS_DIR = ""


def _append(args: argparse.Namespace, count: int) -> None:
    """``count`` ordinary acts recorded through audit.record (waiting to be sealed)."""
    from django.contrib.auth.models import Group
    from django.db import transaction

    import audit
    from audit.actions import Action

    with transaction.atomic():
        for i in range(count):
            group = Group.objects.create(name=f"scale-{args.head_seq}-{i}")
            audit.record(actor=None, action=Action.TABLE_CREATED, obj=group, payload={"name": group.name})


# --- 4. Pages ---------------------------------------------------------------------------------


def _officer_client():
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django_otp import DEVICE_ID_SESSION_KEY

    from casino_ops import officers

    officer = get_user_model().objects.get(username="officier")
    client = Client()
    client.force_login(officer)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = officers.enrolment_in_force(officer).persistent_id  # his passkey
    session.save()
    return client


def _timed(client, url: str, n: int, must: str) -> list[float]:
    from django.core.cache import cache

    times, served = [], 0
    for _ in range(n):
        cache.clear()
        t0 = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - t0)
        served += response.status_code == 200 and must in response.content.decode()
    expect_equal(served, n, f"{url}: served with {must!r}")
    return sorted(times)


def _pct(values: list[float], pct: float) -> float:
    return values[min(len(values) - 1, int(len(values) * pct / 100))]


def measure_pages(args: argparse.Namespace) -> None:
    from django.utils import timezone

    from cards_registry.models import Deck

    client = _officer_client()
    demo_deck = Deck.objects.filter(issue_lines__isnull=False).order_by("pk").first() or Deck.objects.first()
    from audit.chain import head

    middle = (args.first_seq + args.head_seq) // 2
    top, _ = head()
    bench_deck = args.deck0 + (middle - args.first_seq)
    today = timezone.localdate()
    month = urlencode({"date_from": today.replace(day=1), "date_to": today})
    pages = [
        ("audit trail, first page", "/inspection/audit/", f"before={top - 49}"),
        ("audit trail, a page in the middle", f"/inspection/audit/?before={middle}", f"before={middle - 50}"),
        (
            "audit trail, one object's events",
            f"/inspection/audit/?object_type={OBJECT_TYPE}&object_id={bench_deck}",
            f"SCALE{bench_deck:010d}",
        ),
        ("audit trail, one act (depot.*)", "/inspection/audit/?action=depot.", "depot."),
        ("a demo deck's history", f"/inspection/jeux/{demo_deck.pk}/", demo_deck.serial),
        ("a loaded deck's history", f"/inspection/jeux/{bench_deck}/", f"SCALE{bench_deck:010d}"),
        ("register: receipt book, this month", f"/inspection/registres/receipt-book/?{month}", "registre"),
    ]
    print(
        f"\n4. Portal pages, signed in as the officer, {args.requests} requests each, cache cleared before each "
        f"(load average {load()})",
        flush=True,
    )
    for name, url, must in pages:
        _timed(client, url, 2, must)  # warm the process (imports, templates)
        times = _timed(client, url, args.requests, must)
        print(
            f"   {name:<38} p50 {_pct(times, 50) * 1e3:7.1f} ms   p95 {_pct(times, 95) * 1e3:7.1f} ms   "
            f"max {times[-1] * 1e3:7.1f} ms"
        )
    from inspection.registers import get_register
    from inspection.registers.base import Request
    from inspection.registers.render import print_register

    print(f"\n5. A register for one month at this size (load average {load()})", flush=True)
    started = time.perf_counter()
    printed = print_register(get_register("receipt-book"), Request(today.replace(day=1), today))
    print(
        f"   receipt book of this month, printed whole: {printed.rows} rows, {printed.pages} pages in "
        f"{time.perf_counter() - started:.2f} s (read + render + sign)"
    )
    expect(printed.pages > 0 and bool(printed.pdf), "the month's receipt book printed and signed")


if __name__ == "__main__":
    main()
