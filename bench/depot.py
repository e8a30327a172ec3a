"""Benchmark of the card depot on PostgreSQL: a large casino's year of receptions.

Receives ``--decks`` decks (10,000 by default) through ``cards_registry.services``
(orders stamped and sent, then receptions of ``--per-reception`` decks in sixains,
each with its receipt-book number, serial checks, cabinet opening and audit event),
then lists the whole receipt book through ``cards_registry.selectors.receipt_book``
reading every field a printed register needs.

Prints the decks received per second, and the list's time and query count, for one
entry and for the whole book: the count must not grow with the book's size (asserted).

Usage: python bench/depot.py [--decks 10000] [--per-reception 60]
It creates (and drops at the end) its own database ``bench_depot`` on the server
named by DATABASE_URL (default: postgres on 127.0.0.1).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
SERVER_URL = BASE_URL.rsplit("/", 1)[0]
from bench.checks import create_database, database_name, expect, expect_equal, finish, load  # noqa: E402

DB_NAME = database_name("bench_depot")


def _database(drop_only: bool = False) -> None:
    import psycopg

    with psycopg.connect(f"{SERVER_URL}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        if not drop_only:
            create_database(conn, DB_NAME)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--decks", type=int, default=10_000)
    parser.add_argument("--per-reception", type=int, default=60, help="decks per delivery (a multiple of 6)")
    args = parser.parse_args()
    if args.per_reception % 6:
        parser.error("--per-reception must be a multiple of 6 (deliveries come in sixains)")

    _database()
    os.environ["DATABASE_URL"] = f"{SERVER_URL}/{DB_NAME}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    try:
        run(args)
    finally:
        from django.db import connections

        connections.close_all()
        _database(drop_only=True)
    finish()


def _walk(receptions) -> int:
    """Read what a printed receipt book prints; return the number of decks seen."""
    seen = 0
    for r in receptions:
        _ = (r.book.number, r.number, r.received_on, r.order.number, r.order.book.number, r.manufacturer.name)
        _ = (r.recorded_by.username, r.delivery_note, r.over_delivery)
        visa = getattr(r, "visa", None)
        _ = (visa.officer.username, visa.at) if visa else None
        _ = [s.serial for s in r.sixains.all()]
        for deck in r.decks.all():
            _ = (deck.serial, deck.back_colour, deck.sixain_id)
            seen += 1
        _ = [(c.field, c.new_value, c.approved_by.username) for c in r.corrections.all()]
    return seen


def run(args: argparse.Namespace) -> None:
    import datetime as dt

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from cards_registry import selectors, services
    from casino_ops import roles
    from house_books.services.casino import update_casino_settings
    from tests.support import builders

    User = get_user_model()
    director = User.objects.create_user(username="directeur")
    director.groups.add(Group.objects.get(name=roles.DIRECTOR))
    officer = User.objects.create_user(username="officier")
    officer.groups.add(Group.objects.get(name=roles.OFFICER))
    builders.enrol_officer(officer)  # by the tests' demo authority, with the demo passkey
    update_casino_settings(actor=director, name="Casino (banc d'essai)", profile="FR")
    maker = builders.approved_maker(
        director,
        code="BENCH",
        name="Cartes du banc d'essai",
        approval_reference="INT-BENCH-1",
        valid_from=dt.date(2000, 1, 1),
    )
    builders.cabinet_key(director)

    today = timezone.localdate()
    per = args.per_reception
    deliveries = []
    remaining = args.decks
    while remaining > 0:
        deliveries.append(min(per, remaining))
        remaining -= per
    year_start = today - dt.timedelta(days=364)

    def delivery(index: int, size: int) -> tuple[list[dict], list[dict]]:
        sixains, loose = [], []
        for s in range(size // 6):
            sixains.append(
                {
                    "serial": f"SX{index:05d}-{s:02d}",
                    "decks": [
                        {"serial": f"{index:05d}-{s:02d}-{d}", "back_colour": "bleu" if d < 3 else "rouge"}
                        for d in range(6)
                    ],
                }
            )
        for d in range(size % 6):
            loose.append({"serial": f"{index:05d}-L{d}", "back_colour": "bleu"})
        return sixains, loose

    # One monthly order covers that month's deliveries (stamped and sent before).
    months = 12
    orders = []
    per_month = -(-len(deliveries) // months)
    for m in range(months):
        decks_this_month = sum(deliveries[m * per_month : (m + 1) * per_month])
        if not decks_this_month:
            continue
        order = services.create_order(
            actor=director,
            manufacturer=maker,
            ordered_on=year_start + dt.timedelta(days=30 * m),
            lines=[
                {"quantity": -(-decks_this_month // 2), "unit": "deck", "back_colour": "bleu"},
                {"quantity": -(-decks_this_month // 2), "unit": "deck", "back_colour": "rouge"},
            ],
        )
        services.stamp_order(actor=officer, order=order)
        services.send_order(actor=director, order=order)
        orders.append(order)

    started = time.perf_counter()
    for index, size in enumerate(deliveries):
        sixains, loose = delivery(index, size)
        order = orders[min(index // per_month, len(orders) - 1)]
        received_on = year_start + dt.timedelta(days=index * 364 // max(1, len(deliveries) - 1))
        with builders.at_day(received_on):  # a reception is written the day the decks arrive (FR art. 39)
            services.receive(
                actor=director,
                order=order,
                received_on=received_on,
                sixains=sixains,
                decks=loose,
                delivery_note=f"BL {index:05d}",
            )
    elapsed = time.perf_counter() - started
    from audit.models import AuditEvent
    from cards_registry.models import Deck, Reception

    expect_equal(Deck.objects.count(), args.decks, "decks in the cabinet")
    expect_equal(Reception.objects.count(), len(deliveries), "receipt-book entries")
    expect_equal(AuditEvent.objects.filter(seq__isnull=True).count(), 0, "events left unsealed")
    print(f"received {args.decks} decks in {len(deliveries)} receipt-book entries ({per} decks each)")
    print(
        f"  {elapsed:.2f} s, {args.decks / elapsed:,.0f} decks/s, {len(deliveries) / elapsed:,.1f} entries/s "
        f"(load average {load()})"
    )

    # Stamp and correct a few entries so the list also reads visas and corrections.
    first = selectors.receipt_book(year_start, year_start).first()
    services.stamp_reception(actor=officer, reception=first)
    services.record_correction(
        actor=director,
        entry=first,
        field="delivery_note",
        new_value="BL corrigé",
        reason="copie",
        approval="Approuvé par le directeur",
    )

    with CaptureQueriesContext(connection) as one:
        t0 = time.perf_counter()
        seen_one = _walk(selectors.receipt_book(year_start, year_start))
        t_one = time.perf_counter() - t0
    with CaptureQueriesContext(connection) as whole:
        t0 = time.perf_counter()
        seen_all = _walk(selectors.receipt_book(year_start, today))
        t_all = time.perf_counter() - t0
    print(
        f"receipt book, one entry:   {seen_one:>6} decks, {t_one * 1000:8.1f} ms, {len(one.captured_queries)} queries"
    )
    print(
        f"receipt book, whole year:  {seen_all:>6} decks, {t_all * 1000:8.1f} ms, {len(whole.captured_queries)} queries"
    )
    expect_equal(seen_all, args.decks, "decks read in the whole year's book")
    expect(
        len(whole.captured_queries) == len(one.captured_queries),
        f"query count independent of the book's size ({len(one.captured_queries)} and "
        f"{len(whole.captured_queries)})",
    )


if __name__ == "__main__":
    main()
