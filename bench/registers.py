"""Benchmark of the signed registers: a 10,000-row receipt book.

    python bench/registers.py [--rows 10000] [--workers 2] [--single]

Builds its own database (``BENCH_REGISTERS_DB``, default ``bench_registers``,
on DATABASE_URL's server): the demo casino, then ``--rows`` receptions in the
receipt book (FR model n° 19), spread over 2025, each a sixain of six decks,
through the depot's models in bulk (the regulated services are measured by
bench/depot.py; here only the register matters). Then, with a real Celery
worker (``--workers`` prefork children) on Redis (CELERY_BROKER_URL, else
TEST_REDIS_URL, else redis://127.0.0.1:6379/0):

* first print: the register requested as the admin does; its twelve monthly
  parts are rendered (WeasyPrint), signed and stored by the worker children,
  then merged, numbered and signed as one document;
* second print, nothing changed: a new print of the same books, made from the
  stored parts;
* print after one correction (through the depot's service) in June: June is
  made again, the other months are taken as stored.

For each: the wall time from the request to the signed document, the parts
made and reused, the worker time spent making parts (WeasyPrint and the part's
signature), pages per second per worker, and that time's share of the wall
time; at the end, the peak memory (VmHWM) of each worker child.
``--single``: the whole book as one PDF in one process, the same code (read,
render, stamp, sign); wall time and peak RSS of that process.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.checks import create_database, database_name, expect, expect_equal, finish  # noqa: E402

BASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
SERVER_URL = BASE_URL.rsplit("/", 1)[0]
DB_NAME = os.environ.get("BENCH_REGISTERS_DB") or database_name("bench_registers")
REDIS_URL = (
    os.environ.get("CELERY_BROKER_URL") or os.environ.get("TEST_REDIS_URL") or "redis://127.0.0.1:6379/0"
)
START, END = dt.date(2025, 1, 1), dt.date(2025, 12, 31)
QUEUE = "bench-registers"
WANTED_ROWS = [0]  # the receptions the register must list at least (set once filled)


def _database() -> None:
    import psycopg

    with psycopg.connect(f"{SERVER_URL}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        create_database(conn, DB_NAME, seeded=True)


def _setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    sys.path.insert(0, str(ROOT / "bench"))
    import django

    django.setup()


def _fill(rows: int) -> None:
    """``rows`` receptions of one sixain (six decks) each, dated over 2025."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from cards_registry.models import Book, BookKind, Deck, Manufacturer, Order, Reception, Sixain

    call_command("migrate", verbosity=0)
    call_command("seed_demo", "--if-empty", verbosity=0)  # seeded: a copy of the demo
    director = get_user_model().objects.get(username="directeur")
    maker = Manufacturer.objects.order_by("code").first()
    now = timezone.now()
    order_book = Book.objects.create(kind=BookKind.ORDER, number=900, closed_at=now)
    book = Book.objects.create(kind=BookKind.RECEIPT, number=901, closed_at=now, last_number=rows)
    orders = Order.objects.bulk_create(
        Order(book=order_book, number=i + 1, manufacturer=maker, ordered_on=START, recorded_by=director)
        for i in range(rows // 50 + 1)
    )
    days = (END - START).days + 1
    receptions = Reception.objects.bulk_create(
        (
            Reception(
                book=book,
                number=i + 1,
                order=orders[i // 50],
                manufacturer=maker,
                received_on=START + dt.timedelta(days=i * days // rows),
                delivery_note=f"BL {i + 1:06d}",
                recorded_by=director,
            )
            for i in range(rows)
        ),
        batch_size=2000,
    )
    sixains = Sixain.objects.bulk_create(
        (Sixain(manufacturer=maker, serial=f"BX{i:06d}", reception=r) for i, r in enumerate(receptions)),
        batch_size=2000,
    )
    Deck.objects.bulk_create(
        (
            Deck(
                manufacturer=maker,
                serial=f"BX{i:06d}-{k}",
                back_colour="bleu" if k <= 3 else "rouge",
                reception=r,
                sixain=s,
            )
            for i, (r, s) in enumerate(zip(receptions, sixains, strict=True))
            for k in range(1, 7)
        ),
        batch_size=5000,
    )


def _vm_hwm_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def _wait(report_id: int, worker: subprocess.Popen, peaks: dict[int, float]) -> float:
    from inspection.models import Report

    started = time.perf_counter()
    deadline = time.monotonic() + 1800
    while True:
        for child in _children(worker.pid):
            peaks[child] = max(peaks.get(child, 0.0), _vm_hwm_mb(child))
        state, error = Report.objects.filter(pk=report_id).values_list("state", "error").get()
        if state == Report.State.FAILED:
            raise SystemExit(f"bench FAILED: the register failed: {error}")
        if state == Report.State.DONE:
            return time.perf_counter() - started
        if time.monotonic() > deadline:
            raise SystemExit("bench FAILED: the register not done after 30 minutes")
        time.sleep(0.05)


def _one_print(
    label: str, worker: subprocess.Popen, peaks: dict[int, float], workers: int, *, new: bool
) -> tuple[int, int]:
    """One print, timed; returns the parts it made and the parts it has."""
    from inspection.models import Report, ReportPart
    from inspection.registers.parts import books_version
    from inspection.registers.reports import _enqueue, report_key, request_report

    started = time.perf_counter()
    if new:
        report = request_report(actor=None, register="receipt-book", date_from=START, date_to=END)
    else:  # a new print of the same books (the same request would return the report already made)
        key = report_key("receipt-book", START, END, None, version=f"{books_version()}|{label}|{time.time()}")
        report = Report.objects.create(key=key, register="receipt-book", date_from=START, date_to=END)
        _enqueue(report.pk)
    _wait(report.pk, worker, peaks)
    elapsed = time.perf_counter() - started
    report.refresh_from_db()
    rps = list(ReportPart.objects.filter(report=report).select_related("part"))
    made = [rp.part for rp in rps if not rp.reused]
    render = sum(p.seconds for p in made)
    pages_made = sum(p.pages for p in made)
    print(
        f"{label}: {elapsed:.1f} s wall, {report.pages} pages, {report.rows} rows, "
        f"{len(rps)} parts ({len(made)} made, {len(rps) - len(made)} reused)"
    )
    expect(
        bool(report.file) and len(report.sha256) == 64 and (report.rows or 0) >= WANTED_ROWS[0],
        f"{label}: a signed PDF stored, {report.rows} rows (at least the {WANTED_ROWS[0]} receptions filled)",
    )
    if made:
        print(
            f"  parts made: {pages_made} pages in {render:.1f} s of worker time "
            f"(WeasyPrint + the part's signature), {pages_made / render:.2f} pages/s per worker; "
            f"that time / {workers} workers = {render / workers:.1f} s, "
            f"{100 * render / workers / elapsed:.0f} % of the wall time; "
            f"slowest part {max(p.seconds for p in made):.1f} s"
        )
    return len(made), len(rps)


def pipeline(env: dict[str, str], rows: int, workers: int, *, again: bool = False) -> None:
    from django.contrib.auth import get_user_model

    from cards_registry.models import Reception
    from cards_registry.services import record_correction
    from casino_ops.celery import app

    worker = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("celery")),
            "-A",
            "casino_ops",
            "worker",
            "-P",
            "prefork",
            "-c",
            str(workers),
            "-Q",
            QUEUE,
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=WARNING",
        ],
        env={**os.environ, **env},
        cwd=str(ROOT),
        stdout=subprocess.DEVNULL,
    )
    peaks: dict[int, float] = {}
    WANTED_ROWS[0] = Reception.objects.filter(received_on__range=(START, END)).count()
    try:
        time.sleep(4)  # let the worker start
        if again:  # the stored parts of the earlier run, checked against the books (read, compared)
            _one_print(
                "print from an earlier run's parts, every month read and compared",
                worker,
                peaks,
                workers,
                new=False,
            )
        else:
            made, parts = _one_print("first print", worker, peaks, workers, new=True)
            expect_equal(made, parts, "first print: parts made")
        made, parts = _one_print("second print, nothing changed", worker, peaks, workers, new=False)
        expect_equal(made, 0, "second print, nothing changed: parts made again")
        director = get_user_model().objects.get(username="directeur")
        june = (
            Reception.objects.filter(received_on__year=2025, received_on__month=min(6, END.month))
            .order_by("number")
            .first()
        )
        record_correction(
            actor=director,
            entry=june,
            field="delivery_note",
            new_value=f"BL corrigé {time.time():.0f}",
            reason="bench",
            approval="Approuvé, le directeur",
        )
        made, parts = _one_print("print after one correction in June", worker, peaks, workers, new=True)
        expect_equal(made, 1, "print after one correction in June: parts made again (June's)")
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=60)
        with app.connection_for_write() as conn:
            conn.default_channel.queue_delete(QUEUE)
    print(f"peak memory per worker child (VmHWM): {', '.join(f'{v:.0f} MB' for v in sorted(peaks.values()))}")


