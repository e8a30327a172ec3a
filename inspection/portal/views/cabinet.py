"""The officer's demand to open the card depot's cabinet, recorded by the officer himself
(FR art. 39, LU art. 6: he may demand it at any time). The key holder then opens it and
records the inventory; the demand is an audited act of the officer's own."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from cards_registry import selectors as depot

from .. import access
from ..acts import DemandOpeningForm, IncidentToldForm, answer


@access.officer_required()
def books_inspection(request: HttpRequest) -> HttpResponse:
    """Every open breach of the books now, with its article and a link; the incidents still to
    report (the officer records when he was told); his demand to open the cabinet."""
    return render(request, "portal/inspection.html")


@access.officer_required(access.DEMAND_OPENING)
def demand_opening(request: HttpRequest) -> HttpResponse:
    form = DemandOpeningForm(request.POST, request=request)
    return answer(
        request,
        form,
        reverse("portal:books_inspection"),
        page=lambda refused: render(request, "portal/inspection.html", {"demand_form": refused}),
    )


@access.officer_required(access.VISA)
def incident_told(request: HttpRequest, incident_id: int) -> HttpResponse:
    """The officer acknowledges an incident found by a return, a destruction or a replay (FR art.
    40 §5, LU art. 7 §5): he was told at the moment he acknowledges it (the act's form)."""
    incident = access.get_visible_or_404(request.user, depot.all_incidents(), access.VISA, pk=incident_id)
    form = IncidentToldForm(request.POST, request=request, target=incident)
    return answer(
        request,
        form,
        reverse("portal:books_inspection"),
        page=lambda refused: render(request, "portal/inspection.html", {"told_form": refused}),
    )
