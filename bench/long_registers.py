"""Benchmark of registers asked for a long period with few rows: the cost follows the rows.

    python bench/long_registers.py [--registers hours,bank-failures] [--since 2000] [--profile LU]

Builds its own database (``bench_long_registers`` on DATABASE_URL's server), migrated, the
Luxembourg demo seeded (``seed_demo --profile LU``: its books have entries in a few months
only; ``--profile FR``: the French demo, a copy of the one the other benches seed when the
tests give one, for a register of it such as ``orphans``). For each register named, asks it
as the admin and the command do (``request_report``, then ``produce_report`` making every part
in this process, as ``manage.py print_register`` does) twice:

* over a long period, from 1 January of ``--since`` to 31 December of next year;
* over the last 40 days.

Prints for each: the wall time from the request to the signed document, its entries, pages
and parts, and the time per entry. Checks its own work: both prints signed and stored, every
part with an entry (a month without any is left out: no empty page), the pages those of the
parts, the long period holding the last 40 days' entries.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.checks import create_database, database_name, expect, expect_equal, finish, load  # noqa: E402


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--registers", default="hours", help="registers to print, comma-separated")
    p.add_argument("--since", type=int, default=2000, help="the long period's first year")
    p.add_argument(
        "--profile",
        default="LU",
        choices=("LU", "FR"),
        help="the demo seeded (LU: its books have entries in a few months only; FR: the demo the "
        "other benches seed, its database a copy of theirs when the tests give one)",
    )
    p.add_argument(
        "--database", default=database_name("bench_long_registers"), help="the bench's own database"
    )
    return p.parse_args()


def main() -> None:
    args = parse_args()
    server_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    import psycopg

    admin_url = urlunsplit(urlsplit(server_url)._replace(path="/postgres")).replace(
        "postgres://", "postgresql://", 1
    )
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{args.database}" WITH (FORCE)')
        create_database(conn, args.database, seeded=args.profile == "FR")
    os.environ["DATABASE_URL"] = urlunsplit(urlsplit(server_url)._replace(path=f"/{args.database}"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections

    from audit.devcert import make_dev_certificate

    try:
        with tempfile.TemporaryDirectory() as directory:
            settings.MEDIA_ROOT = str(Path(directory) / "media")
            cert = make_dev_certificate(Path(directory) / "signer", casino="Bench")
            settings.SIGNING_PKCS12, settings.SIGNING_PKCS12_PASSWORD = str(cert.pkcs12), cert.password
            started = time.perf_counter()
            call_command("migrate", verbosity=0)
            if args.profile == "FR":
                call_command("seed_demo", "--if-empty", verbosity=0)  # seeded: a copy of the demo
            else:
                call_command("seed_demo", "--profile", "LU", verbosity=0)
            print(
                f"database {args.database}: the {args.profile} demo seeded in {time.perf_counter() - started:.1f} s "
                f"(load average {load()})",
                flush=True,
            )
            for name in [n.strip() for n in args.registers.split(",") if n.strip()]:
                measure(name, args)
    finally:
        connections.close_all()
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{args.database}" WITH (FORCE)')
    finish()


def _print(name: str, date_from: dt.date, date_to: dt.date) -> tuple[float, Any, list[Any]]:
    """The register printed over the period: (seconds, its report, its parts)."""
    from inspection.models import ReportPart
    from inspection.registers.reports import produce_report, request_report

    started = time.perf_counter()
    report = request_report(actor=None, register=name, date_from=date_from, date_to=date_to, enqueue=False)
    report = produce_report(report.pk, inline_parts=True)
    elapsed = time.perf_counter() - started
    return elapsed, report, list(ReportPart.objects.filter(report=report).select_related("part"))


def measure(name: str, args: argparse.Namespace) -> None:
    from django.utils import timezone

    today = timezone.localdate()
    long_from, long_to = dt.date(args.since, 1, 1), dt.date(today.year + 1, 12, 31)
    print(f"\n{name} (load average {load()})", flush=True)
    results = {}
    for label, date_from, date_to in (
        (f"since {args.since}", long_from, long_to),
        ("the last 40 days", today - dt.timedelta(days=40), today),
    ):
        seconds, report, parts = _print(name, date_from, date_to)
        results[label] = (seconds, report, parts)
        print(
            f"   {date_from} to {date_to} ({label}): {report.rows} entries, {report.pages} pages, "
            f"{len(parts)} parts, in {seconds:.2f} s ({seconds / max(1, report.rows) * 1e3:.0f} ms per entry)",
            flush=True,
        )
        expect(
            report.state == report.State.DONE and bool(report.sha256), f"{name}, {label}: printed and signed"
        )
        expect(
            all(not link.part.empty for link in parts) or len(parts) == 1,
            f"{name}, {label}: every part has an entry (no empty page)",
        )
        expect_equal(
            report.pages,
            sum(link.part.pages for link in parts),
            f"{name}, {label}: pages, those of its parts",
        )
    (_s, long, _p), (_s2, short, _p2) = results.values()
    expect(short.rows > 0, f"{name}: the demo's book has entries in the last 40 days ({short.rows})")
    expect(long.rows >= short.rows, f"{name}: the long period holds the last 40 days' entries")


if __name__ == "__main__":
    main()
