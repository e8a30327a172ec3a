"""Absurd input in the portal: a clear refusal, never a 500, nothing written."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cards_registry.models import IncidentClosure, Visa
from inspection.models import Report
from tests.support.samples import module_casino, module_clients, module_devices, module_samples, module_users  # noqa: F401 - made once for the module

BAD_QUERIES = [
    "/inspection/jeux/?serie=%00",
    "/inspection/jeux/?serie=A1%01",
    "/inspection/audit/?q=%00",
    "/inspection/audit/?actor=a%00b&since=9999-01-01",
    "/inspection/audit/?since=%D9%A2%D9%A0%D9%A2%D9%A6-01-01",
    "/inspection/audit/?before=99999999999999999999999",
    "/inspection/seances/?since=0001-01-01&until=9999-12-31",
    "/inspection/seances/?table=%00",
    "/inspection/carnet-d-avances/?table=3&date_from=0001-01-01&date_to=9999-12-31",
    "/inspection/registre-de-controle/?day=9999-12-31",
    "/inspection/registre-de-controle/?day=0001-01-01",
    "/inspection/registres/receipt-book/?date_from=0001-01-01&date_to=0001-01-02",
    "/inspection/registres/receipt-book/?date_from=9999-12-30&date_to=9999-12-31",
    "/inspection/registres/receipt-book/?date_from=%00&date_to=2026-11-30",
]


@pytest.mark.django_db
@pytest.mark.parametrize("url", BAD_QUERIES)
def test_an_absurd_query_is_no_500(officer_client, samples, url) -> None:
    response = officer_client.get(url)
    assert response.status_code == 200, response.status_code


@pytest.mark.django_db
def test_a_control_character_in_a_serial_is_refused_with_a_message(officer_client, samples) -> None:
    page = officer_client.get("/inspection/jeux/?serie=%00").content.decode()
    assert "caractère de contrôle" in page


@pytest.mark.django_db
@pytest.mark.parametrize("period", [("9999-12-30", "9999-12-31"), ("0001-01-01", "0001-01-02")])
def test_an_absurd_register_period_is_refused_on_screen_and_for_the_pdf(
    officer_client, samples, period
) -> None:
    url = reverse("portal:register", args=["receipt-book"])
    page = officer_client.get(f"{url}?date_from={period[0]}&date_to={period[1]}").content.decode()
    assert "hors de la période admise" in page
    before = Report.objects.count()
    officer_client.post(
        reverse("portal:register_pdf", args=["receipt-book"]), {"date_from": period[0], "date_to": period[1]}
    )
    assert Report.objects.count() == before


@pytest.mark.django_db
def test_a_visa_remark_with_a_nul_is_refused(officer_client, samples) -> None:
    url = reverse("portal:stamp", args=["prise-en-charge", samples.reception.pk])
    response = officer_client.post(url, {"remark": "ok\x00"}, follow=True)
    assert response.status_code == 200
    assert not Visa.objects.filter(reception=samples.reception).exists()


@pytest.mark.django_db
def test_an_incident_finding_with_a_nul_is_refused(officer_client, samples) -> None:
    prefix = f"incident-{samples.incident.pk}"
    url = reverse("portal:close_incident", args=[samples.incident.pk])
    response = officer_client.post(url, {f"{prefix}-finding": "rien\x00"}, follow=True)
    assert response.status_code == 200
    assert not IncidentClosure.objects.exists()
