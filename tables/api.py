"""The tables' REST API (mounted under ``/api/tables/``).

Hand logs arrive as the JSON body of ``POST sessions/<id>/hand-logs/``: the
body is the log itself, stored byte for byte (its SHA-256 is that of the
body). A refusal is an HTTP 400 ``{code, message, field, article}``.
Access is decided here in one place, by the role's model permissions.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from rest_framework import generics, permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from . import selectors, services
from .models import HandLog, HandLogSource, Session
from .serializers import (
    DealerErrorFilterSerializer,
    HandLogReceivedSerializer,
    HandLogSerializer,
    SessionFilterSerializer,
    SessionSerializer,
)

# What each method needs, per view: (read permission, write permission).
READ, WRITE = "read", "write"


class TablesPermission(permissions.BasePermission):
    """Reads need the view permission of the view's model; a POST its add permission."""

    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        if not user or not user.is_authenticated:
            return False
        if not hasattr(view, request.method.lower()):
            return True  # the view answers 405 Method Not Allowed
        perms = view.required_perms
        need = perms[READ] if request.method in permissions.SAFE_METHODS else perms.get(WRITE)
        return bool(need) and user.has_perm(need)


class SessionList(generics.ListAPIView):
    """Sessions, filtered by table number, day and status."""

    permission_classes = [TablesPermission]
    required_perms = {READ: "tables.view_session"}
    serializer_class = SessionSerializer

    def get_queryset(self) -> Any:
        filters = SessionFilterSerializer(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        return selectors.sessions(**filters.validated_data)


class SessionDetail(APIView):
    """The session report: advance book lines, shoes, hand logs and their discrepancies."""

    permission_classes = [TablesPermission]
    required_perms = {READ: "tables.view_session"}

    def get(self, request: Request, pk: int) -> Response:
        try:
            report = selectors.session_report(pk)
        except Session.DoesNotExist:
            raise Http404 from None
        return Response(report)


class SessionHandLogs(APIView):
    """GET: the session's hand logs. POST: upload one hand log (the JSON body is the log)."""

    permission_classes = [TablesPermission]
    required_perms = {READ: "tables.view_handlog", WRITE: "tables.add_handlog"}

    def get(self, request: Request, pk: int) -> Response:
        logs = selectors.hand_logs(session_id=pk)
        return Response(HandLogSerializer(logs, many=True).data)

    def post(self, request: Request, pk: int) -> Response:
        raw = request.body  # the log exactly as sent, before any parsing
        session = Session.objects.filter(pk=pk).select_related("table").first()
        if session is None:
            raise Http404
        log = services.upload_hand_log(actor=request.user, session=session, raw=raw, source=HandLogSource.API)
        return Response(HandLogReceivedSerializer(log).data, status=status.HTTP_201_CREATED)


class HandLogDetail(generics.RetrieveAPIView):
    """One hand log, its replay and its discrepancies."""

    permission_classes = [TablesPermission]
    required_perms = {READ: "tables.view_handlog"}
    serializer_class = HandLogSerializer

    def get_queryset(self) -> Any:
        return selectors.hand_logs()


class DealerErrors(APIView):
    """Dealer-error summary per table, session or croupier."""

    permission_classes = [TablesPermission]
    required_perms = {READ: "tables.view_discrepancy"}

    def get(self, request: Request) -> Response:
        filters = DealerErrorFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        return Response(selectors.dealer_error_summary(**filters.validated_data))


__all__ = ["DealerErrors", "HandLog", "HandLogDetail", "SessionDetail", "SessionHandLogs", "SessionList"]
