"""The officers' API filters refuse absurd dates and numbers with a 400 naming the field."""

from __future__ import annotations

import pytest

from tests.support.samples import module_casino, module_clients, module_devices, module_samples, module_users  # noqa: F401 - made once for the module

BASE = "/api/inspection"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("audit-events/?since=9999-01-01", "since"),
        ("audit-events/?until=0001-01-01", "until"),
        ("sessions/?since=9999-12-31", "since"),
        ("discrepancies/?since=0001-01-01", "since"),
        (f"hand-logs/?session={2**70}", "session"),
    ],
)
def test_an_absurd_filter_is_a_400_naming_the_field(officer_client, samples, query, field) -> None:
    response = officer_client.get(f"{BASE}/{query}")
    assert response.status_code == 400, response.status_code
    assert response.json()["field"] == field
