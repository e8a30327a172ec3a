"""Officers' endpoints over the audit record."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_view

from audit.portal import selectors

from .base import OfficerReadOnlyViewSet, SeqCursorPagination
from .serializers import (
    OfficerAuditEventFilterSerializer,
    OfficerAuditEventSerializer,
    OfficerDeckDetailSerializer,
    OfficerDeckFilterSerializer,
    OfficerDeckSerializer,
    OfficerDiscrepancyFilterSerializer,
    OfficerDiscrepancySerializer,
    OfficerHandLogDetailSerializer,
    OfficerHandLogFilterSerializer,
    OfficerHandLogSerializer,
    OfficerSessionDetailSerializer,
    OfficerSessionFilterSerializer,
    OfficerSessionSerializer,
)


@extend_schema_view(list=extend_schema(parameters=[OfficerAuditEventFilterSerializer]))
class AuditEventViewSet(OfficerReadOnlyViewSet):
    """The sealed events of the hash-chained audit record, newest first."""

    serializer_class = OfficerAuditEventSerializer
    filter_serializer_class = OfficerAuditEventFilterSerializer
    pagination_class = SeqCursorPagination
    lookup_field = "seq"
    lookup_value_regex = "[0-9]+"

    def selector(self, **filters: Any) -> Any:
        return selectors.audit_events(**filters)


@extend_schema_view(list=extend_schema(parameters=[OfficerDeckFilterSerializer]))
class DeckViewSet(OfficerReadOnlyViewSet):
    """The decks of the depot; a deck's detail is its whole life, with audit numbers."""

    filter_serializer_class = OfficerDeckFilterSerializer

    def get_serializer_class(self) -> Any:
        return OfficerDeckDetailSerializer if self.action == "retrieve" else OfficerDeckSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.decks(**filters)


@extend_schema_view(list=extend_schema(parameters=[OfficerSessionFilterSerializer]))
class SessionViewSet(OfficerReadOnlyViewSet):
    """Sessions of the tables; a session's detail is its whole report."""

    filter_serializer_class = OfficerSessionFilterSerializer

    def get_serializer_class(self) -> Any:
        return OfficerSessionDetailSerializer if self.action == "retrieve" else OfficerSessionSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.sessions(**filters)


@extend_schema_view(list=extend_schema(parameters=[OfficerHandLogFilterSerializer]))
class HandLogViewSet(OfficerReadOnlyViewSet):
    """Hand logs with their replay; a log's detail carries the engine's replay report."""

    filter_serializer_class = OfficerHandLogFilterSerializer

    def get_serializer_class(self) -> Any:
        return OfficerHandLogDetailSerializer if self.action == "retrieve" else OfficerHandLogSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.hand_logs(**filters)


@extend_schema_view(list=extend_schema(parameters=[OfficerDiscrepancyFilterSerializer]))
class DiscrepancyViewSet(OfficerReadOnlyViewSet):
    """Discrepancies found by the replays, with their articles."""

    serializer_class = OfficerDiscrepancySerializer
    filter_serializer_class = OfficerDiscrepancyFilterSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.discrepancies(**filters)
