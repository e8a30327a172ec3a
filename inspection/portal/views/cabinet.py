"""The officer's demand to open the card depot's cabinet, recorded by the officer himself
(FR art. 39, LU art. 6: he may demand it at any time). The key holder then opens it and
records the inventory; the demand is an audited act of the officer's own."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from audit.actions import Action
from cards_registry import selectors as depot
from cards_registry.services import demand_opening as demand
from cards_registry.services import record_incident_report
from casino_ops import dates
from casino_ops.access import acting_user
from casino_ops.regulations import RegulationError

from .. import access, passkey
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
    reason = form.cleaned_data["reason"]
    if passkey.is_prepare(request):
        return passkey.prepare_response(
            request, act=Action.DEPOT_OPENING_DEMANDED, target=None, fields={"reason": reason.strip()}
        )
    try:
        recorded = demand(
            actor=acting_user(request), reason=reason, signature=passkey.signature_from(request)
        )
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
    """The officer acknowledges an incident found by a return, a destruction or a replay (FR art.
    40 §5, LU art. 7 §5): he was told at the moment he acknowledges it, no moment is typed; the
    delay is measured from the finding."""
    from django.utils import timezone

    incident = access.get_visible_or_404(request.user, depot.all_incidents(), access.VISA, pk=incident_id)
    informed_at = timezone.now()
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
