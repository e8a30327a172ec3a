"""The depot's REST API for its new acts (mounted under ``/api/depot/``).

Each POST runs the same service as the admin; a refusal is an HTTP 400
``{code, message, field, article}`` (:func:`casino_ops.api.exception_handler`).
Decks are named by serial or by sixain, never by database id. Access: reads need
the model's view permission, writes the depot's act permission.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal, overload

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from rest_framework import permissions, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_ops import access
from casino_ops.access import Act
from casino_ops.inspection import inspect
from casino_ops.regulations import RegulationError, cite
from casino_ops.services import get_casino

from . import selectors, services
from .models import Deck, DeckStatus, Incident

READ, WRITE = "read", "write"


def _actor(request: Request) -> User:
    """The signed-in user who acts (the permission class lets no anonymous request through)."""
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated
    return user


class DepotPermission(permissions.BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        if not user or not user.is_authenticated:
            return False
        if not hasattr(view, (request.method or "").lower()):
            return True
        need = (
            view.required_perms[READ]
            if request.method in permissions.SAFE_METHODS
            else view.required_perms.get(WRITE)
        )
        if isinstance(need, Act):  # a regulated act: casino_ops.access decides
            return access.may(user, need)
        return bool(need) and user.has_perm(need)


def _profile() -> str:
    return get_casino().profile


def _required(data: Any, name: str, rule: str) -> Any:
    value = data.get(name) if hasattr(data, "get") else None
    if value in (None, "", []):
        raise RegulationError(
            "FIELD_REQUIRED", "Ce champ est obligatoire.", cite(rule, _profile()), field=name
        )
    return value


@overload
def _datetime(data: Any, name: str, rule: str, *, required: Literal[True] = True) -> dt.datetime: ...
@overload
def _datetime(data: Any, name: str, rule: str, *, required: bool) -> dt.datetime | None: ...
def _datetime(data: Any, name: str, rule: str, *, required: bool = True) -> dt.datetime | None:
    value = data.get(name)
    if value in (None, ""):
        if required:
            _required(data, name, rule)
        return None
    try:
        parsed = dt.datetime.fromisoformat(str(value))
    except ValueError:
        raise RegulationError(
            "FIELD_INVALID", f"Date et heure ISO 8601 attendues : {value}", cite(rule, _profile()), field=name
        ) from None
    if parsed.tzinfo is None:
        from django.utils import timezone

        parsed = timezone.make_aware(parsed)
    return parsed


def _date(data: Any, name: str, rule: str) -> dt.date:
    value = _required(data, name, rule)
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise RegulationError(
            "FIELD_INVALID", f"Date AAAA-MM-JJ attendue : {value}", cite(rule, _profile()), field=name
        ) from None


@overload
def _int(data: Any, name: str, rule: str, *, required: Literal[True] = True) -> int: ...
@overload
def _int(data: Any, name: str, rule: str, *, required: bool) -> int | None: ...
def _int(data: Any, name: str, rule: str, *, required: bool = True) -> int | None:
    value = data.get(name)
    if value in (None, ""):
        if required:
            _required(data, name, rule)
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise RegulationError(
            "FIELD_INVALID", f"Nombre entier attendu : {value}", cite(rule, _profile()), field=name
        ) from None


def _officer(data: Any, name: str) -> Any:
    username = data.get(name)
    if not username:
        return None
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise RegulationError(
            "OFFICER_NOT_TOLD",
            f"Utilisateur inconnu : {username}",
            cite("depot.incident", _profile()),
            field=name,
        )
    return user


def _deck_row(deck: Deck) -> dict[str, Any]:
    return {
        "maker": deck.manufacturer.code,
        "serial": deck.serial,
        "sixain": deck.sixain.serial if deck.sixain else None,
        "back_colour": deck.back_colour,
        "status": deck.status,
    }


def _incident_row(incident: Incident) -> dict[str, Any]:
    return {
        "number": incident.number,
        "kind": incident.kind,
        "route": incident.route,
        "day": incident.day,
        "table": incident.table_number,
        "card": incident.card,
        "decks": [d.serial for d in incident.decks.all()],
        "told_whom": incident.told_whom,
        "told_at": incident.told_at,
        "closed": hasattr(incident, "closure"),
    }


class Incidents(APIView):
    """GET: the open incidents. POST: report an incident (decks by serial or sixain; a foreign
    card outside any deck with ``card``), told to ``officer_informed`` (username) or, FR, the
    named ``authority_informed``, at ``officer_informed_at``."""

    permission_classes = [DepotPermission]
    required_perms = {READ: "cards_registry.view_incident", WRITE: Act.DEPOT}

    def get(self, request: Request) -> Response:
        rows = (
            Incident.objects.filter(closure__isnull=True)
            .select_related("officer_informed")
            .prefetch_related("decks")
        )
        return Response([_incident_row(i) for i in rows.order_by("number")])

    def post(self, request: Request) -> Response:
        data = request.data
        rule = "depot.incident"
        decks = selectors.resolve_decks(
            data.get("decks") or [], data.get("sixains") or [], profile=_profile()
        )
        incident = services.report_incident(
            actor=_actor(request),
            kind=str(_required(data, "kind", rule)),
            occurred_at=_datetime(data, "occurred_at", rule),
            day=_date(data, "day", rule),
            decks=decks,
            officer_informed=_officer(data, "officer_informed"),
            authority_informed=str(data.get("authority_informed") or ""),
            officer_informed_at=_datetime(data, "officer_informed_at", rule, required=False),
            circumstances=str(data.get("circumstances") or ""),
            table_number=_int(data, "table_number", rule, required=False),
            shoe_reference=str(data.get("shoe_reference") or ""),
            card=str(data.get("card") or ""),
        )
        return Response(_incident_row(incident), status=status.HTTP_201_CREATED)


class Returns(APIView):
    """GET: the decks out (``?table=&day=``). POST: decks back from a table, each counted:
    ``{"table_number", "day", "results": [{"deck": serial, "result", "cards_counted", "remark"}]}``."""

    permission_classes = [DepotPermission]
    required_perms = {READ: "cards_registry.view_deck", WRITE: Act.DEPOT}

    def get(self, request: Request) -> Response:
        rule = "depot.issue_and_unseal"
        params = request.query_params
        table = _int(params, "table", rule, required=False)
        day = _date(params, "day", rule) if params.get("day") else None
        return Response([_deck_row(d) for d in selectors.decks_out(table_number=table, day=day)])

    def post(self, request: Request) -> Response:
        data = request.data
        rule = "depot.issue_and_unseal"
        table = _int(data, "table_number", rule)
        day = _date(data, "day", rule)
        lines = _required(data, "results", rule)
        if not isinstance(lines, list) or not all(isinstance(r, dict) for r in lines):
            raise RegulationError(
                "FIELD_INVALID",
                "Une liste de jeux rendus est attendue.",
                cite(rule, _profile()),
                field="results",
            )
        results = []
        for line in lines:
            named: list[Deck | None] = [
                *selectors.resolve_decks([str(line.get("deck") or "")], profile=_profile())
            ]
            [deck] = named or [None]
            if deck is None:
                raise RegulationError(
                    "DECK_UNKNOWN", "Jeu sans numéro.", cite(rule, _profile()), field="results"
                )
            results.append(
                (
                    deck,
                    str(line.get("result") or ""),
                    str(line.get("remark") or ""),
                    line.get("cards_counted"),  # counted by hand, never presumed
                )
            )
        back = services.return_decks(
            actor=_actor(request),
            table_number=table,
            day=day,
            results=results,
            officer_informed=_officer(data, "officer_informed"),
            officer_informed_at=_datetime(data, "officer_informed_at", rule, required=False),
            authority_informed=str(data.get("authority_informed") or ""),
        )
        return Response(
            {
                "table": back.table_number,
                "day": back.day,
                "decks": [
                    {
                        "serial": line.issue_line.deck.serial,
                        "result": line.result,
                        "cards_counted": line.cards_counted,
                    }
                    for line in back.lines.select_related("issue_line__deck")
                ],
                "incidents": [
                    i.number
                    for i in Incident.objects.filter(
                        decks__in=[r[0] for r in results], closure__isnull=True
                    ).distinct()
                ],
            },
            status=status.HTTP_201_CREATED,
        )


class OutOfUse(APIView):
    """GET: the decks out of use in the cabinet. POST: declare decks in the cabinet out of use
    (``{"decks": [serials], "sixains": [serials], "reason"}``)."""

    permission_classes = [DepotPermission]
    required_perms = {READ: "cards_registry.view_deck", WRITE: Act.DEPOT}

    def get(self, request: Request) -> Response:
        rows = Deck.objects.filter(status=DeckStatus.OUT_OF_USE).select_related("manufacturer", "sixain")
        return Response([_deck_row(d) for d in rows.order_by("serial")])

    def post(self, request: Request) -> Response:
        data = request.data
        decks = selectors.resolve_decks(
            data.get("decks") or [], data.get("sixains") or [], profile=_profile()
        )
        declaration = services.declare_out_of_use(
            actor=_actor(request), decks=decks, reason=str(data.get("reason") or "")
        )
        return Response(
            {
                "at": declaration.at,
                "reason": declaration.reason,
                "decks": [d.serial for d in declaration.decks.all()],
            },
            status=status.HTTP_201_CREATED,
        )


class Inspection(APIView):
    """GET: the self-inspection now (``?day=AAAA-MM-JJ``): ``{"checks", "breaches"}``."""

    permission_classes = [DepotPermission]
    required_perms = {READ: "audit.view_auditevent"}

    def get(self, request: Request) -> Response:
        day = (
            _date(request.query_params, "day", "depot.incident") if request.query_params.get("day") else None
        )
        return Response(inspect(day).as_dict())
