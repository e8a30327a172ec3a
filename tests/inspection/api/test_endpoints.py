"""The officers' API: what each endpoint returns, filters, and a bounded number of queries."""

from __future__ import annotations

import pytest

from tests.support.samples import module_casino, module_clients, module_devices, module_samples, module_users  # noqa: F401 - made once for the module

BASE = "/api/inspection"


@pytest.mark.django_db
def test_hand_log_detail_carries_the_engines_report(
    officer_client, samples, django_assert_num_queries
) -> None:
    with django_assert_num_queries(5):
        data = officer_client.get(f"{BASE}/hand-logs/{samples.hand_log.pk}/").json()
    assert data["replay"]["ok"] is False
    assert data["report"]["discrepancies"][0]["code"] == "SETTLEMENT_MISMATCH"
    assert data["report"]["rounds"][0]["dealer"]["total"] == 17


@pytest.mark.django_db
def test_lists_filter_and_keep_their_query_count(officer_client, samples, django_assert_num_queries) -> None:
    # each list in a fixed number of queries, however many rows it pages: the sign-in (session,
    # user, the officer's enrolment, roles), then the count and the page; the checkpoints add the
    # chain's hashes at the page's checkpoints, one query for the page (the samples now hold a
    # checkpoint: a signed register is issued under one)
    for url, queries in (
        (f"{BASE}/decks/?serial=A1", 6),
        (f"{BASE}/sessions/?table=3", 6),
        (f"{BASE}/hand-logs/?ok=false", 6),
        (f"{BASE}/discrepancies/?code=SETTLEMENT_MISMATCH", 6),
        (f"{BASE}/audit-events/?action=depot.", 5),
        (f"{BASE}/reports/", 6),
        (f"{BASE}/checkpoints/", 7),
    ):
        with django_assert_num_queries(queries):
            response = officer_client.get(url)
        assert response.status_code == 200, url
    decks = officer_client.get(f"{BASE}/decks/?serial=A1").json()
    assert decks["count"] == 6 and {d["serial"] for d in decks["results"]} == {f"A1-{i}" for i in range(1, 7)}
    discrepancies = officer_client.get(f"{BASE}/discrepancies/?code=SETTLEMENT_MISMATCH").json()["results"]
    assert discrepancies[0]["article"] == "FR art. 55-4 1°" and discrepancies[0]["table"] == "BJ03"


@pytest.mark.django_db
def test_bad_filter_is_a_400_naming_the_field(officer_client, samples) -> None:
    response = officer_client.get(f"{BASE}/sessions/?since=demain")
    assert response.status_code == 400 and response.json()["field"] == "since"


@pytest.mark.django_db
def test_deck_detail_is_its_life(officer_client, samples) -> None:
    data = officer_client.get(f"{BASE}/decks/{samples.deck.pk}/").json()
    assert data["serial"] == "A1-1" and data["history"] and data["history"][0]["audit_seq"]


@pytest.mark.django_db
def test_report_by_sha256_and_its_pdf(officer_client, samples) -> None:
    report = samples.report
    (found,) = officer_client.get(f"{BASE}/reports/?sha256={report.sha256}").json()["results"]
    assert found["register"] == "receipt-book" and found["download"] == f"{BASE}/reports/{report.pk}/pdf/"
    pdf = officer_client.get(found["download"])
    assert pdf["Content-Type"] == "application/pdf"


@pytest.mark.django_db
def test_checkpoint_and_its_chain(officer_client, samples) -> None:
    checkpoint = samples.checkpoint
    data = officer_client.get(f"{BASE}/checkpoints/").json()["results"]
    assert data[0]["seq"] == checkpoint.seq and data[0]["chain_matches"] is True
    one = officer_client.get(f"{BASE}/checkpoints/{checkpoint.seq}/").json()
    assert one["head_hash"] == checkpoint.head_hash and one["signature"]


@pytest.mark.django_db
def test_token_authentication(samples) -> None:
    from django.test import Client
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=samples.users["officier"])
    client = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get(f"{BASE}/sessions/").status_code == 200
    other = Token.objects.create(user=samples.users["caissier"])
    assert Client(HTTP_AUTHORIZATION=f"Token {other.key}").get(f"{BASE}/sessions/").status_code == 404
