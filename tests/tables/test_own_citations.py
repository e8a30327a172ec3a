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


# -- one shoe does not unlock every log: a log of another séance's shoe (FR art. 40, LU art. 7) --


@pytest.mark.django_db
@pytest.mark.parametrize("profile,article", [("FR", "FR art. 40"), ("LU", "LU art. 7")])
def test_a_hand_log_of_another_seances_shoe_is_refused_with_its_article(
    casino, staff, client, profile, article
):
    """The séance has a shoe of its own, which used to unlock any log: a log naming the shoe of
    another séance (its decks issued to another table or day) is refused, nothing stored."""
    from tests.support import builders

    update_casino_settings(actor=staff["director"], profile=profile)  # before any act (PROFILE_FIXED)
    fund = {"guarantee_fund": D("100000.00")} if profile == "LU" else {}
    other_table = services.create_table(actor=staff["director"], number=7, code="BJ07")
    table = services.create_table(actor=staff["director"], number=3, code="BJ03")
    minimum = "10.00" if profile == "FR" else "5.00"
    opened = []
    for t in (other_table, table):
        builders.shoe_for(t, DAY, staff["director"])
        with at_day(DAY, 13):
            opened.append(
                services.open_session(
                    actor=staff["director"],
                    table=t,
                    minimum=D(minimum),
                    maximum=D("1000.00"),
                    advance_amount=D("30000.00") if profile == "FR" else D("15000.00"),
                    croupier=staff["croupier"],
                    **fund,
                )
            )
    elsewhere, session = opened
    theirs = builders.shoe(elsewhere, croupier=staff["croupier"], hour=14)
    builders.shoe(session, croupier=staff["croupier"], hour=14)
    doc = simulate_shoe(7, profile, table="BJ03", limits=(minimum, "1000.00"), shoe_id=theirs.label)
    raw = json.dumps(doc).encode()
    with at_day(DAY, 15):
        with assert_refused(
            "HAND_LOG_SHOE_OF_ANOTHER_SESSION", article=article, field="shoe_id", nothing_recorded=True
        ):
            services.upload_hand_log(actor=staff["croupier"], session=session, raw=raw, source="api")
        client.force_login(staff["croupier"])
        response = client.post(
            f"/api/tables/sessions/{session.pk}/hand-logs/", raw, content_type="application/json"
        )
    assert response.status_code == 400, response.content
    body = response.json()
    assert (body["code"], body["article"], body["field"]) == (
        "HAND_LOG_SHOE_OF_ANOTHER_SESSION",
        article,
        "shoe_id",
    )
    assert theirs.label in body["message"]
    assert not HandLog.objects.exists()
    # a label no séance filled is still received (the replay names it SHOE_UNKNOWN, the director
    # explains it, the officer closes its incident)
    unknown = simulate_shoe(7, profile, table="BJ03", limits=(minimum, "1000.00"), shoe_id="BJ03-NOWHERE")
    with at_day(DAY, 15):
        log = services.upload_hand_log(
            actor=staff["croupier"], session=session, raw=json.dumps(unknown).encode(), source="api"
        )
    assert log.shoe is None and log.shoe_label == "BJ03-NOWHERE"
