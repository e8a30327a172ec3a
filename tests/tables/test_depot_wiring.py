"""The tables call the card depot: no session nor day closed while its decks are out."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest

from cards_registry import services as depot
from casino_ops.regulations import RegulationError
from tables import services
from tables.models import ControlDay, SessionStatus
from tests.support.builders import at_day, gaming_day
from tests.support.depot_helpers import issue_and_check, shoe_with_a_foreign_card


def _close(staff, session):
    return services.close_session(
        actor=staff["director"],
        session=session,
        closing_cash=D("30000.00"),
        counted_by=staff["croupier"],
        certified_exact=True,
    )


@pytest.mark.django_db
def test_a_session_and_its_day_stay_open_while_the_tables_decks_are_out(staff, depot_decks, today_session):
    a1 = [d for d in depot_decks if d.serial.startswith("A1-")]
    day, number = today_session.day, today_session.table.number
    issue_and_check(
        director=staff["director"], croupier=staff["croupier"], table_number=number, day=day, decks=a1
    )
    with pytest.raises(RegulationError) as info:
        _close(staff, today_session)
    err = info.value
    assert err.code == "DECKS_NOT_RETURNED" and err.article == "FR art. 40" and err.field == "session"
    assert "A1-1" in str(err)
    today_session.refresh_from_db()
    assert today_session.status == SessionStatus.OPEN
    # decks of another table out that day: this session may close, the day may not
    depot.return_decks(
        actor=staff["director"], table_number=number, day=day, results=[(d, "fit", "", 52) for d in a1]
    )
    services.create_table(actor=staff["director"], number=4, code="BJ04")
    depot.issue_decks(
        actor=staff["director"], table_number=4, day=day, decks=a1, received_by=staff["croupier"]
    )
    _close(staff, today_session)
    after_midnight = at_day(day + dt.timedelta(days=1), 1)  # the day has ended
    with after_midnight, pytest.raises(RegulationError) as info:
        services.close_day(actor=staff["director"], day=day)
    assert info.value.code == "DECKS_NOT_RETURNED" and info.value.field == "day" and "A1-1" in str(info.value)
    assert not ControlDay.objects.filter(day=day, closed_at__isnull=False).exists()
    depot.return_decks(
        actor=staff["director"], table_number=4, day=day, results=[(d, "fit", "", 52) for d in a1]
    )
    with at_day(day + dt.timedelta(days=1), 1):
        assert services.close_day(actor=staff["director"], day=day).is_closed


def _upload(staff, session, log, capture):
    import json

    with capture(execute=True):
        return services.upload_hand_log(
            actor=staff["croupier"], session=session, raw=json.dumps(log).encode(), source="api"
        )


@pytest.mark.django_db
def test_a_foreign_card_found_by_the_replay_is_a_card_incident_on_the_shoes_decks(
    staff, depot_decks, today_session, django_capture_on_commit_callbacks
):
    from cards_registry.models import DeckStatus, Incident
    from tables.models import Discrepancy

    a1, shoe, log = shoe_with_a_foreign_card(staff, depot_decks, today_session)
    received = _upload(staff, today_session, log, django_capture_on_commit_callbacks)
    assert Discrepancy.objects.filter(hand_log=received, code="INVALID_CARD").exists()
    incident = Incident.objects.get()
    assert incident.route == "replay" and incident.kind == "foreign" and incident.shoe_reference == shoe.label
    assert sorted(incident.decks.values_list("serial", flat=True)) == [d.serial for d in a1]
    assert {d.status for d in incident.decks.all()} == {DeckStatus.QUARANTINED}
    assert not Discrepancy.objects.filter(code="SHOE_UNKNOWN").exists()


@pytest.mark.django_db
def test_a_hand_log_of_a_shoe_the_session_never_filled_is_a_discrepancy(
    staff, open_session, django_capture_on_commit_callbacks
):
    from tables.blackjack.simulator import simulate_shoe
    from tables.models import Discrepancy

    log = simulate_shoe(2, "FR", table="BJ03", shoe_id="BJ03-NOWHERE", limits=("10.00", "1000.00"))
    received = _upload(staff, open_session, log, django_capture_on_commit_callbacks)
    found = Discrepancy.objects.get(hand_log=received, code="SHOE_UNKNOWN")
    assert found.article == "FR art. 40" and found.detail["shoe_id"] == "BJ03-NOWHERE"
    assert received.replay.ok is False


@pytest.mark.django_db
def test_a_table_out_of_service_opens_no_session_and_receives_no_decks(staff, depot_decks, table):

    from audit.models import AuditEvent

    a1 = [d for d in depot_decks if d.serial.startswith("A1-")]
    today = gaming_day()
    with pytest.raises(RegulationError) as info:
        services.set_table_in_service(actor=staff["croupier"], table=table, in_service=False)
    assert info.value.code == "MANAGEMENT_REQUIRED"
    services.set_table_in_service(actor=staff["committee"], table=table, in_service=False, reason="tapis")
    table.refresh_from_db()
    assert not table.in_service
    assert AuditEvent.objects.filter(action="table.out_of_service", object_id=str(table.pk)).exists()
    for number in (table.number, 99):  # out of service, and no such table
        with pytest.raises(RegulationError) as info:
            depot.issue_decks(actor=staff["director"], table_number=number, day=today, decks=a1)
        assert info.value.code == "TABLE_NOT_IN_SERVICE" and info.value.field == "table_number"
    services.set_table_in_service(actor=staff["director"], table=table, in_service=True)
    assert depot.issue_decks(actor=staff["director"], table_number=table.number, day=today, decks=a1)


@pytest.mark.django_db
def test_the_tables_admin_puts_a_table_out_of_service_by_an_action(client, staff, table):
    client.force_login(staff["director"])
    director_client = client
    response = director_client.post(
        "/admin/tables/table/", {"action": "put_out_of_service", "_selected_action": [table.pk]}
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert not table.in_service


@pytest.mark.django_db
def test_the_admin_says_the_incident_a_hand_log_with_an_unknown_card_opened(
    client, staff, depot_decks, today_session, django_capture_on_commit_callbacks
):
    """No silent act: a log whose replay finds a card that is no card (FR art. 40) opens an
    incident and quarantines the shoe's six decks; the séance's page the upload returns to says
    so (the incident's number, the decks, the article, what to do next), whether the replay ran
    before the page was drawn or after."""
    import html
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    from cards_registry.models import Incident

    a1, shoe, log = shoe_with_a_foreign_card(staff, depot_decks, today_session)
    client.force_login(staff["croupier"])
    upload = SimpleUploadedFile("shoe.json", json.dumps(log).encode(), content_type="application/json")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:tables_session_act", args=[today_session.pk, "handlog"]), {"file": upload}
        )
    assert response.status_code == 302
    incident = Incident.objects.get()
    text = html.unescape(client.get(response["Location"]).content.decode())
    assert f"Incident n° {incident.number} ouvert" in text
    assert all(d.serial in text for d in a1)
    assert "consignés au dépôt" in text and "FR art. 40" in text
    assert "Signalez-le sur-le-champ à l'officier" in text