def single(rows: int) -> None:
    from inspection.registers import get_register
    from inspection.registers.base import Request
    from inspection.registers.render import print_register

    started = time.perf_counter()
    printed = print_register(get_register("receipt-book"), Request(START, END))
    elapsed = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"single: {printed.rows} rows, {printed.pages} pages, one signed PDF of {len(printed.pdf) / 1e6:.1f} MB "
        f"in {elapsed:.1f} s (read + render + sign), peak RSS {peak:.0f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--months", type=int, default=12, help="the register's months of 2025, from January (its parts)"
    )
    parser.add_argument(
        "--again",
        metavar="DIR",
        help="the database and the directory of an earlier run: its stored parts, without the first print",
    )
    parser.add_argument("--single", action="store_true", help="also the whole book as one PDF in one process")
    parser.add_argument("--child-single", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    global END
    if args.months < 12:  # a shorter register, of fewer parts (the benches' test runs one of two)
        END = dt.date(2025, args.months + 1, 1) - dt.timedelta(days=1)

    if args.child_single:
        _setup({})
        single(args.rows)
        return

    tmp = Path(args.again) if args.again else Path(tempfile.mkdtemp(prefix="bench-registers-"))
    from audit.devcert import make_dev_certificate

    if args.again:
        cert = make_dev_certificate(tmp / "signing-again", casino="Casino de la Côte — démonstration")
    else:
        cert = make_dev_certificate(tmp / "signing", casino="Casino de la Côte — démonstration")
    env = {
        "DATABASE_URL": f"{SERVER_URL}/{DB_NAME}",
        "CELERY_BROKER_URL": REDIS_URL,
        "SIGNING_PKCS12": str(cert.pkcs12),
        "SIGNING_PKCS12_PASSWORD": cert.password,
        "MEDIA_ROOT": str(tmp / "media"),
        # the test settings with the tasks on the bench's own queue (QUEUE)
        "DJANGO_SETTINGS_MODULE": "bench_registers_settings",
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "bench")]),
    }
    if args.again:
        _setup(env)
    else:
        _database()
        _setup(env)
        t = time.perf_counter()
        _fill(args.rows)
        print(
            f"database {DB_NAME}: {args.rows} receptions ({args.rows * 6} decks) in "
            f"{time.perf_counter() - t:.1f} s; the directory of this run: {tmp}"
        )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    pipeline(env, args.rows, args.workers, again=bool(args.again))
    if args.single:
        subprocess.run(
            [sys.executable, __file__, "--child-single", "--rows", str(args.rows)],
            env={**os.environ, **env},
            check=True,
        )
    finish()


if __name__ == "__main__":
    main()
