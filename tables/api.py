"""The tables' REST API (mounted under ``/api/tables/``).

Hand logs arrive as the JSON body of ``POST sessions/<id>/hand-logs/``: the
body is the log itself, stored byte for byte (its SHA-256 is that of the
body), up to 16 MiB and 32 levels of nesting (a 5,700-round shoe is about
4 MB); no string may hold a control character (NUL included) or exceed its
field. A refusal, size included, is an HTTP 400 ``{code, message, field, article}``.
Access is decided here in one place, by the role's model permissions.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, permissions, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_ops.regulations import RegulationError
from casino_ops.services import get_casino

from . import rules, selectors, services
from .models import AuthorisedMinimum, Delegation, Discrepancy, HandLog, HandLogSource, Session, Table
from .serializers import (
    AcknowledgeInSerializer,
    AdvanceInSerializer,
    AuthorisedMinimumInSerializer,
    CloseInSerializer,
    DealerErrorFilterSerializer,
    DelegationInSerializer,
    HandLogReceivedSerializer,
    HandLogSerializer,
    InterruptInSerializer,
    MaximumInSerializer,
    OpenSessionInSerializer,
    SessionFilterSerializer,
    SessionSerializer,
)

# What each method needs, per view: (read permission, write permission).
READ, WRITE = "read", "write"


def _actor(request: Request) -> User:
    """The signed-in user who acts (the permission class lets no anonymous request through)."""
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated
    return user


class TablesPermission(permissions.BasePermission):
    """Reads need the view permission of the view's model; a POST its add permission."""

    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        if not user or not user.is_authenticated:
            return False
        if not hasattr(view, (request.method or "").lower()):
            return True  # the view answers 405 Method Not Allowed
        perms = view.required_perms
        need = perms[READ] if request.method in permissions.SAFE_METHODS else perms.get(WRITE)
        return bool(need) and user.has_perm(need)


class SessionList(generics.ListAPIView[Session]):
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


