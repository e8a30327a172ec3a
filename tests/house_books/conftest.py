"""Fixtures of the other books' tests."""

from __future__ import annotations

from typing import Any

import pytest

from casino_ops import roles


@pytest.fixture
def committee(users: dict[str, Any]) -> Any:
    return users[roles.COMMITTEE]


@pytest.fixture
def croupier(users: dict[str, Any]) -> Any:
    return users[roles.CROUPIER]


@pytest.fixture
def tables_in_service(director: Any) -> list[Any]:
    """Tables 3 and 4, in service (a shoe is assigned only to such a table)."""
    from tables.services import create_table

    return [create_table(actor=director, number=n, code=f"BJ{n:02d}") for n in (3, 4)]


@pytest.fixture
def lu_casino(director: Any) -> Any:
    """The casino under the Luxembourg règlement."""
    from decimal import Decimal

    from house_books.services.casino import update_casino_settings

    return update_casino_settings(
        actor=director, name="Casino de test", profile="LU", authorised_min_stake=Decimal("5.00")
    )
