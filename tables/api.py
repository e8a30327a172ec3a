"""The tables' REST API (mounted under ``/api/tables/``).

Hand logs arrive as the JSON body of ``POST sessions/<id>/hand-logs/``: the
body is the log itself, stored byte for byte (its SHA-256 is that of the
body), up to 16 MiB and 32 levels of nesting (a 5,700-round shoe is about
4 MB); no string may hold a control character (NUL included) or exceed its
field. A refusal, size included, is an HTTP 400 ``{code, message, field, article}``.
Access (:class:`casino_ops.api.ActPermission`): reads by the role's model permissions, each
act by its :class:`casino_ops.access.Act`; each act's body is validated by its serializer
(:mod:`tables.serializers`), a bad value refused as ``{code, message, field, article}``.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response

from cards_registry.selectors import incident_notice, incidents_of_replay
from casino_ops.access import Act
from casino_ops.api import ActMixin, ActView
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite
from casino_ops.services import get_casino

from . import rules, selectors, services
from .models import AuthorisedMinimum, Delegation, Discrepancy, HandLog, HandLogSource, Replay, Session, Table
from .serializers import (
    AcknowledgeInSerializer,
    AdvanceInSerializer,
    AuthorisedMinimumInSerializer,
    CloseInSerializer,
    DealerErrorFilterSerializer,
    DelegationInSerializer,
    HandLogAnswerSerializer,
    HandLogReceivedSerializer,
    HandLogSerializer,
    InterruptInSerializer,
    MaximumInSerializer,
    NoInputSerializer,
    OpenSessionInSerializer,
    SessionFilterSerializer,
    SessionSerializer,
    TableInSerializer,
)


class SessionList(ActMixin, generics.ListAPIView[Session]):
    """Sessions, filtered by table number, day and status."""

    read_permission = "tables.view_session"
    serializer_class = SessionSerializer
    filter_class = SessionFilterSerializer

    def get_queryset(self) -> Any:
        return selectors.sessions(**self.filters())


class SessionDetail(ActView):
    """The session report: advance book lines, shoes, hand logs and their discrepancies."""

    read_permission = "tables.view_session"

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


class SessionHandLogs(ActView):
    """GET: the session's hand logs. POST: upload one hand log (the JSON body is the log, stored
    byte for byte and validated by the hand-log parser: it has no input serializer)."""

    read_permission = "tables.view_handlog"
    act = Act.UPLOAD_HAND_LOG
    raw_body = True  # the body is the log itself (tables.rules.hand_log), not fields

    def get(self, request: Request, pk: int) -> Response:
        logs = selectors.hand_logs(session_id=pk)
        return Response(HandLogSerializer(logs, many=True).data)

    @extend_schema(
        request={"application/json": OpenApiTypes.OBJECT},
        responses={
            201: HandLogAnswerSerializer,
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
        log = services.upload_hand_log(actor=self.actor(), session=session, raw=raw, source=HandLogSource.API)
        return Response(received_answer(request, log), status=status.HTTP_201_CREATED)


def received_answer(request: Request, log: HandLog) -> dict[str, Any]:
    """The answer to a hand log received: the log as stored, then what the caller can know of its
    replay. The replay runs once the log is committed, on a worker: when it has not finished yet,
    ``replay.state`` is ``"pending"`` and ``incidents`` is null (read them later at
    ``replay.url``); once it has run (in-process, or already done by the worker), its state, its
    discrepancies and the card incidents it opened, each with its number, its decks quarantined and
    its article (FR art. 40, LU art. 7), and ``notice``, what to do next."""
    answer = dict(HandLogReceivedSerializer(log).data)
    replay = Replay.objects.filter(hand_log=log).first()
    answer["replay"] = {
        "url": request.build_absolute_uri(reverse("tables:hand-log-detail", args=[log.pk])),
        "state": replay.state if replay is not None else "pending",
        "ok": replay.ok if replay is not None else None,
        "discrepancies": replay.discrepancy_count if replay is not None else None,
    }
    if replay is None:
        answer["incidents"] = None
        answer["notice"] = ""
        return answer
    opened = incidents_of_replay(
        table_number=log.session.table.number, day=log.session.day, shoe_reference=log.shoe_label
    )
    article = cite("depot.incident", get_casino().profile)
    answer["incidents"] = [
        {
            "number": incident.number,
            "kind": incident.kind,
            "kind_label": str(incident.get_kind_display()),
            "decks": sorted(deck.serial for deck in incident.decks.all()),
            "article": article,
        }
        for incident in opened
    ]
    answer["notice"] = incident_notice(opened)
    return answer


class HandLogDetail(ActMixin, generics.RetrieveAPIView[HandLog]):
    """One hand log, its replay and its discrepancies."""

    read_permission = "tables.view_handlog"
    serializer_class = HandLogSerializer

    def get_queryset(self) -> Any:
        return selectors.hand_logs()


class DealerErrors(ActView):
    """Dealer-error summary per table, session or croupier."""

    read_permission = "tables.view_discrepancy"
    filter_class = DealerErrorFilterSerializer

    def get(self, request: Request) -> Response:
        return Response(selectors.dealer_error_summary(**self.filters()))


class Delegations(ActView):
    """POST: the director records his delegate for the direction of play (LU art. 51 V)."""

    read_permission = "tables.view_delegation"
    act = Act.GRANT_DELEGATION
    serializer_class = DelegationInSerializer
    rule = "limits.maximum_by_director"

    def get(self, request: Request) -> Response:
        rows = Delegation.objects.select_related("delegate", "granted_by").order_by("-valid_from", "-at")
        return Response([selectors.delegation_dict(d) for d in rows])

    def post(self, request: Request) -> Response:
        data = self.validated()
        data["delegate"] = self.user_named(data["delegate"], "delegate")
        delegation = services.grant_delegation(actor=self.actor(), **data)
        return Response({"id": delegation.pk}, status=status.HTTP_201_CREATED)


class AuthorisedMinimums(ActView):
    """POST: the director records the authorised minimum of a decree (stamped later by an officer)."""

    read_permission = "tables.view_authorisedminimum"
    act = Act.RECORD_AUTHORISED_MINIMUM
    serializer_class = AuthorisedMinimumInSerializer
    rule = "limits.authorised_minimum"

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
        act = services.record_authorised_minimum(actor=self.actor(), **self.validated())
        return Response({"id": act.pk}, status=status.HTTP_201_CREATED)


class AcknowledgeDiscrepancies(ActView):
    """POST ``{"discrepancies": [ids], "note"}``: the director takes note of discrepancies."""

    read_permission = "tables.view_discrepancy"
    act = Act.ACKNOWLEDGE_DISCREPANCIES
    serializer_class = AcknowledgeInSerializer
    rule = "books.no_erasure"

    def get(self, request: Request) -> Response:
        rows = (
            Discrepancy.objects.filter(acknowledgement__isnull=True)
            .order_by("id")
            .values_list("id", flat=True)
        )
        return Response({"not_acknowledged": list(rows[:10000])})

    def post(self, request: Request) -> Response:
        data = self.validated()
        wanted = set(data["discrepancies"])
        rows = list(Discrepancy.objects.filter(pk__in=wanted))
        if len(rows) != len(wanted):
            missing = sorted(wanted - {r.pk for r in rows})
            raise Refusal.UNKNOWN_DISCREPANCY.error(
                article=self.article(), message=f"discrepancies : {missing}"
            )
        done = services.acknowledge_discrepancies(actor=self.actor(), discrepancies=rows, note=data["note"])
        return Response({"acknowledged": [r.discrepancy_id for r in done]}, status=status.HTTP_200_OK)


def _table_dict(table: Table) -> dict[str, Any]:
    return {
        "id": table.pk,
        "number": table.number,
        "code": table.code,
        "boxes": table.boxes,
        "in_service": table.in_service,
    }


class Tables(ActView):
    """GET: the tables. POST: put a table on the floor (the director or a committee member)."""

    read_permission = "tables.view_table"
    act = Act.PUT_ON_FLOOR
    serializer_class = TableInSerializer
    rule = "table.layout"

    def get(self, request: Request) -> Response:
        return Response([_table_dict(t) for t in Table.objects.order_by("number")])

    def post(self, request: Request) -> Response:
        table = services.create_table(actor=self.actor(), **self.validated())
        return Response(_table_dict(table), status=status.HTTP_201_CREATED)


class OpenSession(ActView):
    """POST: open a session of a table (by its number) for the current gaming day, with its limits
    and its initial advance; the caller signs and fixes the maximum."""

    read_permission = "tables.view_session"
    act = Act.SIGN_ADVANCE  # the initial advance is signed by management (FR art. 69, LU art. 10)
    serializer_class = OpenSessionInSerializer
    rule = "advance.count_and_sign"

    def get(self, request: Request) -> Response:
        return Response({"gaming_day": get_casino().gaming_day(timezone.now())})

    def post(self, request: Request) -> Response:
        data = self.validated()
        data["croupier"] = self.user_named(data["croupier"], "croupier")
        table = Table.objects.filter(number=data.pop("table")).first()
        if table is None:
            raise Refusal.UNKNOWN_TABLE.error(article=self.article())
        session = services.open_session(actor=self.actor(), table=table, **data)
        return Response({"id": session.pk, "day": session.day}, status=status.HTTP_201_CREATED)


class _SessionActView(ActView):
    """An act on one session (``sessions/<pk>/…``): GET says what it concerns."""

    read_permission = "tables.view_session"

    def session(self, pk: int) -> Session:
        session = Session.objects.filter(pk=pk).select_related("table").first()
        if session is None:
            raise Http404
        return session

    def get(self, request: Request, pk: int) -> Response:
        session = self.session(pk)
        return Response({"id": session.pk, "status": session.status, "day": session.day})

    def entry(self, entry: Any) -> Response:
        return Response({"line": entry.line, "kind": entry.kind}, status=status.HTTP_201_CREATED)


class AddAdvance(_SessionActView):
    """POST ``{"amount", "counted_by"}``: a further advance, counted by the croupier and signed
    by the caller (FR art. 69, LU art. 10)."""

    act = Act.SIGN_ADVANCE
    serializer_class = AdvanceInSerializer
    rule = "advance.count_and_sign"

    def post(self, request: Request, pk: int) -> Response:
        data = self.validated()
        data["counted_by"] = self.user_named(data["counted_by"], "counted_by")
        return self.entry(services.add_advance(actor=self.actor(), session=self.session(pk), **data))


class InterruptSession(_SessionActView):
    """POST ``{"mode": "counted"|"locked", "amount", "key_holder", "signed_by", "cashier"}``:
    the session interrupted (FR art. 69, LU art. 23)."""

    act = Act.COUNT
    serializer_class = InterruptInSerializer
    rule = "session.interruption"

    def post(self, request: Request, pk: int) -> Response:
        data = self.validated()
        for person in ("key_holder", "signed_by", "cashier"):
            data[person] = self.user_named(data.get(person, ""), person)
        return self.entry(services.interrupt_session(actor=self.actor(), session=self.session(pk), **data))


class ResumeSession(_SessionActView):
    """POST ``{}``: the session resumed by the key's holder named at its interruption."""

    act = Act.COUNT
    serializer_class = NoInputSerializer
    rule = "session.interruption"

    def post(self, request: Request, pk: int) -> Response:
        self.validated()
        return self.entry(services.resume_session(actor=self.actor(), session=self.session(pk)))


