"""Each refusal cites its own rule: a table out of service (the table put in play, FR art. 69,
LU art. 10), a hand log of another table (the game at the séance's table, FR art. 55-4,
LU art. 32), the decree's dates of the authorised minimum (FR art. 55-5, LU art. 33); through
the service, the admin and the API."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from audit.models import AuditEvent
from casino_ops.regulations import cite
from house_books.services.casino import update_casino_settings
from tables import services
from tables.blackjack.simulator import simulate_shoe
from tables.models import AuthorisedMinimum, HandLog, Session
from tests.support.builders import assert_refused, gaming_day

from .conftest import DAY, at_day

D = Decimal


def test_the_rules_have_their_own_keys():
    assert cite("table.in_service", "FR") == "FR art. 69" and cite("table.in_service", "LU") == "LU art. 10"
    assert cite("hand_log.table", "FR") == "FR art. 55-4" and cite("hand_log.table", "LU") == "LU art. 32"
    # not the advance book's (FR art. 42, LU art. 9), which they cited before
    assert cite("table.in_service", "FR") != cite("advance.book", "FR")
    assert cite("hand_log.table", "LU") != cite("advance.book", "LU")


@pytest.mark.django_db
@pytest.mark.parametrize("profile,article", [("FR", "FR art. 69"), ("LU", "LU art. 10")])
def test_a_table_out_of_service_cites_its_rule(casino, staff, profile, article, client):
    update_casino_settings(actor=staff["director"], profile=profile)  # before any act (PROFILE_FIXED)
    table = services.create_table(actor=staff["director"], number=3, code="BJ03")
    services.set_table_in_service(actor=staff["director"], table=table, in_service=False)
    with assert_refused("TABLE_OUT_OF_SERVICE", article=article, field="table", nothing_recorded=True):
        services.open_session(
            actor=staff["director"],
            table=table,
            minimum=D("10.00"),
            maximum=D("1000.00"),
            advance_amount=D("30000.00"),
            croupier=staff["croupier"],
            guarantee_fund=D("100000.00"),
        )
    client.force_login(staff["director"])
    response = client.post(
        "/api/tables/sessions/open/",
        {
            "table": table.number,
            "minimum": "10.00",
            "maximum": "1000.00",
            "advance_amount": "30000.00",
            "croupier": staff["croupier"].username,
            "guarantee_fund": "100000.00",
        },
        content_type="application/json",
    )
    assert response.status_code == 400, response.content
    assert (response.json()["code"], response.json()["article"]) == ("TABLE_OUT_OF_SERVICE", article)
    assert not Session.objects.exists()


def _log_of(table_code: str) -> bytes:
    return json.dumps(simulate_shoe(7, "FR", table=table_code, limits=("10.00", "1000.00"))).encode()


@pytest.mark.django_db
def test_a_hand_log_of_another_table_cites_its_rule(staff, open_session, client):
    with assert_refused("HAND_LOG_TABLE", article="FR art. 55-4", field="table", nothing_recorded=True):
        services.upload_hand_log(
            actor=staff["croupier"], session=open_session, raw=_log_of("BJ07"), source="api"
        )
    client.force_login(staff["croupier"])
    response = client.post(
        f"/api/tables/sessions/{open_session.pk}/hand-logs/", _log_of("BJ07"), content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert (response.json()["code"], response.json()["article"]) == ("HAND_LOG_TABLE", "FR art. 55-4")
    assert not HandLog.objects.exists()


DECREE = {
    "minimum": "2.00",
    "decree_reference": "Arrêté du 20/11/2026",
    "decree_date": "2026-11-20",
    "in_force_on": "2026-11-19",  # before the decree's own date
}


@pytest.mark.django_db
@pytest.mark.parametrize("profile,article", [("FR", "FR art. 55-5"), ("LU", "LU art. 33")])
def test_decree_dates_refused_with_the_article(staff, casino, profile, article, client):
    update_casino_settings(actor=staff["director"], profile=profile)
    events = AuditEvent.objects.count()
    with assert_refused("DECREE_DATES", article=article, field="in_force_on"):
        services.record_authorised_minimum(
            actor=staff["director"],
            minimum=D("2.00"),
            decree_reference="Arrêté du 20/11/2026",
            decree_date=DAY.replace(day=20),
            in_force_on=DAY.replace(day=19),
        )
    client.force_login(staff["director"])
    response = client.post("/api/tables/authorised-minimums/", DECREE, content_type="application/json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert (body["code"], body["article"], body["field"]) == ("DECREE_DATES", article, "in_force_on")
    page = client.post("/admin/tables/authorisedminimum/add/", DECREE)
    assert page.status_code == 200 and article in page.content.decode()
    assert not AuthorisedMinimum.objects.exists() and AuditEvent.objects.count() == events
    # the same decree in force on its date is recorded
    with at_day(gaming_day()):
        services.record_authorised_minimum(
            actor=staff["director"],
            minimum=D("2.00"),
            decree_reference="Arrêté du 20/11/2026",
            decree_date=DAY.replace(day=20),
            in_force_on=DAY.replace(day=20),
        )
    assert AuthorisedMinimum.objects.count() == 1
