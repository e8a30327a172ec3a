"""The depot's REST API for its new acts (mounted under ``/api/depot/``).

Each POST runs the same service as the admin, its body validated by its serializer
(:mod:`cards_registry.serializers`); a refusal is an HTTP 400 ``{code, message, field,
article}`` (:mod:`casino_ops.api`). Decks are named by serial or by sixain, never by database
id. Access (:class:`casino_ops.api.ActPermission`): reads need the model's view permission,
writes the depot's act (``Act.DEPOT``: the director or a committee member, FR art. 39, LU art. 6).
"""

from __future__ import annotations

from typing import Any

from rest_framework import generics

from casino_ops.acts import declaration
from casino_ops.api import ActView, DeclaredActView, ReadDetail, ReadList, user_by_username
from casino_ops.refusals import Refusal

from . import selectors, services
from .models import Deck, Incident
from .serializers import (
    DeckOutSerializer,
    IncidentOutSerializer,
    InspectionFilterSerializer,
    InspectionOutSerializer,
    ReturnsFilterSerializer,
)


class _DepotView(ReadList, DeclaredActView, generics.ListAPIView[Any]):
    """An act of the depot beside its read list (GET)."""

    def officer(self, username: str) -> Any:
        """The officer told of an incident, by username (FR art. 40, LU art. 7)."""
        if not username:
            return None  # the act refuses an incident told to nobody
        user = user_by_username(username)
        if user is None:
            raise Refusal.OFFICER_NOT_TOLD.error(
                self.profile(), field="officer_informed", message=f"Utilisateur inconnu : {username}"
            )
        return user


class Incidents(_DepotView):
    """GET: the open incidents. POST: report an incident (decks by serial or sixain; a foreign
    card outside any deck with ``card``), told to ``officer_informed`` (username) or, FR, the
    named ``authority_informed``, at ``officer_informed_at``."""

    read_permission = "cards_registry.view_incident"
    declared = declaration(services.report_incident)
    output_class = IncidentOutSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.incidents_not_closed()

    def inputs(self, data: dict[str, Any], **url: Any) -> dict[str, Any]:
        decks = selectors.resolve_decks(data.pop("decks"), data.pop("sixains"), profile=self.profile())
        return {**data, "decks": decks, "officer_informed": self.officer(data["officer_informed"])}

    def answer(self, result: Any) -> Any:
        return IncidentOutSerializer(result).data


class Returns(_DepotView):
    """GET: the decks out (``?table=&day=``). POST: decks back from a table, each counted:
    ``{"table_number", "day", "results": [{"deck": serial, "result", "cards_counted", "remark"}]}``."""

    read_permission = "cards_registry.view_deck"
    declared = declaration(services.return_decks)
    filter_class = ReturnsFilterSerializer
    output_class = DeckOutSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.decks_out(table_number=filters["table"], day=filters["day"])

    def inputs(self, data: dict[str, Any], **url: Any) -> dict[str, Any]:
        results = []
        for line in data.pop("results"):
            named: list[Deck | None] = [*selectors.resolve_decks([line["deck"]], profile=self.profile())]
            [deck] = named or [None]
            if deck is None:
                raise Refusal.DECK_UNKNOWN.error(article=self.article())
            results.append((deck, line["result"], line["remark"], line["cards_counted"]))
        self._decks = [r[0] for r in results]
        return {**data, "results": results, "officer_informed": self.officer(data["officer_informed"])}

    def answer(self, result: Any) -> Any:
        lines = list(result.lines.select_related("issue_line__deck"))
        decks = [line.issue_line.deck for line in lines]
        return {
            "table": result.table_number,
            "day": result.day,
            "decks": [
                {
                    "serial": line.issue_line.deck.serial,
                    "result": line.result,
                    "cards_counted": line.cards_counted,
                }
                for line in lines
            ],
            "incidents": [
                i.number for i in Incident.objects.filter(decks__in=decks, closure__isnull=True).distinct()
            ],
        }


class OutOfUse(_DepotView):
    """GET: the decks out of use in the cabinet. POST: declare decks in the cabinet out of use
    (``{"decks": [serials], "sixains": [serials], "reason"}``)."""

    read_permission = "cards_registry.view_deck"
    declared = declaration(services.declare_out_of_use)
    output_class = DeckOutSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.decks_out_of_use()

    def inputs(self, data: dict[str, Any], **url: Any) -> dict[str, Any]:
        decks = selectors.resolve_decks(data["decks"], data["sixains"], profile=self.profile())
        return {"decks": decks, "reason": data["reason"]}

    def answer(self, result: Any) -> Any:
        return {"at": result.at, "reason": result.reason, "decks": [d.serial for d in result.decks.all()]}


class Inspection(ReadDetail, ActView):
    """GET: the self-inspection now (``?day=AAAA-MM-JJ``): ``{"checks", "breaches"}``."""

    read_permission = "audit.view_auditevent"
    filter_class = InspectionFilterSerializer
    output_class = InspectionOutSerializer
    rule = "depot.incident"

    def selector(self, **query: Any) -> Any:
        return selectors.self_inspection(query["day"])
