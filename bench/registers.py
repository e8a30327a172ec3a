"""Benchmark of the signed registers (issue #6): a 10,000-row receipt book.

    python bench/registers.py [--rows 10000] [--workers 2] [--max-rows-per-part 5000] [--single]

Builds its own database ``bench_registers`` (from DATABASE_URL's server):
the demo casino, then ``--rows`` receptions in the receipt book (FR model
n° 19), spread over 2025, each a sixain of six decks, through the depot's
models in bulk (the regulated services are measured by bench/depot.py; here
only the register matters). Then:

* pipeline (default): a real Celery worker (``--workers`` prefork children,
  recycled after 50 tasks) on Redis (CELERY_BROKER_URL, else TEST_REDIS_URL,
  else redis://127.0.0.1:6379/0); the register is requested as the admin
  does; the task reads it through ``cards_registry.selectors.receipt_book``,
  splits it by period into parts of at most ``--max-rows-per-part`` rows,
  and each part is rendered (WeasyPrint) and signed (pyHanko) by a worker
  child. Measured: wall time from the request to the last signed part, and
  the peak memory (VmHWM) of each worker child.
* single (``--single``): the whole book as one PDF in one process, the same
  code (read, render, sign); wall time and peak RSS of that process.
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

BASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
SERVER_URL = BASE_URL.rsplit("/", 1)[0]
DB_NAME = "bench_registers"
REDIS_URL = (
    os.environ.get("CELERY_BROKER_URL") or os.environ.get("TEST_REDIS_URL") or "redis://127.0.0.1:6379/0"
)
START, END = dt.date(2025, 1, 1), dt.date(2025, 12, 31)
QUEUE = "bench-registers"


def _database() -> None:
    import psycopg

    with psycopg.connect(f"{SERVER_URL}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")


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
    call_command("seed_demo", verbosity=0)
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


def pipeline(env: dict[str, str], rows: int, workers: int) -> None:
    from audit.models import Report
    from audit.registers.reports import parts_of, request_report
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
    try:
        time.sleep(4)  # let the worker start
        deadline = time.monotonic() + 1800
        started = time.perf_counter()
        report = request_report(actor=None, register="receipt-book", date_from=START, date_to=END)
        while True:
            for child in _children(worker.pid):
                peaks[child] = max(peaks.get(child, 0.0), _vm_hwm_mb(child))
            report.refresh_from_db()
            files = parts_of(report)
            if report.state == Report.State.FAILED or any(p.state == Report.State.FAILED for p in files):
                raise SystemExit(f"failed: {report.error or [p.error for p in files]}")
            if report.state == Report.State.SPLIT and all(p.state == Report.State.DONE for p in files):
                break
            if report.state == Report.State.DONE:
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"not done after 30 minutes: {[(p.pk, p.state) for p in files]}")
            time.sleep(0.05)
        elapsed = time.perf_counter() - started
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=60)
        with app.connection_for_write() as conn:
            conn.default_channel.queue_delete(QUEUE)
    pages = sum(p.pages for p in files)
    total_rows = sum(p.rows for p in files)
    print(
        f"pipeline: {total_rows} rows in {len(files)} signed part(s), {pages} pages, {workers} worker children"
    )
    for p in files:
        print(
            f"  part {p.part or 1}: {p.date_from} to {p.date_to}, {p.rows} rows, {p.pages} pages, "
            f"{(p.finished_at - p.started_at).total_seconds():.1f} s in its worker"
        )
    print(f"  wall time, request to last signed part: {elapsed:.1f} s")
    print(
        f"  peak memory per worker child (VmHWM): {', '.join(f'{v:.0f} MB' for v in sorted(peaks.values()))}"
    )


def single(rows: int) -> None:
    from audit.registers import get_register
    from audit.registers.base import Request
    from audit.registers.render import print_register

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
    parser.add_argument("--max-rows-per-part", type=int, default=3500)
    parser.add_argument("--single", action="store_true", help="also the whole book as one PDF in one process")
    parser.add_argument("--child-single", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)

    if args.child_single:
        _setup({})
        single(args.rows)
        return

    tmp = Path(tempfile.mkdtemp(prefix="bench-registers-"))
    from audit.devcert import make_dev_certificate

    cert = make_dev_certificate(tmp / "signing", casino="Casino de la Côte — démonstration")
    env = {
        "DATABASE_URL": f"{SERVER_URL}/{DB_NAME}",
        "CELERY_BROKER_URL": REDIS_URL,
        "SIGNING_PKCS12": str(cert.pkcs12),
        "SIGNING_PKCS12_PASSWORD": cert.password,
        "MEDIA_ROOT": str(tmp / "media"),
        "REGISTER_MAX_ROWS_PER_PART": str(args.max_rows_per_part),
        # the test settings with the tasks on the bench's own queue (QUEUE)
        "DJANGO_SETTINGS_MODULE": "bench_registers_settings",
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "bench")]),
    }
    _database()
    _setup(env)
    t = time.perf_counter()
    _fill(args.rows)
    print(
        f"database {DB_NAME}: {args.rows} receptions ({args.rows * 6} decks) in {time.perf_counter() - t:.1f} s; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    pipeline(env, args.rows, args.workers)
    if args.single:
        subprocess.run(
            [sys.executable, __file__, "--child-single", "--rows", str(args.rows)],
            env={**os.environ, **env},
            check=True,
        )


if __name__ == "__main__":
    main()
