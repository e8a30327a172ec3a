"""Fixtures of the other books' tests."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def table(director: Any) -> Any:
    """Table 3 (BJ03), in service."""
    from tables.services import create_table

    return create_table(actor=director, number=3, code="BJ03")


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
