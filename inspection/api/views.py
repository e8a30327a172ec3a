"""Officers' endpoints over the audit record."""

from __future__ import annotations

from typing import Any

from django.http import FileResponse, Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework.decorators import action

from audit.models import AuditEvent
from inspection.portal import selectors

from .base import OfficerReadOnlyViewSet, SeqCursorPagination
from .serializers import (
    OfficerAuditEventFilterSerializer,
    OfficerAuditEventSerializer,
    OfficerCheckpointSerializer,
    OfficerDeckDetailSerializer,
    OfficerDeckFilterSerializer,
    OfficerDeckSerializer,
    OfficerDiscrepancyFilterSerializer,
    OfficerDiscrepancySerializer,
    OfficerHandLogDetailSerializer,
    OfficerHandLogFilterSerializer,
    OfficerHandLogSerializer,
    OfficerReportFilterSerializer,
    OfficerReportSerializer,
    OfficerSessionDetailSerializer,
    OfficerSessionFilterSerializer,
    OfficerSessionSerializer,
)


@extend_schema_view(list=extend_schema(parameters=[OfficerAuditEventFilterSerializer]))
class AuditEventViewSet(OfficerReadOnlyViewSet):
    """The sealed events of the hash-chained audit record, newest first."""

    output_class = OfficerAuditEventSerializer
    filter_class = OfficerAuditEventFilterSerializer
    pagination_class = SeqCursorPagination
    lookup_field = "seq"
    lookup_value_regex = "[0-9]+"

    def selector(self, **filters: Any) -> Any:
        return selectors.audit_events(**filters)


@extend_schema_view(list=extend_schema(parameters=[OfficerDeckFilterSerializer]))
class DeckViewSet(OfficerReadOnlyViewSet):
    """The decks of the depot; a deck's detail is its whole life, with audit numbers."""

    filter_class = OfficerDeckFilterSerializer
    output_class = OfficerDeckSerializer
    detail_class = OfficerDeckDetailSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.decks(**filters)


@extend_schema_view(list=extend_schema(parameters=[OfficerSessionFilterSerializer]))
class SessionViewSet(OfficerReadOnlyViewSet):
    """Sessions of the tables; a session's detail is its whole report."""

    filter_class = OfficerSessionFilterSerializer
    output_class = OfficerSessionSerializer
    detail_class = OfficerSessionDetailSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.sessions(**filters)


@extend_schema_view(list=extend_schema(parameters=[OfficerHandLogFilterSerializer]))
class HandLogViewSet(OfficerReadOnlyViewSet):
    """Hand logs with their replay; a log's detail carries the engine's replay report."""

    filter_class = OfficerHandLogFilterSerializer
    output_class = OfficerHandLogSerializer
    detail_class = OfficerHandLogDetailSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.hand_logs(**filters)


@extend_schema_view(list=extend_schema(parameters=[OfficerDiscrepancyFilterSerializer]))
class DiscrepancyViewSet(OfficerReadOnlyViewSet):
    """Discrepancies found by the replays, with their articles."""

    output_class = OfficerDiscrepancySerializer
    filter_class = OfficerDiscrepancyFilterSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.discrepancies(**filters)


@extend_schema_view(list=extend_schema(parameters=[OfficerReportFilterSerializer]))
class ReportViewSet(OfficerReadOnlyViewSet):
    """The registers printed as signed PDFs (find one by its SHA-256), and their files."""

    output_class = OfficerReportSerializer
    filter_class = OfficerReportFilterSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.reports(**filters)

    @extend_schema(responses={(200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY)})
    @action(detail=True, methods=["get"])
    def pdf(self, request: Any, pk: Any = None) -> Any:
        report = self.get_object()
        if report.state != "done" or not report.file:
            raise Http404
        return FileResponse(
            report.file.open("rb"), content_type="application/pdf", filename=f"report-{report.pk}.pdf"
        )


class CheckpointViewSet(OfficerReadOnlyViewSet):
    """Signed checkpoints of the audit chain's head, and whether the chain still matches each."""

    output_class = OfficerCheckpointSerializer
    lookup_field = "seq"
    lookup_value_regex = "[0-9]+"

    def selector(self, **filters: Any) -> Any:
        return selectors.checkpoints()

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        page = getattr(self, "_page_seqs", None)
        if page is not None:
            context["chain_hashes"] = dict(AuditEvent.objects.filter(seq__in=page).values_list("seq", "hash"))
        return context

    def paginate_queryset(self, queryset: Any) -> Any:
        page = super().paginate_queryset(queryset)
        if page is not None:
            self._page_seqs = [c.seq for c in page]
        return page
