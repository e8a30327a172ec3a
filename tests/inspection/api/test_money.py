"""Every API answer gives money as a string with two decimals (``"1000.00"``), never as a JSON
number: a float loses cents and reads otherwise in each client. Every list of the apps' and the
officers' API is read, and the first row's detail, as the director and as the officer."""

from __future__ import annotations

import re
from typing import Any

import pytest

from casino_ops import roles
from tests.support.samples import module_casino, module_clients, module_devices, module_samples, module_users  # noqa: F401 - made once for the module

READS = (
    "/api/tables/sessions/",
    "/api/tables/dealer-errors/",
    "/api/tables/delegations/",
    "/api/tables/authorised-minimums/",
    "/api/tables/ministry-notices/",
    "/api/depot/incidents/",
    "/api/house/tips/",
    "/api/house/orphans/",
    "/api/house/closing/",
    "/api/inspection/sessions/",
    "/api/inspection/hand-logs/",
    "/api/inspection/discrepancies/",
)
MONEY = re.compile(r"-?\d+\.\d{2}")


def _floats(data: Any, where: str = "") -> list[str]:
    """Every JSON number with a fraction in ``data``, with where it is."""
    if isinstance(data, float):
        return [f"{where}={data!r}"]
    if isinstance(data, dict):
        return [f for k, v in data.items() for f in _floats(v, f"{where}.{k}")]
    if isinstance(data, list):
        return [f for i, v in enumerate(data) for f in _floats(v, f"{where}[{i}]")]
    return []


def _rows(data: Any) -> list[Any]:
    return (
        data["results"]
        if isinstance(data, dict) and "results" in data
        else data
        if isinstance(data, list)
        else []
    )


@pytest.mark.django_db
def test_money_is_a_string_with_two_decimals_in_every_list_and_detail(clients, samples) -> None:
    found: list[str] = []
    read = 0
    for role in (roles.DIRECTOR, roles.OFFICER):
        client = clients[role]
        urls = [
            *READS,
            f"/api/tables/sessions/{samples.session.pk}/",
            f"/api/tables/sessions/{samples.session.pk}/hand-logs/",
            f"/api/tables/hand-logs/{samples.hand_log.pk}/",
            f"/api/inspection/sessions/{samples.session.pk}/",
            f"/api/inspection/hand-logs/{samples.hand_log.pk}/",
        ]
        for url in urls:
            response = client.get(url)
            if response.status_code != 200:
                continue  # not this role's to read
            read += 1
            data = response.json()
            found += [f"{role} {url}: {f}" for f in _floats(data)]
            first = _rows(data)[:1]
            if (
                first
                and isinstance(first[0], dict)
                and "id" in first[0]
                and url.startswith("/api/inspection/")
            ):
                found += [
                    f"{role} {url}{first[0]['id']}/: {f}"
                    for f in _floats(client.get(f"{url}{first[0]['id']}/").json())
                ]
    assert read > 10
    assert not found, found
    detail = clients[roles.DIRECTOR].get(f"/api/tables/sessions/{samples.session.pk}/").json()
    for key in ("minimum", "maximum", "advance_amount"):
        assert isinstance(detail[key], str) and MONEY.fullmatch(detail[key]), (key, detail[key])
