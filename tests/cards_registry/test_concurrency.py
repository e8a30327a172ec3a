"""Numbered books under concurrency: real PostgreSQL connections, one thread each.

20 concurrent orders and 20 concurrent receptions never share or skip a number
(FR art. 39, books numbered without gaps), even when one reception is refused
after the others have taken their numbers, and even when the first books are
opened by the racing acts themselves.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections
from django.utils import timezone

from audit.chain import verify_chain
from cards_registry import services
from cards_registry.models import Book, Order, Reception
from casino_ops.regulations import RegulationError

from .conftest import sixain_data

N = 20


def _in_threads(n: int, work: Callable[[int], Any]) -> tuple[dict[int, Any], dict[int, BaseException]]:
    barrier = threading.Barrier(n)
    results: dict[int, Any] = {}
    errors: dict[int, BaseException] = {}

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work(index)
        except BaseException as exc:  # inspected by the test
            errors[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, errors


@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_orders_and_receptions_keep_their_books_gapless(
    director: Any, officer: Any, maker: Any, key: Any
) -> None:
    assert not Book.objects.exists()  # the racing acts open the first books themselves
    today = timezone.localdate()

    def order_and_send(index: int) -> int:
        order = services.create_order(
            actor=director,
            manufacturer=maker,
            ordered_on=today,
            lines=[
                {"quantity": 3, "unit": "deck", "back_colour": "bleu"},
                {"quantity": 3, "unit": "deck", "back_colour": "rouge"},
            ],
        )
        services.stamp_order(actor=officer, order=order)
        services.send_order(actor=director, order=order)
        return order.number

    numbers, errors = _in_threads(N, order_and_send)
    assert not errors, errors
    assert sorted(numbers.values()) == list(range(1, N + 1))
    orders = list(Order.objects.order_by("number"))

    def reception(index: int) -> int:
        # Threads 0 and 1 deliver the same serials: one of them must be refused.
        prefix = "DUP" if index in (0, 1) else f"T{index}"
        return services.receive(
            actor=director, order=orders[index], received_on=today, sixains=[sixain_data(prefix)]
        ).number

    numbers, errors = _in_threads(N, reception)
    assert len(errors) == 1, errors
    [error] = errors.values()
    assert isinstance(error, RegulationError) and error.code == "SERIAL_ALREADY_KNOWN"
    assert error.article == "FR art. 39"
    assert sorted(numbers.values()) == list(range(1, N))  # no number shared, none skipped
    assert sorted(Reception.objects.values_list("number", flat=True)) == list(range(1, N))
    assert Book.objects.get(kind="receipt").last_number == N - 1
    assert Book.objects.get(kind="order").last_number == N
    result = verify_chain()
    assert result.ok, result
