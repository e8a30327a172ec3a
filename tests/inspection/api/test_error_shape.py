"""The officers' API answers every error as the rest of the API does: ``{code, message, field,
article}`` (a bad query names its field; an unknown entry, a refused method or a visitor not
signed in say so in the same shape)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.samples import (  # noqa: F401 - made once for the module
    module_casino,
    module_clients,
    module_devices,
    module_samples,
    module_users,
)

BASE = "/api/inspection"
SHAPE = {"code", "message", "field", "article"}


def refusal(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content[:300])
    body: dict[str, Any] = response.json()
    assert set(body) == SHAPE, body
    assert body["code"] and body["message"], body
    return body


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "field", "code"),
    [
        ("sessions/?since=demain", "since", "FIELD_INVALID"),
        ("audit-events/?until=0001-01-01", "until", "FIELD_INVALID"),
        ("discrepancies/?since=0001-01-01", "since", "FIELD_INVALID"),
        (f"hand-logs/?session={2**70}", "session", "FIELD_INVALID"),
        ("proofs/inclusion/", "seq", "FIELD_REQUIRED"),
        ("proofs/inclusion/?seq=x", "seq", "FIELD_INVALID"),
        ("proofs/consistency/", "first", "FIELD_INVALID"),
        ("proofs/checkpoint/?number=0", "number", "FIELD_INVALID"),
    ],
)
def test_a_bad_query_is_the_refusal_naming_its_field(officer_client, samples, query, field, code) -> None:
    body = refusal(officer_client.get(f"{BASE}/{query}"), 400)
    assert (body["code"], body["field"]) == (code, field)
    assert body["article"] == "FR art. 68"  # the books kept without erasure, read by the officers
    assert field in body["message"]


@pytest.mark.django_db
def test_a_proof_refused_by_the_record_keeps_its_own_refusal(officer_client, samples) -> None:
    body = refusal(officer_client.get(f"{BASE}/proofs/inclusion/?seq={2**40}"), 400)
    assert (body["code"], body["field"]) == ("AUDIT_EVENT_UNKNOWN", "seq")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    ["audit-events/999999999/", "sessions/999999999/", "decks/999999999/", "proofs/checkpoint/?number=99999"],
)
def test_an_unknown_entry_is_a_404_in_the_same_shape(officer_client, samples, path) -> None:
    body = refusal(officer_client.get(f"{BASE}/{path}"), 404)
    assert body["code"] == "NOT_FOUND" and body["field"] is None


@pytest.mark.django_db
def test_a_write_and_a_visitor_not_signed_in_are_refused_in_the_same_shape(
    officer_client, samples, client
) -> None:
    body = refusal(officer_client.post(f"{BASE}/sessions/", {}, content_type="application/json"), 403)
    assert body["field"] is None
    body = refusal(client.get(f"{BASE}/sessions/"), 403)
    assert body["code"] == "NOT_AUTHENTICATED"
