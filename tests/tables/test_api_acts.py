"""The new acts in the REST API, with the usual refusal JSON {code, message, field, article}."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from tables.models import AuthorisedMinimum, Delegation
from tests.support import builders

from .conftest import DAY


def _post(client, user, url, data):
    client.force_login(user)
    return client.post(url, data=data, content_type="application/json")


def _refusal(response, code, field=None, article=None, status=400):
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert set(body) == {"code", "message", "field", "article"}
    assert body["code"] == code, body
    if field is not None:
        assert body["field"] == field, body
    if article is not None:
        assert body["article"] == article, body
    return body


@pytest.mark.django_db
def test_delegation_through_the_api(client, staff, casino):
    url = "/api/tables/delegations/"
    data = {
        "delegate": staff["committee"].username,
        "approval_reference": "Agrément MJ 2026-14",
        "approved_on": DAY.isoformat(),
        "valid_from": DAY.isoformat(),
    }
    assert _post(client, staff["committee"], url, data).status_code == 403  # the director's act
    _refusal(
        _post(client, staff["director"], url, {**data, "approved_on": "30/11/2026"}),
        "FIELD_INVALID",
        "approved_on",
    )
    _refusal(
        _post(client, staff["director"], url, {**data, "delegate": "nobody"}), "UNKNOWN_USER", "delegate"
    )
    assert not Delegation.objects.exists()
    response = _post(client, staff["director"], url, data)
    assert response.status_code == 201, response.content
    assert Delegation.objects.get().delegate == staff["committee"]
    assert AuditEvent.objects.filter(action="delegation.granted").count() == 1


@pytest.mark.django_db
def test_authorised_minimum_recorded_through_the_api(client, staff, casino):
    data = {
        "minimum": "2.00",
        "decree_reference": "Arrêté du 20/11/2026",
        "decree_date": "2026-11-20",
        "in_force_on": "2026-11-25",
    }
    _refusal(
        _post(client, staff["director"], "/api/tables/authorised-minimums/", {**data, "minimum": "abc"}),
        "FIELD_INVALID",
        "minimum",
    )
    response = _post(client, staff["director"], "/api/tables/authorised-minimums/", data)
    assert response.status_code == 201, response.content
    assert AuthorisedMinimum.objects.get().stamped_at is None  # stamped by an officer (service, admin)
    listed = client.get("/api/tables/authorised-minimums/").json()
    assert listed[0]["decree_reference"] == "Arrêté du 20/11/2026"


@pytest.mark.django_db
def test_acknowledging_unknown_discrepancies_is_refused(client, staff, casino):
    _refusal(
        _post(client, staff["director"], "/api/tables/discrepancies/acknowledge/", {"discrepancies": [999]}),
        "UNKNOWN_DISCREPANCY",
        "discrepancies",
    )
    _refusal(
        _post(client, staff["director"], "/api/tables/discrepancies/acknowledge/", {"discrepancies": "x"}),
        "FIELD_INVALID",
        "discrepancies",
    )


@pytest.mark.django_db
def test_a_session_day_through_the_api(client, staff, table):
    from tables.models import AdvanceEntry, Session

    opening = {
        "table": table.number,
        "minimum": "10.00",
        "maximum": "1000.00",
        "advance_amount": "30000.00",
        "croupier": staff["croupier"].username,
    }
    url = "/api/tables/sessions/open/"
    _refusal(
        _post(client, staff["director"], url, {**opening, "day": DAY.isoformat()}),
        "SESSION_NOT_TODAY",
        "day",
        "FR art. 69",
    )
    _refusal(_post(client, staff["director"], url, {**opening, "maximum": "abc"}), "FIELD_INVALID", "maximum")
    _refusal(_post(client, staff["director"], url, {**opening, "table": 99}), "UNKNOWN_TABLE", "table")
    _refusal(_post(client, staff["committee"], url, opening), "MAXIMUM_BY_DIRECTOR", "actor", "FR art. 55-5")
    assert not Session.objects.exists()
    response = _post(client, staff["director"], url, opening)
    assert response.status_code == 201, response.content
    pk = response.json()["id"]
    base = f"/api/tables/sessions/{pk}/"
    _refusal(
        _post(
            client,
            staff["director"],
            base + "advances/",
            {"amount": "100.00", "counted_by": staff["croupier"].username},
        ),
        "ADVANCE_NOT_EQUAL",
        "amount",
        "FR art. 42",
    )
    ok = _post(
        client,
        staff["director"],
        base + "advances/",
        {"amount": "30000.00", "counted_by": staff["croupier"].username},
    )
    assert ok.status_code == 201, ok.content
    locked = _post(
        client,
        staff["croupier"],
        base + "interrupt/",
        {"mode": "locked", "key_holder": staff["committee"].username},
    )
    assert locked.status_code == 201, locked.content
    _refusal(_post(client, staff["croupier"], base + "resume/", {}), "KEY_HOLDER_ONLY", "actor", "FR art. 69")
    assert _post(client, staff["committee"], base + "resume/", {}).status_code == 201
    assert (
        _post(
            client, staff["director"], base + "maximum/", {"maximum": "2000.00", "display_changed": True}
        ).status_code
        == 201
    )
    closing = {"closing_cash": "61000.00", "counted_by": staff["croupier"].username, "certified_exact": True}
    _refusal(
        _post(client, staff["croupier"], base + "close/", closing),
        "SIGNATURE_REQUIRED",
        "actor",
        "FR art. 69",
        status=403,  # a missing role (casino_ops.access.RoleRequired)
    )
    builders.play(Session.objects.get(pk=pk))  # a result only with the depot's decks in a shoe
    assert _post(client, staff["director"], base + "close/", closing).status_code == 201
    assert Session.objects.get().status == "closed"
    assert AdvanceEntry.objects.filter(session_id=pk).count() == 5
