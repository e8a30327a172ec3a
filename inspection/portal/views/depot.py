"""The card depot for the officer: a deck's life by serial, visas, incident closures.

Visas and incident closures are the officer's only writes; each goes through
the depot's own service, which checks the rules and records the audited act
with the officer's name and time.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from audit.actions import DEPOT_STAMPED, Action
from cards_registry import services
from cards_registry.forms import IncidentClosureForm, VisaForm
from cards_registry.selectors import all_incidents, authority_facts_to_stamp, deck_history, entries_to_stamp
from cards_registry.services import close_incident as close
from cards_registry.services.incidents import closure_fields
from casino_ops.access import acting_user
from casino_ops.regulations import RegulationError
from casino_ops.validators import first_forbidden_character
from house_books.selectors import closings_awaiting_visa
from house_books.services import stamp_closing
from tables.selectors import authorised_minimum_acts, control_days_to_stamp
from tables.services import stamp_authorised_minimum, stamp_control_day

from .. import access, passkey, selectors, sources


@access.officer_required()
def decks(request: HttpRequest) -> HttpResponse:
    serial = request.GET.get("serie", "").strip()[:64]
    if first_forbidden_character(serial) is not None:
        # A serial never holds a control character (and PostgreSQL refuses NUL in a query).
        messages.error(
            request, _("N° de série : caractère de contrôle interdit, saisissez du texte lisible.")
        )
        serial = ""
    found = list(selectors.decks(serial=serial)[:100]) if serial else []
    return render(request, "portal/decks.html", {"serial": serial, "decks": found})


@access.officer_required()
def deck(request: HttpRequest, deck_id: int) -> HttpResponse:
    found = access.get_visible_or_404(request.user, selectors.decks(), pk=deck_id)
    return render(request, "portal/deck.html", {"deck": found, "history": deck_history(found)})


@access.officer_required()
def visas(request: HttpRequest) -> HttpResponse:
    return render(
        request, "portal/visas.html", {"awaiting": sources.awaiting_visas(request.user), "form": VisaForm()}
    )


_STAMPS = {
    "commande": ("stamp_order", "order"),
    "prise-en-charge": ("stamp_reception", "reception"),
    "destruction": ("stamp_destruction", "destruction"),
}

# The facts of an authority the director recorded, stamped by the officer (FR art. 39, LU art. 6):
# the service, its argument and the act's code.
_AUTHORITY_FACTS = {
    "agrement-fabricant": ("stamp_maker_approval", "manufacturer", Action.DEPOT_MAKER_APPROVAL_STAMPED),
    "sixains": ("stamp_sixain_cap", "sixain_cap", Action.DEPOT_SIXAIN_CAP_STAMPED),
}


# The act of the authorised minimum (FR art. 55-5; LU art. 26, 33), stamped by the tables' service.
MINIMUM = "minimum-autorise"
# The closing down of the casino (LU art. 52), stamped by the officer who attended it.
CLOSING = "cessation"
# A day closed in the control register (FR art. 72), stamped by the tables' service.
CONTROL_DAY = "registre-de-controle"


def _back(request: HttpRequest) -> str:
    back = request.POST.get("next") or reverse("portal:visas")
    return back if back.startswith("/inspection/") else reverse("portal:visas")


def _stamp_minimum(request: HttpRequest, act_id: int) -> HttpResponse:
    act = access.get_visible_or_404(request.user, authorised_minimum_acts(), access.VISA, pk=act_id)
    if passkey.is_prepare(request):
        return passkey.prepare_response(request, act=Action.AUTHORISED_MINIMUM_STAMPED, target=act, fields={})
    try:
        stamp_authorised_minimum(
            actor=acting_user(request), act=act, signature=passkey.signature_from(request)
        )
    except RegulationError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("Minimum autorisé (%(reference)s) : visa apposé.") % {"reference": act.decree_reference},
        )
    return HttpResponseRedirect(_back(request))


def _stamp_closing(request: HttpRequest, closing_id: int) -> HttpResponse:
    closing = access.get_visible_or_404(request.user, closings_awaiting_visa(), access.VISA, pk=closing_id)
    form = VisaForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            _("Observations : %(errors)s") % {"errors": " ".join(map(str, form.errors.get("remark", [])))},
        )
        return HttpResponseRedirect(_back(request))
    if passkey.is_prepare(request):
        return passkey.prepare_response(
            request,
            act=Action.HOUSE_CLOSING_STAMPED,
            target=closing,
            fields={"remark": form.cleaned_data["remark"]},
        )
    try:
        stamp_closing(
            actor=acting_user(request),
            closing=closing,
            remark=form.cleaned_data["remark"],
            signature=passkey.signature_from(request),
        )
    except RegulationError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Cessation de l'exploitation : visa apposé."))
    return HttpResponseRedirect(_back(request))


def _stamp_control_day(request: HttpRequest, day_id: int) -> HttpResponse:
    control_day = access.get_visible_or_404(request.user, control_days_to_stamp(), access.VISA, pk=day_id)
    form = VisaForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            _("Observations : %(errors)s") % {"errors": " ".join(map(str, form.errors.get("remark", [])))},
        )
        return HttpResponseRedirect(_back(request))
    if passkey.is_prepare(request):
        return passkey.prepare_response(
            request,
            act=Action.CONTROL_REGISTER_DAY_STAMPED,
            target=control_day,
            fields={"remark": form.cleaned_data["remark"].strip()},
        )
    try:
        stamp_control_day(
            actor=acting_user(request),
            control_day=control_day,
            remark=form.cleaned_data["remark"],
            signature=passkey.signature_from(request),
        )
    except RegulationError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Registre de contrôle du %(day)s : visa apposé.") % {"day": control_day})
    return HttpResponseRedirect(_back(request))


@access.officer_required(access.VISA)
def stamp(request: HttpRequest, kind: str, entry_id: int) -> HttpResponse:
    """The officer's visa on an order, a receipt-book entry, a destruction or the act
    of the authorised minimum."""
    if kind == MINIMUM:
        return _stamp_minimum(request, entry_id)
    if kind == CLOSING:
        return _stamp_closing(request, entry_id)
    if kind == CONTROL_DAY:
        return _stamp_control_day(request, entry_id)
    if kind in _AUTHORITY_FACTS:
        service_name, argument, action = _AUTHORITY_FACTS[kind]
        entry = access.get_visible_or_404(
            request.user, authority_facts_to_stamp(argument), access.VISA, pk=entry_id
        )
    elif kind in _STAMPS:
        service_name, argument = _STAMPS[kind]
        action = DEPOT_STAMPED[argument]
        entry = access.get_visible_or_404(request.user, entries_to_stamp(argument), access.VISA, pk=entry_id)
    else:
        raise Http404
    form = VisaForm(request.POST)
    back = request.POST.get("next") or reverse("portal:visas")
    if not back.startswith("/inspection/"):
        back = reverse("portal:visas")
    if not form.is_valid():
        messages.error(
            request,
            _("Observations : %(errors)s") % {"errors": " ".join(map(str, form.errors.get("remark", [])))},
        )
        return HttpResponseRedirect(back)
    if passkey.is_prepare(request):
        return passkey.prepare_response(
            request, act=action, target=entry, fields={"remark": form.cleaned_data["remark"]}
        )
    try:
        getattr(services, service_name)(
            actor=request.user,
            **{argument: entry},
            remark=form.cleaned_data["remark"],
            signature=passkey.signature_from(request),
        )
    except RegulationError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("%(entry)s : visa apposé.") % {"entry": entry})
    return HttpResponseRedirect(back)


@access.officer_required()
def incidents(request: HttpRequest) -> HttpResponse:
    forms = [(incident, IncidentClosureForm(incident)) for incident in sources.open_incidents()]
    return render(request, "portal/incidents.html", {"forms": forms})


@access.officer_required(access.CLOSE_INCIDENT)
def close_incident(request: HttpRequest, incident_id: int) -> HttpResponse:
    """The officer closes an incident: his findings, and which decks are fit again."""
    incident = access.get_visible_or_404(request.user, all_incidents(), access.CLOSE_INCIDENT, pk=incident_id)
    form = IncidentClosureForm(incident, request.POST)
    if form.is_valid():
        fit = {deck.pk for deck in form.cleaned_data["decks_fit"]}
        if passkey.is_prepare(request):
            decks = list(incident.decks.all())
            fields = closure_fields(
                form.cleaned_data["finding"],
                [d.serial for d in decks if d.pk in fit],
                [d.serial for d in decks if d.pk not in fit],
            )
            return passkey.prepare_response(
                request, act=Action.DEPOT_INCIDENT_CLOSED, target=incident, fields=fields
            )
        try:
            close(
                actor=acting_user(request),
                incident=incident,
                finding=form.cleaned_data["finding"],
                decks_fit=list(form.cleaned_data["decks_fit"]),
                signature=passkey.signature_from(request),
            )
        except RegulationError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, f"Incident n° {incident.number} clos.")
    else:
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            messages.error(request, f"Incident n° {incident.number} — {label} : {' '.join(map(str, errors))}")
    return HttpResponseRedirect(reverse("portal:incidents"))
