"""The portal's pages: what the officer sees, the two writes he makes (audited, with
his name and time), and a bounded number of queries per page."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from cards_registry.models import Deck, IncidentClosure, Visa
from tests.support.samples import module_casino, module_clients, module_devices, module_samples, module_users  # noqa: F401 - made once for the module


@pytest.mark.django_db
def test_dashboard(officer_client, samples, django_assert_num_queries) -> None:
    # 17th: a closing down awaiting its visa (LU 52); 18th: the days closed awaiting the officer's
    # stamp; 19th, 20th: the makers' approvals and the LU sixain cap awaiting his visa; 21st: the
    # acts of the authorised minimum awaiting his visa. The clock's alarms come in the forged
    # events' query (one query for both), the sealing-late warning reads nothing in inline mode
    with django_assert_num_queries(21):
        page = officer_client.get("/inspection/").content.decode()
    assert "Prise en charge n° 1/1" in page  # awaiting the visa
    assert "Bon de commande n° 1/2" in page  # the unstamped order
    assert "Incident n° 1" in page
    assert "SETTLEMENT_MISMATCH" in page and "BJ03" in page
    assert "Dernier événement scellé" in page


@pytest.mark.django_db
def test_stamping_a_receipt_book_entry_is_an_audited_act(officer_client, samples) -> None:
    url = reverse("portal:stamp", args=["prise-en-charge", samples.reception.pk])
    response = officer_client.post(url, {"remark": "Conforme au bordereau"}, follow=True)
    assert "visa apposé" in response.content.decode()
    visa = Visa.objects.get(reception=samples.reception)
    assert visa.officer == samples.users["officier"] and visa.remark == "Conforme au bordereau"
    event = AuditEvent.objects.get(action="depot.reception_stamped")
    assert event.actor_name == "u_officier" and event.seq is not None
    # Stamping again is refused with the reason, and nothing changes.
    again = officer_client.post(url, {"remark": "bis"}, follow=True).content.decode()
    assert "déjà visée" in again
    assert Visa.objects.filter(reception=samples.reception).count() == 1


@pytest.mark.django_db
def test_stamping_an_order(officer_client, samples) -> None:
    officer_client.post(reverse("portal:stamp", args=["commande", samples.order.pk]), {"remark": ""})
    assert Visa.objects.filter(order=samples.order, officer=samples.users["officier"]).exists()
    assert officer_client.post(reverse("portal:stamp", args=["inconnu", 1])).status_code == 404


@pytest.mark.django_db
def test_closing_an_incident(officer_client, samples) -> None:
    deck = samples.incident.decks.get()
    prefix = f"incident-{samples.incident.pk}"
    url = reverse("portal:close_incident", args=[samples.incident.pk])
    missing = officer_client.post(url, {f"{prefix}-finding": ""}, follow=True).content.decode()
    assert "Constatations" in missing and "obligatoire" in missing
    assert not IncidentClosure.objects.exists()
    officer_client.post(
        url, {f"{prefix}-finding": "Carte abîmée, pas de marquage.", f"{prefix}-decks_fit": [deck.pk]}
    )
    closure = IncidentClosure.objects.get(incident=samples.incident)
    assert closure.officer == samples.users["officier"] and list(closure.decks_fit.all()) == [deck]
    assert Deck.objects.get(pk=deck.pk).status == "in_cabinet"
    event = AuditEvent.objects.get(action="depot.incident_closed")
    assert event.actor_name == "u_officier"
    assert json.loads(event.payload)["fit"] == [deck.serial]
    assert "Aucun incident ouvert" in officer_client.get(reverse("portal:incidents")).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "en"])
def test_an_incident_the_replay_opened_is_listed_and_closed(officer_client, samples, language) -> None:
    """The replay task opens an incident with no reporter (FR art. 40, LU art. 7): the page says who
    found it (the replay of the hand log), in either language, and the officer closes it."""
    from cards_registry.services import report_incident_from_replay

    deck = Deck.objects.get(serial="A1-2")
    incident = report_incident_from_replay(
        code="INVALID_CARD",
        table_number=3,
        day=samples.session.day,
        shoe_reference="S-1",
        decks=[deck],
        detail="carte 1S inconnue du sabot",
    )
    assert incident is not None and incident.reported_by is None
    response = officer_client.get(reverse("portal:incidents"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    page = response.content.decode()
    assert f'id="incident-{incident.pk}"' in page
    assert (
        "le système (rejeu d&#x27;un journal de mains)"
        if language == "fr"
        else "the system (replay of a hand log)"
    ) in page
    prefix = f"incident-{incident.pk}"
    officer_client.post(
        reverse("portal:close_incident", args=[incident.pk]),
        {f"{prefix}-finding": "Carte étrangère au sabot, écartée.", f"{prefix}-decks_fit": [deck.pk]},
    )
    assert IncidentClosure.objects.filter(incident=incident).exists()
    assert Deck.objects.get(pk=deck.pk).status == "in_cabinet"


@pytest.mark.django_db
def test_a_decks_life_by_serial(officer_client, samples) -> None:
    search = officer_client.get("/inspection/jeux/?serie=A1-1").content.decode()
    assert f'href="/inspection/jeux/{samples.deck.pk}/"' in search
    page = officer_client.get(f"/inspection/jeux/{samples.deck.pk}/").content.decode()
    assert "A1-1" in page and "audit n°" in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "queries"),
    # one more for the books whose visas print their signature's fingerprint (audit.reads.officer_fingerprints)
    [("receipt-book", 14), ("order-book", 13), ("incidents", 13), ("destructions", 9), ("depot-log", 10)],
)
def test_registers_on_screen(name, queries, officer_client, samples, django_assert_num_queries) -> None:
    url = reverse("portal:register", args=[name]) + "?date_from=2026-11-01&date_to=2026-11-30"
    with django_assert_num_queries(queries):
        response = officer_client.get(url)
    assert response.status_code == 200
    assert "Demander le PDF signé" in response.content.decode()


@pytest.mark.django_db
def test_receipt_book_shows_the_entry_and_its_pdf(officer_client, samples) -> None:
    report = samples.report
    page = officer_client.get(
        reverse("portal:register", args=["receipt-book"]) + "?date_from=2026-11-01&date_to=2026-11-30"
    ).content.decode()
    assert "1/1" in page and "Cartes Grimaud" in page
    assert f"/inspection/pdf/{report.pk}/" in page
    download = officer_client.get(f"/inspection/pdf/{report.pk}/")
    assert download["Content-Type"] == "application/pdf"
    assert b"".join(download.streaming_content).startswith(b"%PDF-")


@pytest.mark.django_db
def test_register_bad_period_says_which_field(officer_client, samples) -> None:
    page = officer_client.get(
        reverse("portal:register", args=["receipt-book"]) + "?date_from=2026-11-30&date_to=2026-11-01"
    ).content.decode()
    assert "La date de fin précède la date de début." in page


@pytest.mark.django_db
def test_sessions_and_a_session(officer_client, samples, django_assert_num_queries) -> None:
    assert "BJ03" in officer_client.get("/inspection/seances/").content.decode()
    # 17th: the authorised minimum its opening recorded (LU 26); 18th: the decks of its shoe;
    # 19th: the casino's regulation (the books' names under FR or LU)
    with django_assert_num_queries(19):
        page = officer_client.get(f"/inspection/seances/{samples.session.pk}/").content.decode()
    assert "avance initiale" in page and samples.hand_log.shoe_label in page


@pytest.mark.django_db
def test_audit_trail_search(officer_client, samples, django_assert_num_queries) -> None:
    with django_assert_num_queries(5):
        page = officer_client.get("/inspection/audit/?action=depot.").content.decode()
    assert "depot.order_stamped" in page and "hand_log.received" not in page
    page = officer_client.get("/inspection/audit/?q=BL+4411").content.decode()
    assert "depot.received" in page or "depot.reception" in page
    bad = officer_client.get("/inspection/audit/?since=pas-une-date").content.decode()
    assert "Depuis le" in bad


@pytest.mark.django_db
def test_full_chain_check(officer_client, samples) -> None:
    assert "Chaîne intègre" in officer_client.get("/inspection/audit/verification/").content.decode()


@pytest.mark.django_db
def test_advance_book_and_control_register(officer_client, samples, django_assert_num_queries) -> None:
    with django_assert_num_queries(14):  # the regulation too (the model number only under FR)
        page = officer_client.get(
            "/inspection/carnet-d-avances/?table=3&date_from=2026-11-01&date_to=2026-11-30"
        )
    text = page.content.decode()
    assert "avance initiale" in text and "30\u202f000,00" in text
    unknown = officer_client.get(
        "/inspection/carnet-d-avances/?table=9&date_from=2026-11-01&date_to=2026-11-30"
    )
    assert "Aucune table ne porte ce numéro." in unknown.content.decode()
    with django_assert_num_queries(6):  # the regulation too
        page = officer_client.get("/inspection/registre-de-controle/?day=2026-11-30")
    assert "non arrêtée" in page.content.decode()


@pytest.mark.django_db
def test_cached_pages_follow_every_act(officer_client, samples) -> None:
    """The dashboard and the registers are kept per version of the books: the next act shows at once."""
    register = reverse("portal:register", args=["receipt-book"]) + "?date_from=2026-11-01&date_to=2026-11-30"
    assert "Prise en charge n° 1/1" in officer_client.get("/inspection/").content.decode()
    before = officer_client.get(register).content.decode()
    assert "u_officier —" not in before.split("Carnet de prise en charge")[-1].split("Destructions")[0]
    officer_client.post(
        reverse("portal:stamp", args=["prise-en-charge", samples.reception.pk]), {"remark": ""}
    )
    assert "Prise en charge n° 1/1" not in officer_client.get("/inspection/").content.decode()
    after = officer_client.get(register).content.decode()
    assert after != before and "u_officier —" in after


@pytest.mark.django_db
def test_register_date_inputs_hold_iso_dates_and_a_table_is_said_required(officer_client, samples) -> None:
    """A date input only shows an ISO value (2026-12-01): "01/12/2026" leaves it empty."""
    import re

    from django.utils import timezone

    today = timezone.localdate()
    page = officer_client.get(reverse("portal:register", args=["receipt-book"])).content.decode()
    assert f'name="date_from" value="{today.replace(day=1).isoformat()}"' in page
    assert f'name="date_to" value="{today.isoformat()}"' in page
    assert not re.search(r'type="date"[^>]*value="\d\d/', page)
    for name in ("advance-book", "session-report"):
        page = officer_client.get(reverse("portal:register", args=[name])).content.decode()
        assert "indiquez le numéro de la table" in page
        assert re.search(r"Table n°\s*<span class=\"req\">\(obligatoire\)</span>", page)
    english = officer_client.get(
        reverse("portal:register", args=["advance-book"]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "enter the table number" in english and "(required)" in english


@pytest.mark.django_db
def test_one_navigation_entry_per_register(officer_client, samples) -> None:
    """The advance book and the control register are read under Registres, not a second time
    from the sessions page."""
    page = officer_client.get(reverse("portal:sessions")).content.decode()
    assert reverse("portal:advance_book") not in page and reverse("portal:control_register") not in page
    assert reverse("portal:registers") in page
