"""The base of every officers' endpoint: read-only, access from inspection.portal.access, every
error the API's refusal ``{code, message, field, article}`` (casino_ops.api.exception_handler)."""

from __future__ import annotations

from typing import Any

from rest_framework import viewsets
from rest_framework.pagination import BasePagination, CursorPagination, LimitOffsetPagination

from casino_ops.api import ActPermission, input_refusal
from casino_ops.regulations import cite
from casino_ops.services import get_casino
from inspection.portal import access


class OfficerPagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 500


class SeqCursorPagination(CursorPagination):
    page_size = 100
    ordering = "-seq"


class OfficerEndpoint:
    """What every officers' endpoint shares: reads for officers (Act.READ), a 404 for the others,
    nothing written; a bad query is refused naming its field, and every error cites the article
    of the books the officers read (``rule``: kept without erasure, FR art. 68, LU art. 10)."""

    permission_classes = [ActPermission]
    read_permission = access.READ
    hidden = True
    rule = "books.no_erasure"

    def article(self) -> str:
        return cite(self.rule, get_casino().profile)

    def valid_query(self, serializer_class: Any, data: Any) -> dict[str, Any]:
        """``data`` (a query) validated by ``serializer_class``, or the refusal naming its field."""
        serializer = serializer_class(data=data)
        if not serializer.is_valid():
            raise input_refusal(serializer.errors, self.article())
        return dict(serializer.validated_data)


class OfficerReadOnlyViewSet(OfficerEndpoint, viewsets.ReadOnlyModelViewSet[Any]):
    """List and retrieve only; the queryset comes from a selector, restricted by role.

    Subclasses give ``selector`` (a callable returning a queryset, filtered by the
    validated ``filter_serializer_class`` data when there is one).
    """

    pagination_class: type[BasePagination] | None = OfficerPagination
    filter_serializer_class: Any = None

    def selector(self, **filters: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def filters(self) -> dict[str, Any]:
        if self.filter_serializer_class is None or self.action != "list":
            return {}
        query = self.valid_query(self.filter_serializer_class, self.request.query_params)
        return {k: v for k, v in query.items() if v not in (None, "")}

    def get_queryset(self) -> Any:
        return access.restrict(self.request.user, self.selector(**self.filters()))