class CloseSession(_SessionActView):
    """POST ``{"closing_cash", "counted_by", "certified_exact", "cashier"}``: the session closed
    with its count, certified "exact" by the caller (FR art. 69, LU art. 10)."""

    act = Act.SIGN_ADVANCE
    serializer_class = CloseInSerializer
    rule = "advance.count_and_sign"

    def post(self, request: Request, pk: int) -> Response:
        data = self.validated()
        for person in ("counted_by", "cashier"):
            data[person] = self.user_named(data.get(person, ""), person)
        return self.entry(services.close_session(actor=self.actor(), session=self.session(pk), **data))


class ChangeMaximum(_SessionActView):
    """POST ``{"maximum", "display_changed"}``: the maximum changed during the session, by the
    director or his delegate (FR art. 55-5, LU art. 33, 51 V)."""

    act = (Act.FIX_MAXIMUM, Act.FIX_MAXIMUM_AS_DELEGATE)
    serializer_class = MaximumInSerializer
    rule = "limits.maximum_change"

    def post(self, request: Request, pk: int) -> Response:
        change = services.change_maximum(actor=self.actor(), session=self.session(pk), **self.validated())
        return Response({"id": change.pk, "maximum": change.maximum}, status=status.HTTP_201_CREATED)


__all__ = ["DealerErrors", "HandLog", "HandLogDetail", "SessionDetail", "SessionHandLogs", "SessionList"]
