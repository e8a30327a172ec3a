"""The new acts in the REST API, with the usual refusal JSON {code, message, field, article}."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from tables.models import AuthorisedMinimum, Delegation
from tests.support import builders
from tests.support.refusals import assert_refused

from .conftest import DAY


def _post(client, user, url, data):
    client.force_login(user)
    return client.post(url, data=data, content_type="application/json")


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
    assert_refused(
        "FIELD_INVALID",
        response=_post(client, staff["director"], url, {**data, "approved_on": "30/11/2026"}),
        field="approved_on",
    )
    assert_refused(
        "UNKNOWN_USER",
        response=_post(client, staff["director"], url, {**data, "delegate": "nobody"}),
        field="delegate",
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
    assert_refused(
        "FIELD_INVALID",
        response=_post(
            client, staff["director"], "/api/tables/authorised-minimums/", {**data, "minimum": "abc"}
        ),
        field="minimum",
    )
    response = _post(client, staff["director"], "/api/tables/authorised-minimums/", data)
    assert response.status_code == 201, response.content
    assert AuthorisedMinimum.objects.get().stamped_at is None  # stamped by an officer (service, admin)
    listed = client.get("/api/tables/authorised-minimums/").json()
    assert listed[0]["decree_reference"] == "Arrêté du 20/11/2026"


@pytest.mark.django_db
def test_acknowledging_unknown_discrepancies_is_refused(client, staff, casino):
    assert_refused(
        "UNKNOWN_DISCREPANCY",
        response=_post(
            client, staff["director"], "/api/tables/discrepancies/acknowledge/", {"discrepancies": [999]}
        ),
        field="discrepancies",
    )
    assert_refused(
        "FIELD_INVALID",
        response=_post(
            client, staff["director"], "/api/tables/discrepancies/acknowledge/", {"discrepancies": "x"}
        ),
        field="discrepancies",
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
    assert_refused(
        "SESSION_NOT_TODAY",
        response=_post(client, staff["director"], url, {**opening, "day": DAY.isoformat()}),
        field="day",
        article="FR art. 69",
    )
    assert_refused(
        "FIELD_INVALID",
        response=_post(client, staff["director"], url, {**opening, "maximum": "abc"}),
        field="maximum",
    )
    assert_refused(
        "UNKNOWN_TABLE",
        response=_post(client, staff["director"], url, {**opening, "table": 99}),
        field="table",
    )
    unknown_notice = _post(client, staff["director"], url, {**opening, "ministry_notice": 999999})
    assert_refused("UNKNOWN_MINISTRY_NOTICE", response=unknown_notice, field="ministry_notice")
    # the message says what is missing, not only the field's name
    assert "999999" in unknown_notice.json()["message"], unknown_notice.json()
    assert_refused(
        "MAXIMUM_BY_DIRECTOR",
        response=_post(client, staff["committee"], url, opening),
        field="actor",
        article="FR art. 55-5",
    )
    assert not Session.objects.exists()
    response = _post(client, staff["director"], url, opening)
    assert response.status_code == 201, response.content
    pk = response.json()["id"]
    base = f"/api/tables/sessions/{pk}/"
    assert_refused(
        "ADVANCE_NOT_EQUAL",
        response=_post(
            client,
            staff["director"],
            base + "advances/",
            {"amount": "100.00", "counted_by": staff["croupier"].username},
        ),
        field="amount",
        article="FR art. 42",
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
    assert_refused(
        "KEY_HOLDER_ONLY",
        response=_post(client, staff["croupier"], base + "resume/", {}),
        field="actor",
        article="FR art. 69",
    )
    assert _post(client, staff["committee"], base + "resume/", {}).status_code == 201
    assert (
        _post(
            client, staff["director"], base + "maximum/", {"maximum": "2000.00", "display_changed": True}
        ).status_code
        == 201
    )
    closing = {"closing_cash": "61000.00", "counted_by": staff["croupier"].username, "certified_exact": True}
    assert_refused(
        "SIGNATURE_REQUIRED",
        response=_post(client, staff["croupier"], base + "close/", closing),
        field="actor",
        article="FR art. 69",
        status=403,
    )
    builders.play(Session.objects.get(pk=pk))  # a result only with the depot's decks in a shoe
    assert _post(client, staff["director"], base + "close/", closing).status_code == 201
    assert Session.objects.get().status == "closed"
    assert AdvanceEntry.objects.filter(session_id=pk).count() == 5
