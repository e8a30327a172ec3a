"""The admin: the session page shows everything read-only; acts go through forms calling the services."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tables.blackjack.simulator import simulate
from tables.models import AdvanceEntry, ControlDay, HandLog, Session

from .conftest import DAY


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
    for text in ("SETTLEMENT_MISMATCH", "FR art. 55-4 1°", log.sha256, "30\u202f000,00", "act/close/"):
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


@pytest.mark.django_db
def test_the_control_day_total_is_the_registers_figure_the_correction_included(
    director_client, open_session, staff
):
    from tables import services
    from tables.models import ControlLine

    services.close_session(
        actor=staff["director"],
        session=open_session,
        closing_cash=Decimal("30440.50"),
        counted_by=staff["croupier"],
        cashier=None,
        certified_exact=True,
    )
    services.close_day(actor=staff["director"], day=open_session.day)
    line = ControlLine.objects.get()
    response = director_client.post(
        f"/admin/tables/controlline/{line.pk}/correct/",
        {"amount": "540.50", "approval": "Approuvé : cinq cent quarante", "reason": "recomptage"},
    )
    assert response.status_code == 302
    listing = director_client.get("/admin/tables/controlday/").content.decode()
    # the total written at the closing follows the correction: it always equals the day's lines (FR art. 72)
    assert "540,50" in listing and "440,50" not in listing
    day = ControlDay.objects.get()
    page = director_client.get(f"/admin/tables/controlday/{day.pk}/change/").content.decode()
    assert "540,50" in page


@pytest.mark.django_db
def test_a_croupier_is_offered_only_his_acts_and_a_styled_refusal(client, open_session, staff):
    client.force_login(staff["croupier"])
    page = client.get(f"/admin/tables/session/{open_session.pk}/change/").content.decode()
    assert "act/shoe/" in page and "act/interrupt/" in page
    for act in ("advance", "maximum", "close"):
        assert f"act/{act}/" not in page, act
    refused = client.get("/admin/tables/session/add/")
    assert refused.status_code == 403
    html = refused.content.decode()
    assert "Accès refusé" in html and "casino_ops/admin.css" in html and "<h1>" in html


@pytest.mark.django_db
def test_a_tables_page_is_read_only_without_a_save_button(director_client, table):
    page = director_client.get(f"/admin/tables/table/{table.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "BJ03" in html and 'name="_save"' not in html and 'name="_continue"' not in html


@pytest.mark.django_db
def test_the_session_page_shows_labels_key_value_lists_and_wrapping_hashes(
    director_client, open_session, django_capture_on_commit_callbacks
):
    sim = simulate(51, "FR", table="BJ03", limits=("10.00", "1000.00"), faults=["SETTLEMENT_MISMATCH"])
    upload = SimpleUploadedFile("log.json", json.dumps(sim.log).encode(), content_type="application/json")
    with django_capture_on_commit_callbacks(execute=True):
        director_client.post(f"/admin/tables/session/{open_session.pk}/act/handlog/", {"file": upload})
    log = HandLog.objects.get()
    html = director_client.get(f"/admin/tables/session/{open_session.pk}/change/").content.decode()
    assert "Paiement différent du montant dû" in html
    english = director_client.get(
        f"/admin/tables/session/{open_session.pk}/change/", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Payment differs from the amount due" in english and "Paiement différent" not in english
    assert '<span class="code-caption">SETTLEMENT_MISMATCH</span>' in html
    assert f'<span class="hash">{log.sha256}</span>' in html
    shown = re.sub(r'data-inline-formset="[^"]*"', "", html)  # the admin's own JSON for its scripts
    assert "{&quot;" not in shown and '{"' not in shown  # no raw JSON (house rules, details)
    assert "30000.00" not in html  # no database notation in the inline rows' headings
    log_page = director_client.get(f"/admin/tables/handlog/{log.pk}/change/").content.decode()
    assert "<details>" in log_page and '<dl class="kv">' in log_page
    # One discrepancy's page: its label, the code only as a caption (not in the title), the detail as a list.
    discrepancy = log.discrepancies.get(code="SETTLEMENT_MISMATCH")
    page = director_client.get(f"/admin/tables/discrepancy/{discrepancy.pk}/change/").content.decode()
    assert "Paiement différent du montant dû" in page
    assert page.count("SETTLEMENT_MISMATCH") == page.count(
        '<span class="code-caption">SETTLEMENT_MISMATCH</span>'
    )
    assert "manche None" not in page and f"écart n° {discrepancy.pk}" in page
    assert "{&quot;" not in page and '{"' not in page


@pytest.mark.django_db
def test_the_audit_trail_shows_acts_and_objects_by_their_labels(director_client, open_session):
    from audit.models import AuditEvent

    event = AuditEvent.objects.get(action="session.opened")
    listing = director_client.get("/admin/audit/auditevent/").content.decode()
    assert "séance ouverte" in listing and '<span class="code-caption">session.opened</span>' in listing
    page = director_client.get(f"/admin/audit/auditevent/{event.pk}/change/").content.decode()
    assert '<dl class="kv">' in page and "séance" in page