def _read_log_body(request: Request) -> bytes:
    """The body read as a stream up to the hand-log limit (``MAX_HAND_LOG_BYTES``, above Django's
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``), so that a large valid log is received as by the command and
    one too large is refused in the API's JSON format."""
    django_request = request._request
    try:
        declared = int(django_request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    rules.check_hand_log_size(declared)
    if getattr(django_request, "_body", None) is not None:
        raw = django_request._body
    else:
        raw = django_request.read(rules.MAX_HAND_LOG_BYTES + 1)
    rules.check_hand_log_size(len(raw))
    return raw


class SessionHandLogs(APIView):
    """GET: the session's hand logs. POST: upload one hand log (the JSON body is the log)."""

    permission_classes = [TablesPermission]
    required_perms = {READ: "tables.view_handlog", WRITE: "tables.add_handlog"}

    def get(self, request: Request, pk: int) -> Response:
        logs = selectors.hand_logs(session_id=pk)
        return Response(HandLogSerializer(logs, many=True).data)

    @extend_schema(
        request={"application/json": OpenApiTypes.OBJECT},
        responses={
            201: HandLogReceivedSerializer,
            400: OpenApiResponse(description="Refused: {code, message, field, article}; nothing stored."),
            404: OpenApiResponse(description="No such session."),
        },
        description="Upload one hand log: the JSON body is the log (casino-hand-log/1), stored byte for byte.",
    )
    def post(self, request: Request, pk: int) -> Response:
        raw = _read_log_body(request)  # the log exactly as sent, before any parsing
        session = Session.objects.filter(pk=pk).select_related("table").first()
        if session is None:
            raise Http404
        log = services.upload_hand_log(
            actor=_actor(request), session=session, raw=raw, source=HandLogSource.API
        )
        return Response(HandLogReceivedSerializer(log).data, status=status.HTTP_201_CREATED)


class HandLogDetail(generics.RetrieveAPIView[HandLog]):
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


def _validated(serializer_class: type, data: Any) -> dict[str, Any]:
    """The input, or the API's refusal ``{code, message, field, article}`` naming the first bad field."""
    serializer = serializer_class(data=data)
    if not serializer.is_valid():
        field, errors = next(iter(serializer.errors.items()))
        message = errors[0] if isinstance(errors, list) else errors
        if isinstance(message, dict):  # a list field's item
            message = next(iter(message.values()))[0]
        raise RegulationError("FIELD_INVALID", f"{field} : {message}", field=field)
    validated: dict[str, Any] = serializer.validated_data
    return validated


def _user(username: str, field: str) -> Any:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise RegulationError("UNKNOWN_USER", f"{field} : {username}", field=field)
    return user


class Delegations(APIView):
    """POST: the director records his delegate for the direction of play (LU art. 51 V)."""

    permission_classes = [TablesPermission]
    required_perms = {READ: "tables.view_delegation", WRITE: "tables.add_delegation"}

    def get(self, request: Request) -> Response:
        rows = Delegation.objects.select_related("delegate", "granted_by").order_by("-valid_from", "-at")
        return Response([selectors.delegation_dict(d) for d in rows])

    def post(self, request: Request) -> Response:
        data = dict(_validated(DelegationInSerializer, request.data))
        data["delegate"] = _user(data["delegate"], "delegate")
        delegation = services.grant_delegation(actor=_actor(request), **data)
        return Response({"id": delegation.pk}, status=status.HTTP_201_CREATED)


class AuthorisedMinimums(APIView):
    """POST: the director records the authorised minimum of a decree (stamped later by an officer)."""

    permission_classes = [TablesPermission]
    required_perms = {READ: "tables.view_authorisedminimum", WRITE: "tables.add_authorisedminimum"}

    def get(self, request: Request) -> Response:
        rows = AuthorisedMinimum.objects.select_related("stamped_by").order_by("-in_force_on", "-recorded_at")
        return Response(
            [
                {
                    "id": a.pk,
                    "minimum": a.minimum,
                    "decree_reference": a.decree_reference,
                    "decree_date": a.decree_date,
                    "in_force_on": a.in_force_on,
                    "stamped_at": a.stamped_at,
                }
                for a in rows
            ]
        )

    def post(self, request: Request) -> Response:
        act = services.record_authorised_minimum(
            actor=_actor(request), **_validated(AuthorisedMinimumInSerializer, request.data)
        )
        return Response({"id": act.pk}, status=status.HTTP_201_CREATED)


class AcknowledgeDiscrepancies(APIView):
    """POST ``{"discrepancies": [ids], "note"}``: the director takes note of discrepancies."""

    permission_classes = [TablesPermission]
    required_perms = {READ: "tables.view_discrepancy", WRITE: "tables.add_discrepancyacknowledgement"}

    def get(self, request: Request) -> Response:
        rows = (
            Discrepancy.objects.filter(acknowledgement__isnull=True)
            .order_by("id")
            .values_list("id", flat=True)
        )
        return Response({"not_acknowledged": list(rows[:10000])})

    def post(self, request: Request) -> Response:
        data = _validated(AcknowledgeInSerializer, request.data)
        wanted = set(data["discrepancies"])
        rows = list(Discrepancy.objects.filter(pk__in=wanted))
        if len(rows) != len(wanted):
            missing = sorted(wanted - {r.pk for r in rows})
            raise RegulationError("UNKNOWN_DISCREPANCY", f"discrepancies : {missing}", field="discrepancies")
        done = services.acknowledge_discrepancies(
            actor=_actor(request), discrepancies=rows, note=data["note"]
        )
        return Response({"acknowledged": [r.discrepancy_id for r in done]}, status=status.HTTP_200_OK)


def _session(pk: int) -> Session:
    session = Session.objects.filter(pk=pk).select_related("table").first()
    if session is None:
        raise Http404
    return session


def _users(data: dict[str, Any], *fields: str) -> dict[str, Any]:
    """Usernames given for people (croupier, signer, cashier, key holder) replaced by the users."""
    out = dict(data)
    for field in fields:
        if out.get(field):
            out[field] = _user(out[field], field)
        else:
            out[field] = None
    return out


class OpenSession(APIView):
    """POST: open a session of a table (by its number) for the current gaming day, with its limits
    and its initial advance; the caller signs and fixes the maximum."""

    permission_classes = [TablesPermission]
    required_perms = {READ: "tables.view_session", WRITE: "tables.add_session"}

    def get(self, request: Request) -> Response:
        from django.utils import timezone

        return Response({"gaming_day": get_casino().gaming_day(timezone.now())})

    def post(self, request: Request) -> Response:
        data = _users(_validated(OpenSessionInSerializer, request.data), "croupier")
        table = Table.objects.filter(number=data.pop("table")).first()
        if table is None:
            raise RegulationError("UNKNOWN_TABLE", "table", field="table")
        session = services.open_session(actor=_actor(request), table=table, **data)
        return Response({"id": session.pk, "day": session.day}, status=status.HTTP_201_CREATED)


class SessionAct(APIView):
    """POST one act on a session: ``advance``, ``interrupt``, ``resume``, ``close``, ``maximum``."""

    permission_classes = [TablesPermission]
    act = ""
    required_perms = {READ: "tables.view_session", WRITE: "tables.add_advanceentry"}

    def get(self, request: Request, pk: int) -> Response:
        session = _session(pk)
        return Response({"id": session.pk, "status": session.status, "day": session.day})

    def post(self, request: Request, pk: int) -> Response:
        session = _session(pk)
        user = _actor(request)
        if self.act == "advance":
            data = _users(_validated(AdvanceInSerializer, request.data), "counted_by")
            entry = services.add_advance(actor=user, session=session, **data)
        elif self.act == "interrupt":
            data = _users(
                _validated(InterruptInSerializer, request.data), "key_holder", "signed_by", "cashier"
            )
            entry = services.interrupt_session(actor=user, session=session, **data)
        elif self.act == "resume":
            entry = services.resume_session(actor=user, session=session)
        elif self.act == "close":
            data = _users(_validated(CloseInSerializer, request.data), "counted_by", "cashier")
            entry = services.close_session(actor=user, session=session, **data)
        else:
            change = services.change_maximum(
                actor=user, session=session, **_validated(MaximumInSerializer, request.data)
            )
            return Response({"id": change.pk, "maximum": change.maximum}, status=status.HTTP_201_CREATED)
        return Response({"line": entry.line, "kind": entry.kind}, status=status.HTTP_201_CREATED)


class MaximumAct(SessionAct):
    act = "maximum"
    required_perms = {READ: "tables.view_session", WRITE: "tables.add_maximumchange"}


__all__ = ["DealerErrors", "HandLog", "HandLogDetail", "SessionDetail", "SessionHandLogs", "SessionList"]
