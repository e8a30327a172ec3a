"""The officer's demand to open the card depot's cabinet, recorded by the officer himself
(FR art. 39, LU art. 6: he may demand it at any time). The key holder then opens it and
records the inventory; the demand is an audited act of the officer's own."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from cards_registry import selectors as depot
from cards_registry.services import demand_opening as demand
from cards_registry.services import record_incident_report
from casino_ops import dates
from casino_ops.access import acting_user
from casino_ops.regulations import RegulationError

from .. import access
from ..forms import DemandOpeningForm


@access.officer_required()
def books_inspection(request: HttpRequest) -> HttpResponse:
    """Every open breach of the books now, with its article and a link; the incidents still to
    report (the officer records when he was told); his demand to open the cabinet."""
    return render(request, "portal/inspection.html")


@access.officer_required(access.DEMAND_OPENING)
def demand_opening(request: HttpRequest) -> HttpResponse:
    form = DemandOpeningForm(request.POST)
    if not form.is_valid():
        for name, errors in form.errors.items():
            label = form.fields[name].label if name in form.fields else ""
            for error in errors:
                messages.error(request, f"{label} : {error}" if label else str(error))
        return HttpResponseRedirect(reverse("portal:books_inspection"))
    try:
        recorded = demand(actor=acting_user(request), reason=form.cleaned_data["reason"])
    except RegulationError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("Demande d'ouverture du dépôt enregistrée le %(at)s.") % {"at": dates.moment(recorded.at)},
        )
    return HttpResponseRedirect(reverse("portal:books_inspection"))


@access.officer_required(access.VISA)
def incident_told(request: HttpRequest, incident_id: int) -> HttpResponse:
    """The officer records when he was told of an incident found by a return, a destruction or a
    replay (FR art. 40 §5, LU art. 7 §5); the delay is measured from the finding."""
    import datetime as dt

    from django.utils import timezone

    incident = access.get_visible_or_404(request.user, depot.all_incidents(), access.VISA, pk=incident_id)
    raw = request.POST.get("informed_at", "")
    try:
        informed_at = dt.datetime.fromisoformat(raw) if raw else timezone.now()
        if timezone.is_naive(informed_at):
            informed_at = timezone.make_aware(informed_at)
    except ValueError:
        messages.error(request, _("Date et heure invalides : %(value)s.") % {"value": raw})
        return HttpResponseRedirect(reverse("portal:books_inspection"))
    try:
        record_incident_report(
            actor=acting_user(request),
            incident=incident,
            officer_informed=acting_user(request),
            informed_at=informed_at,
        )
    except RegulationError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Avis de l'incident n° %(n)s enregistré.") % {"n": incident.number})
    return HttpResponseRedirect(reverse("portal:books_inspection"))
