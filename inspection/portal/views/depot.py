"""The card depot for the officer: a deck's life by serial, visas, incident closures.

Visas and incident closures are the officer's only writes; each is the act's form
(:mod:`inspection.portal.acts`), whose act calls the book's own service, which checks the
rules and records the audited act with the officer's name and time.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from cards_registry.selectors import all_incidents, deck_history
from casino_ops.validators import first_forbidden_character

from .. import access, selectors, sources
from ..acts import STAMPS, CloseIncidentForm, OfficerActForm, StampOrderForm, answer


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
    return _visas_page(request)


def _visas_page(request: HttpRequest, refused: OfficerActForm | None = None, kind: str = "") -> HttpResponse:
    """The entries awaiting the officer's visa (``refused``: the visa of the ``kind`` refused, as
    posted, its errors beside its entry)."""
    return render(
        request,
        "portal/visas.html",
        {
            "awaiting": sources.awaiting_visas(request.user),
            "form": StampOrderForm(),
            "refused": refused,
            "refused_kind": kind,
        },
    )


def _back(request: HttpRequest) -> str:
    back = request.POST.get("next") or reverse("portal:visas")
    return back if back.startswith("/inspection/") else reverse("portal:visas")


@access.officer_required(access.VISA)
def stamp(request: HttpRequest, kind: str, entry_id: int) -> HttpResponse:
    """The officer's visa on an entry awaiting it (an order, a receipt-book entry, a
    destruction, a fact of the authority, the act of the authorised minimum, the closing down,
    a day of the control register): the act's form, by the kind in the address."""
    form_class = STAMPS.get(kind)
    if form_class is None:
        raise Http404
    entry = access.get_visible_or_404(request.user, form_class.entries(), access.VISA, pk=entry_id)
    form = form_class(request.POST, request=request, target=entry)
    back = _back(request)
    if back != reverse("portal:visas"):  # a visa from another page: its errors said there
        return answer(request, form, back)
    return answer(request, form, back, page=lambda refused: _visas_page(request, refused, kind))


@access.officer_required()
def incidents(request: HttpRequest) -> HttpResponse:
    return _incidents_page(request)


def _incidents_page(request: HttpRequest, refused: OfficerActForm | None = None) -> HttpResponse:
    """The open incidents, each with its closure's form (``refused``: the one refused, as posted,
    its errors next to its fields)."""
    forms = [
        (
            incident,
            refused
            if refused is not None and incident == refused.target
            else CloseIncidentForm(target=incident),
        )
        for incident in sources.open_incidents()
    ]
    return render(request, "portal/incidents.html", {"forms": forms})


@access.officer_required(access.CLOSE_INCIDENT)
def close_incident(request: HttpRequest, incident_id: int) -> HttpResponse:
    """The officer closes an incident: his findings, and which decks are fit again."""
    incident = access.get_visible_or_404(request.user, all_incidents(), access.CLOSE_INCIDENT, pk=incident_id)
    form = CloseIncidentForm(request.POST, request=request, target=incident)
    return answer(
        request, form, reverse("portal:incidents"), page=lambda refused: _incidents_page(request, refused)
    )
