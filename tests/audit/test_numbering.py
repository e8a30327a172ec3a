"""The numbered books proven without gaps (audit.books.numbering; FR art. 39, 68; LU art. 6, 10).

The order book's counter moved forward or back behind the application's back: the next order
is refused with its article (no n° 21 after n° 15, no IntegrityError), and ``verify_audit``
names the counter. Numbers edited behind the guard: every gap, every number given twice and
every number written out of order is named, in every numbered book.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from audit.books.numbering import series_problems
from cards_registry import services as depot
from cards_registry.models import Order
from casino_ops import roles
from tables.models import AdvanceEntry
from tests.support import builders
from tests.support.guards import behind_the_guard
from tests.support.tampering import every_book_written, run_verify_audit


def _verify(capsys: Any) -> tuple[int, str]:
    code, _out, err = run_verify_audit(capsys, "--no-witness")
    return code, err


def _orders(users: dict[str, Any], count: int) -> list[Order]:
    director = users[roles.DIRECTOR]
    maker = builders.approved_maker(director)
    return [
        depot.create_order(
            actor=director,
            manufacturer=maker,
            ordered_on=timezone.localdate(),
            lines=[{"quantity": 6, "unit": "deck", "back_colour": "bleu"}],
        )
        for _ in range(count)
    ]


def _order(users: dict[str, Any]) -> Order:
    return depot.create_order(
        actor=users[roles.DIRECTOR],
        manufacturer=Order.objects.first().manufacturer,
        ordered_on=timezone.localdate(),
        lines=[{"quantity": 6, "unit": "deck", "back_colour": "bleu"}],
    )


def test_a_series_names_its_gaps_its_repeats_and_its_reorders():
    assert series_problems("b", [(1, 1), (2, 2), (3, 3)]) == []
    assert series_problems("b", [(1, 1), (2, 2), (3, 7)]) == ["b: n° 3 to 6 missing (after n° 2, pk 2)"]
    assert series_problems("b", [(1, 2), (2, 3)]) == ["b: n° 1 missing"]
    assert series_problems("b", [(1, 1), (2, 2), (3, 2)]) == ["b: n° 2 given twice (pk 2 and pk 3)"]
    assert series_problems("b", [(1, 1), (2, 3), (3, 2)]) == ["b: n° 2 (pk 3) was written after n° 3 (pk 2)"]


@pytest.mark.django_db
@pytest.mark.parametrize("moved", [5, -2])
def test_an_order_book_counter_moved_is_refused_and_named(users, casino, capsys, moved):
    orders = _orders(users, 3)
    book = orders[0].book
    assert _verify(capsys) == (0, "")
    with connection.cursor() as cursor:  # the counter has no guard: moved as a superuser could
        cursor.execute("UPDATE cards_registry_book SET last_number = last_number + %s", [moved])
    with builders.assert_refused(
        "BOOK_COUNTER_OUT_OF_STEP", article="FR art. 39", field=None, nothing_recorded=True
    ) as refusal:
        _order(users)
    assert f"n° {3 + moved}" in refusal.value.message and "n° 3" in refusal.value.message
    assert Order.objects.count() == 3
    code, err = _verify(capsys)
    assert code == 1
    assert (
        f"BOOK: cards_registry_book pk {book.pk}: its counter last_number says n° {3 + moved}, "
        "the last entry of cards_registry_order in it is n° 3"
    ) in err


@pytest.mark.django_db
def test_order_numbers_edited_behind_the_guard_are_named_gap_repeat_and_reorder(users, casino, capsys):
    orders = _orders(users, 4)
    book = orders[0].book
    label = f"cards_registry_order (book {book.pk})"
    with behind_the_guard(Order), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE cards_registry_order DROP CONSTRAINT IF EXISTS depot_order_unique_number")
        cursor.execute("UPDATE cards_registry_order SET number = 9 WHERE id = %s", [orders[3].pk])
        cursor.execute("UPDATE cards_registry_order SET number = 1 WHERE id = %s", [orders[1].pk])
    code, err = _verify(capsys)
    assert code == 1
    assert f"BOOK: {label}: n° 1 given twice (pk {orders[0].pk} and pk {orders[1].pk})" in err
    assert f"BOOK: {label}: n° 2 missing (after n° 1, pk {orders[0].pk})" in err
    assert f"BOOK: {label}: n° 4 to 8 missing (after n° 3, pk {orders[2].pk})" in err
    assert f"cards_registry_book pk {book.pk}: its counter last_number says n° 4" in err
    with behind_the_guard(Order), connection.cursor() as cursor:
        cursor.execute("UPDATE cards_registry_order SET number = 2 WHERE id = %s", [orders[3].pk])
        cursor.execute("UPDATE cards_registry_order SET number = 4 WHERE id = %s", [orders[1].pk])
    _code, err = _verify(capsys)
    assert f"BOOK: {label}: n° 2 (pk {orders[3].pk}) was written after n° 4 (pk {orders[1].pk})" in err


@pytest.mark.django_db
def test_every_numbered_book_is_checked_and_an_advance_line_gap_is_named(
    users, casino, capsys, django_capture_on_commit_callbacks
):
    found = every_book_written(users, django_capture_on_commit_callbacks)
    assert _verify(capsys) == (0, "")
    advance = found["advance"]
    last = AdvanceEntry.objects.filter(table=advance.table).order_by("-line").first()
    with behind_the_guard(AdvanceEntry), connection.cursor() as cursor:
        cursor.execute("UPDATE tables_advanceentry SET line = line + 3 WHERE id = %s", [last.pk])
    code, err = _verify(capsys)
    assert code == 1
    assert (
        f"BOOK: tables_advanceentry (table {advance.table_id}): n° {last.line} to {last.line + 2} missing"
        in err
    )
    from audit.books import numberings

    assert {n.table for n in numberings()} == {
        "cards_registry_book",
        "cards_registry_order",
        "cards_registry_reception",
        "cards_registry_incident",
        "cards_registry_destruction",
        "tables_advanceentry",
        "tables_shoe",
        "house_books_orphanentry",
        "house_books_shoedevice",
    }


@pytest.mark.django_db
def test_the_monthly_numbering_exception_report_is_a_signed_register(
    users, casino, signing_configured, tmp_path, django_capture_on_commit_callbacks
):
    """Its numbers given, each gap with its explanation, each entry replaced by a correction with
    the correction's explanation; printed and signed like every register."""
    import datetime as dt
    from decimal import Decimal

    from inspection.registers import get_register
    from inspection.registers.base import Request
    from tables import services as floor
    from tables.models import EntryKind
    from tests.audit.conftest import pdf_text

    found = every_book_written(users, django_capture_on_commit_callbacks)
    closing = found["session"].entries.get(kind=EntryKind.CLOSING)
    correction = floor.correct_advance_entry(
        actor=users[roles.DIRECTOR],
        entry=closing,
        amount=Decimal("61500.00"),
        approval="Approuvé : soixante et un mille cinq cents euros",
        reason="plaque de 500 oubliée au comptage",
    )
    order = Order.objects.get()
    with behind_the_guard(Order), connection.cursor() as cursor:
        cursor.execute("UPDATE cards_registry_order SET number = 3 WHERE id = %s", [order.pk])
    today = timezone.localdate()
    request = Request(today - dt.timedelta(days=31), today + dt.timedelta(days=1))
    sections = get_register("numbering").context(request)["sections"]
    given, exceptions, replaced = ([[c[0] for c in r["cells"]] for r in s["rows"]] for s in sections)
    assert any(str(row[0]).startswith("carnets d'avances") or "avance" in str(row[0]) for row in given), given
    assert [str(e[1]) for e in exceptions] == [
        "n° 1 to 2 missing",
        f"cards_registry_book pk {order.book_id}: its counter last_number says n° 1, "
        "the last entry of cards_registry_order in it is n° 3",
    ]
    assert all("à justifier" in str(e[2]) for e in exceptions)
    assert [(r[1], r[2]) for r in replaced] == [(closing.line, correction.line)]
    assert "oubliée" in str(replaced[0][3]) or replaced[0][3]
    pdf = tmp_path / "numbering.pdf"
    call_command(
        "register",
        "numbering",
        "--from",
        request.date_from.isoformat(),
        "--to",
        request.date_to.isoformat(),
        "--output",
        str(pdf),
        verbosity=0,
    )
    text = " ".join(pdf_text(pdf).split())
    assert "EXCEPTIONS DE NUMÉROTATION" in text.upper() and "n° 1 to 2 missing" in text
