"""The base of every officers' endpoint: read-only, access from inspection.portal.access."""

from __future__ import annotations

from typing import Any

from rest_framework import viewsets
from rest_framework.pagination import BasePagination, CursorPagination, LimitOffsetPagination

from casino_ops.api import ActPermission
from inspection.portal import access


class OfficerPagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 500


class SeqCursorPagination(CursorPagination):
    page_size = 100
    ordering = "-seq"


class OfficerReadOnlyViewSet(viewsets.ReadOnlyModelViewSet[Any]):
    """List and retrieve only; the queryset comes from a selector, restricted by role.

    Subclasses give ``selector`` (a callable returning a queryset, filtered by the
    validated ``filter_serializer_class`` data when there is one).
    """

    # reads for officers (Act.READ), 404 for the others, nothing written
    permission_classes = [ActPermission]
    read_permission = access.READ
    hidden = True
    pagination_class: type[BasePagination] | None = OfficerPagination
    filter_serializer_class: Any = None

    def selector(self, **filters: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def filters(self) -> dict[str, Any]:
        if self.filter_serializer_class is None or self.action != "list":
            return {}
        serializer = self.filter_serializer_class(data=self.request.query_params)
        serializer.is_valid(raise_exception=True)
        return {k: v for k, v in serializer.validated_data.items() if v not in (None, "")}

    def get_queryset(self) -> Any:
        return access.restrict(self.request.user, self.selector(**self.filters()))
