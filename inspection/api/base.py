"""The base of every officers' endpoint: read-only, access from inspection.portal.access, every
error the API's refusal ``{code, message, field, article}`` (casino_ops.api.exception_handler)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework import viewsets
from rest_framework.pagination import BasePagination, CursorPagination

from casino_ops.api import ActPermission, ListPages, ReadList, input_refusal
from casino_ops.regulations import cite
from casino_ops.services import get_casino
from inspection.portal import access


class OfficerPagination(ListPages):
    default_limit = 50


class SeqCursorPagination(CursorPagination):
    page_size = 100
    ordering = "-seq"


class OfficerEndpoint:
    """What every officers' endpoint shares: reads for officers (Act.READ), a 404 for the others,
    nothing written; a bad query is refused naming its field, and every error cites the article
    of the books the officers read (``rule``: kept without erasure, FR art. 68, LU art. 10)."""

    permission_classes: Sequence[Any] = [ActPermission]
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


class OfficerReadOnlyViewSet(ReadList, OfficerEndpoint, viewsets.ReadOnlyModelViewSet[Any]):
    """List and retrieve only, on the APIs' one list base (:class:`casino_ops.api.ReadList`): the
    queryset comes from ``selector``, filtered by the validated ``filter_class`` query of a list,
    restricted by role; a row by ``output_class`` (``detail_class`` for one entry, when given)."""

    pagination_class: type[BasePagination] | None = OfficerPagination
    filter_class: Any = None
    detail_class: Any = None

    def get_serializer_class(self) -> Any:
        if self.action == "retrieve" and self.detail_class is not None:
            return self.detail_class
        return self.output_class

    def filters(self) -> dict[str, Any]:
        if self.filter_class is None or self.action != "list":
            return {}
        query = self.valid_query(self.filter_class, self.request.query_params)
        return {k: v for k, v in query.items() if v not in (None, "")}

    def get_queryset(self) -> Any:
        return access.restrict(self.request.user, super().get_queryset())
