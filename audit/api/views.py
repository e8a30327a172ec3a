"""Officers' endpoints over the audit record."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_view

from audit.portal import selectors

from .base import OfficerReadOnlyViewSet, SeqCursorPagination
from .serializers import AuditEventFilterSerializer, AuditEventSerializer


@extend_schema_view(list=extend_schema(parameters=[AuditEventFilterSerializer]))
class AuditEventViewSet(OfficerReadOnlyViewSet):
    """The sealed events of the hash-chained audit record, newest first."""

    serializer_class = AuditEventSerializer
    filter_serializer_class = AuditEventFilterSerializer
    pagination_class = SeqCursorPagination
    lookup_field = "seq"
    lookup_value_regex = "[0-9]+"

    def selector(self, **filters: Any) -> Any:
        return selectors.audit_events(**filters)
