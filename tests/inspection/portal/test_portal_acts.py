"""The officer's acts in the portal are forms of the admin's machinery (inspection.portal.acts):
one form class per act, its input refused on its field before the service is called, a refusal
of the service put on the form with its article, nothing recorded."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.test import RequestFactory
from django.urls import reverse

from cards_registry.models import IncidentClosure, Visa
from casino_ops import roles
from casino_ops.admin_acts import ActPageForm
from inspection.portal import acts
from tests.support.samples import module_casino, module_clients, module_devices, module_samples, module_users  # noqa: F401 - made once for the module


def _posted(user: Any, data: dict[str, str]) -> Any:
    request = RequestFactory().post("/inspection/visas/", data)
    request.user = user
    request.session = SessionStore()
    return request


def test_each_visa_is_a_form_of_its_own_calling_its_service() -> None:
    forms = list(acts.STAMPS.values())
    assert len(set(forms)) == len(forms)
    for form in forms:
        assert issubclass(form, ActPageForm) and "act" in vars(form), form
    for form in (acts.CloseIncidentForm, acts.DemandOpeningForm, acts.IncidentToldForm, acts.RegisterPdfForm):
        assert issubclass(form, ActPageForm) and "act" in vars(form), form


@pytest.mark.django_db
def test_a_refusal_of_the_service_lands_on_the_form_with_its_article(samples: Any) -> None:
    director = samples.users[roles.DIRECTOR]
    data = {"remark": "Vu"}
    form = acts.StampReceptionForm(data, request=_posted(director, data), target=samples.reception)
    assert not form.is_valid()
    assert form.refused is not None and form.refused.code == "VISA_OFFICER_ONLY"
    (error,) = form.non_field_errors()
    assert "FR art. 39" in error
    assert form.error_texts() == [error]
    assert not Visa.objects.filter(reception=samples.reception).exists()


@pytest.mark.django_db
def test_a_bad_input_is_refused_on_its_field_before_the_service(samples: Any) -> None:
    officer = samples.users[roles.OFFICER]
    data = {"remark": "x" * 301}
    form = acts.StampReceptionForm(data, request=_posted(officer, data), target=samples.reception)
    assert not form.is_valid()
    assert list(form.errors) == ["remark"] and form.refused is None
    assert form.error_texts()[0].startswith("Observations : ")
    assert not Visa.objects.filter(reception=samples.reception).exists()


def _error_tied_to(page: str, name: str) -> str:
    """The error said next to the field ``name`` of ``page``, after checking the field names it
    (``aria-describedby``, ``aria-invalid``) and the error is announced (``role="alert"``)."""
    field = re.search(rf'<(?:input|textarea)[^>]*name="{re.escape(name)}"[^>]*>', page)
    assert field is not None, name
    described = re.search(r'aria-describedby="([^"]*)"', field.group(0))
    assert described is not None and 'aria-invalid="true"' in field.group(0), field.group(0)
    error_id = described.group(1).split()[-1]
    error = re.search(rf'<[^>]*id="{re.escape(error_id)}"[^>]*>(.*?)</', page, re.S)
    assert error is not None and 'role="alert"' in error.group(0), error_id
    return error.group(1)


@pytest.mark.django_db
def test_a_closure_refused_on_its_field_is_said_next_to_it_with_its_article(
    samples: Any, clients: Any
) -> None:
    prefix = f"incident-{samples.incident.pk}"
    url = reverse("portal:close_incident", args=[samples.incident.pk])
    response = clients[roles.OFFICER].post(url, {f"{prefix}-finding": "   "})
    assert response.status_code == 200  # the page again, the form as posted, not a redirect
    page = response.content.decode()
    said = _error_tied_to(page, f"{prefix}-finding")
    assert said.strip()
    assert not IncidentClosure.objects.exists()
    assert 'class="messages"' not in page or said not in page.split('class="messages"')[1].split("</ul>")[0]


@pytest.mark.django_db
def test_a_demand_refused_on_its_field_is_said_next_to_it(clients: Any) -> None:
    response = clients[roles.OFFICER].post(reverse("portal:demand_opening"), {"reason": "x" * 301})
    assert response.status_code == 200
    said = _error_tied_to(response.content.decode(), "reason")
    assert said.strip()


@pytest.mark.django_db
def test_a_visa_refused_on_its_remark_is_said_next_to_it(samples: Any, clients: Any) -> None:
    url = reverse("portal:stamp", args=["prise-en-charge", samples.reception.pk])
    response = clients[roles.OFFICER].post(url, {"remark": "x" * 301})
    assert response.status_code == 200
    said = _error_tied_to(response.content.decode(), "remark")
    assert said.strip()
    assert not Visa.objects.filter(reception=samples.reception).exists()


@pytest.mark.django_db
def test_a_pdf_refused_on_its_table_is_said_next_to_it(clients: Any) -> None:
    """A signed PDF asked for a table the casino does not have: the service's refusal is said on
    the page again, beside the table's field, as the refusal says it (the registers' refusals cite
    no article: none is added); no print is asked."""
    from audit.models import AuditEvent
    from inspection.models import Report
    from tests.support.refusals import assert_refused

    events, reports = AuditEvent.objects.count(), Report.objects.count()
    url = reverse("portal:register_pdf", args=["advance-book"])
    response = clients[roles.OFFICER].post(
        url, {"date_from": "2026-11-01", "date_to": "2026-11-30", "table": "98"}
    )
    refusal = assert_refused("REGISTER_UNKNOWN_TABLE", article="", field="table", response=response)
    said = _error_tied_to(response.content.decode(), "table")
    assert "n° 98" in said and said.strip() == html.escape(str(refusal.value.refused), quote=True)
    assert Report.objects.count() == reports and AuditEvent.objects.count() == events


@pytest.mark.django_db
def test_an_incident_told_twice_is_refused_beside_its_button_with_its_article(clients: Any) -> None:
    """The second acknowledgement of an incident (a second tab, another officer first): the refusal
    is said beside the incident's button, with its article, not as a message; nothing recorded."""
    from audit.models import AuditEvent
    from cards_registry.models import IncidentReport
    from tests.support.permission_matrix import unreported_incident
    from tests.support.refusals import assert_refused

    incident = unreported_incident()
    url = reverse("portal:incident_told", args=[incident.pk])
    assert clients[roles.OFFICER].post(url, {}).status_code == 302
    events = AuditEvent.objects.count()

    response = clients[roles.OFFICER].post(url, {})

    assert_refused(
        "INCIDENT_ALREADY_REPORTED",
        article="FR art. 40",
        field="incident",
        response=response,
        form="told_form",
    )
    page = response.content.decode()
    button = re.search(rf'<form[^>]*action="{re.escape(url)}"[^>]*>.*?<button[^>]*>', page, re.S)
    assert button is not None
    described = re.search(r'aria-describedby="([^"]*)"', button.group(0))
    assert described is not None, button.group(0)
    error = re.search(rf'<[^>]*id="{re.escape(described.group(1))}"[^>]*>(.*?)</', page, re.S)
    assert error is not None and 'role="alert"' in error.group(0)
    assert "déjà été signalé" in error.group(1) and "FR art. 40" in error.group(1)
    assert IncidentReport.objects.filter(incident=incident).count() == 1
    assert AuditEvent.objects.count() == events
