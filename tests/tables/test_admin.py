"""The admin: the session page shows everything read-only; acts go through forms calling the services."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tables.blackjack.simulator import simulate
from tables.models import AdvanceEntry, ControlDay, HandLog, Session

from .conftest import DAY


@pytest.fixture
def director_client(client, staff):
    client.force_login(staff["director"])
    return client


@pytest.mark.django_db
def test_open_session_through_the_admin_form(director_client, table, staff):
    from django.utils import timezone

    from casino_ops.services import get_casino

    data = {
        "table": table.pk,
        "day": DAY.isoformat(),
        "minimum": "10.00",
        "maximum": "1000.00",
        "advance_amount": "30000.00",
        "croupier": staff["croupier"].pk,
    }
    past = director_client.post("/admin/tables/session/add/", data)
    assert past.status_code == 200
    assert "FR art. 69" in past.content.decode() and not Session.objects.exists()
    data = {
        "table": table.pk,
        "day": get_casino().gaming_day(timezone.now()).isoformat(),
        "minimum": "10.00",
        "maximum": "1500.00",
        "advance_amount": "30000.00",
        "croupier": staff["croupier"].pk,
    }
    refused = director_client.post("/admin/tables/session/add/", data)
    assert refused.status_code == 200
    assert "FR art. 55-5" in refused.content.decode() and not Session.objects.exists()
    data["maximum"] = "1000.00"
    response = director_client.post("/admin/tables/session/add/", data)
    session = Session.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(
        f"/admin/tables/session/{session.pk}/change/"
    )


@pytest.mark.django_db
def test_session_page_shows_entries_shoes_logs_and_discrepancies(
    director_client, open_session, staff, django_capture_on_commit_callbacks
):
    # an act refused on its field, with its article
    url = f"/admin/tables/session/{open_session.pk}/act/advance/"
    refused = director_client.post(url, {"amount": "100.00", "counted_by": staff["croupier"].pk})
    assert refused.status_code == 200 and "FR art. 42" in refused.content.decode()
    assert (
        director_client.post(url, {"amount": "30000.00", "counted_by": staff["croupier"].pk}).status_code
        == 302
    )
    assert AdvanceEntry.objects.filter(session=open_session).count() == 2
    sim = simulate(51, "FR", table="BJ03", limits=("10.00", "1000.00"), faults=["SETTLEMENT_MISMATCH"])
    upload = SimpleUploadedFile("log.json", json.dumps(sim.log).encode(), content_type="application/json")
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.post(
            f"/admin/tables/session/{open_session.pk}/act/handlog/", {"file": upload}
        )
    assert response.status_code == 302
    log = HandLog.objects.get()
    assert log.source == "admin"
    page = director_client.get(f"/admin/tables/session/{open_session.pk}/change/")
    html = page.content.decode()
    assert page.status_code == 200
    for text in ("SETTLEMENT_MISMATCH", "FR art. 55-4 1°", log.sha256, "30000", "act/close/"):
        assert text in html, text
    assert director_client.get(f"/admin/tables/handlog/{log.pk}/change/").status_code == 200
    errors = director_client.get("/admin/tables/session/dealer-errors/?by=croupier")
    assert errors.status_code == 200 and "SETTLEMENT_MISMATCH" in errors.content.decode()


@pytest.mark.django_db
def test_close_and_close_day_through_the_admin(director_client, open_session, staff, client):
    close = f"/admin/tables/session/{open_session.pk}/act/close/"
    refused = director_client.post(close, {"closing_cash": "31000.00", "counted_by": staff["croupier"].pk})
    assert "FR art. 69" in refused.content.decode()
    ok = director_client.post(
        close, {"closing_cash": "31000.00", "counted_by": staff["croupier"].pk, "certified_exact": "on"}
    )
    assert ok.status_code == 302
    day = ControlDay.objects.get()
    response = director_client.post(
        "/admin/tables/controlday/", {"action": "close_days", "_selected_action": [day.pk]}, follow=True
    )
    assert response.status_code == 200
    day.refresh_from_db()
    assert day.is_closed
    entry = AdvanceEntry.objects.get(kind="closing")
    correct = director_client.post(
        f"/admin/tables/advanceentry/{entry.pk}/correct/",
        {
            "amount": "31200.00",
            "approval": "Approuvé : trente et un mille deux cents",
            "reason": "recomptage",
        },
    )
    assert correct.status_code == 302
    assert AdvanceEntry.objects.filter(corrects=entry).exists()


@pytest.mark.django_db
def test_croupier_reads_the_session_but_cannot_sign(client, open_session, staff):
    client.force_login(staff["croupier"])
    assert client.get(f"/admin/tables/session/{open_session.pk}/change/").status_code == 200
    refused = client.post(
        f"/admin/tables/session/{open_session.pk}/act/advance/",
        {"amount": "30000.00", "counted_by": staff["croupier"].pk},
    )
    assert refused.status_code == 200 and "FR art. 69" in refused.content.decode()
    assert AdvanceEntry.objects.filter(session=open_session).count() == 1
    assert client.get("/admin/tables/session/add/").status_code == 403
    assert client.get(f"/admin/tables/session/{open_session.pk}/act/nothing/").status_code == 403
