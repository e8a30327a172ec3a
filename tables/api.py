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

import json
from typing import Any

from django.http import Http404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, generics, status
from rest_framework.request import Request
from rest_framework.response import Response

from cards_registry.selectors import incident_notice, incidents_of_replay
from casino_ops.access import RoleRequired
from casino_ops.acts import declaration
from casino_ops.api import ActMixin, ActView, DeclaredActView, ReadDetail, ReadList
from casino_ops.django_internals import body_already_read
from casino_ops.refusals import Refusal
from casino_ops.regulations import RegulationError, cite
from casino_ops.services import get_casino

from . import rules, selectors, services
from .models import (
    AuthorisedMinimum,
    Delegation,
    Discrepancy,
    HandLog,
    HandLogSource,
    MinistryNotice,
    Replay,
    Session,
    Table,
)
from .serializers import (
    AuthorisedMinimumOutSerializer,
    DealerErrorFilterSerializer,
    DealerErrorRowSerializer,
    DelegationOutSerializer,
    HandLogAnswerSerializer,
    HandLogReceivedSerializer,
    HandLogSerializer,
    MinistryNoticeOutSerializer,
    NotAcknowledgedSerializer,
    OpeningDaySerializer,
    SessionConcernedSerializer,
    SessionFilterSerializer,
    SessionReportSerializer,
    SessionSerializer,
    TableOutSerializer,
)


class SessionList(ReadList, ActMixin, generics.ListAPIView[Session]):
    """Sessions, filtered by table number, day and status."""

    read_permission = "tables.view_session"
    output_class = SessionSerializer
    filter_class = SessionFilterSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.sessions(**filters)


class SessionDetail(ReadDetail, ActView):
    """The session report: advance book lines, shoes, hand logs and their discrepancies."""

    read_permission = "tables.view_session"
    output_class = SessionReportSerializer

    def selector(self, **query: Any) -> Any:
        return selectors.session_report(query["pk"])


def _read_log_body(request: Request) -> bytes:
    """The body read as a stream up to the hand-log limit (``MAX_HAND_LOG_BYTES``, above Django's
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``), so that a large valid log is received as by the command and
    one too large is refused in the API's JSON format."""
    return _read_body(request, rules.check_hand_log_size, rules.MAX_HAND_LOG_BYTES)


def _read_body(request: Request, check: Any, limit: int) -> bytes:
    django_request = request._request
    try:
        declared = int(django_request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    check(declared)
    raw = body_already_read(django_request)
    if raw is None:
        raw = django_request.read(limit + 1)
    check(len(raw))
    return raw


class SessionHandLogs(ReadList, DeclaredActView, generics.ListAPIView[HandLog]):
    """GET: the session's hand logs. POST: upload one hand log (the JSON body is the log, stored
    byte for byte and validated by the hand-log parser: it has no input serializer)."""

    read_permission = "tables.view_handlog"
    declared = declaration(services.upload_hand_log)
    raw_body = True  # the body is the log itself (tables.rules.hand_log), not fields

    output_class = HandLogSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.hand_logs(session_id=self.kwargs["pk"])

    @extend_schema(
        request={"application/json": OpenApiTypes.OBJECT},
        responses={
            201: HandLogAnswerSerializer,
            400: OpenApiResponse(description="Refused: {code, message, field, article}; nothing stored."),
            404: OpenApiResponse(description="No such session."),
        },
        description="Upload one hand log: the JSON body is the log (casino-hand-log/1), stored byte for byte.",
    )
    def post(self, request: Request, pk: int) -> Response:  # type: ignore[override]
        raw = _read_log_body(request)  # the log exactly as sent, before any parsing
        session = Session.objects.filter(pk=pk).select_related("table").first()
        if session is None:
            raise Http404
        log = services.upload_hand_log(actor=self.actor(), session=session, raw=raw, source=HandLogSource.API)
        return Response(received_answer(request, log), status=status.HTTP_201_CREATED)


class SessionHandLogBatch(ReadList, DeclaredActView, generics.ListAPIView[HandLog]):
    """GET: the séance's hand logs (as ``hand-logs/``). POST ``{"logs": [base64, …]}``: upload
    several hand logs of the séance in one request, each
    log's bytes in base64 (what the single upload's body would be). Each is received on its own,
    in order, as :class:`SessionHandLogs` receives it: checked, stored with its audit event, or
    refused without stopping the others; the answer gives each log's status and body, the very
    answer of the single upload (201 with the log and its replay, or 400 with its refusal)."""

    read_permission = "tables.view_handlog"
    declared = declaration(services.upload_hand_logs)
    output_class = HandLogSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.hand_logs(session_id=self.kwargs["pk"])

    @extend_schema(
        responses={
            200: OpenApiResponse(
                description=(
                    '{"results": [{"status": 201|400|403, "body": …}, …]}: for each log in its order, '
                    "the status and body of its single upload."
                )
            ),
            400: OpenApiResponse(
                description="The batch refused: {code, message, field, article}; nothing stored."
            ),
            404: OpenApiResponse(description="No such session."),
        },
        description="Upload several hand logs of one séance, each received, stored or refused on its own.",
    )
    def post(self, request: Request, pk: int) -> Response:  # type: ignore[override]
        raw = _read_body(request, rules.check_hand_log_batch_size, rules.MAX_HAND_LOG_BATCH_BYTES)
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            raise exceptions.ParseError() from exc
        logs = self._valid(self.serializer_class, data)["logs"]
        session = Session.objects.filter(pk=pk).select_related("table").first()
        if session is None:
            raise Http404
        results = services.upload_hand_logs(
            actor=self.actor(), session=session, logs=logs, source=HandLogSource.API
        )
        return Response(
            {
                "results": [
                    {"status": 403 if isinstance(result, RoleRequired) else 400, "body": result.as_dict()}
                    if isinstance(result, RegulationError)
                    else {"status": 201, "body": received_answer(request, result)}
                    for result in results
                ]
            },
            status=status.HTTP_200_OK,
        )


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


class HandLogDetail(ReadDetail, ActView):
    """One hand log, its replay and its discrepancies."""

    read_permission = "tables.view_handlog"
    output_class = HandLogSerializer

    def selector(self, **query: Any) -> Any:
        return selectors.hand_logs().get(pk=query["pk"])


class DealerErrors(ReadList, ActMixin, generics.ListAPIView[Any]):
    """Dealer-error summary per table, session or croupier."""

    read_permission = "tables.view_discrepancy"
    filter_class = DealerErrorFilterSerializer
    output_class = DealerErrorRowSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.dealer_error_summary(**filters)


class Delegations(ReadList, DeclaredActView, generics.ListAPIView[Delegation]):
    """GET: the delegations. POST: the director records his delegate for the direction of play
    (LU art. 51 V)."""

    read_permission = "tables.view_delegation"
    declared = declaration(services.grant_delegation)
    people = ("delegate",)
    output_class = DelegationOutSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.delegations()


class AuthorisedMinimums(ReadList, DeclaredActView, generics.ListAPIView[AuthorisedMinimum]):
    """GET: the authorised minimums. POST: the director records the authorised minimum of a
    decree (stamped later by an officer)."""

    read_permission = "tables.view_authorisedminimum"
    declared = declaration(services.record_authorised_minimum)
    output_class = AuthorisedMinimumOutSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.authorised_minimums()


class MinistryNotices(ReadList, DeclaredActView, generics.ListAPIView[MinistryNotice]):
    """POST: the director records his notice to the minister of a raised minimum, when he sends
    it (LU art. 26); GET: the book of notices, each with its recording beside its declared day."""

    read_permission = "tables.view_ministrynotice"
    declared = declaration(services.record_ministry_notice)
    output_class = MinistryNoticeOutSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.ministry_notices()

    def answer(self, result: Any) -> Any:
        return {"id": result.pk, "recorded_at": result.recorded_at}


class AcknowledgeDiscrepancies(ReadDetail, DeclaredActView):
    """GET: the discrepancies not yet acknowledged. POST ``{"discrepancies": [ids], "note"}``:
    the director takes note of discrepancies."""

    read_permission = "tables.view_discrepancy"
    declared = declaration(services.acknowledge_discrepancies)
    answer_status = status.HTTP_200_OK
    output_class = NotAcknowledgedSerializer

    def selector(self, **query: Any) -> Any:
        return selectors.discrepancies_not_acknowledged()

    def inputs(self, data: dict[str, Any], **url: Any) -> dict[str, Any]:
        wanted = set(data["discrepancies"])
        rows = list(Discrepancy.objects.filter(pk__in=wanted))
        if len(rows) != len(wanted):
            missing = sorted(wanted - {r.pk for r in rows})
            raise Refusal.UNKNOWN_DISCREPANCY.error(
                article=self.article(), message=f"discrepancies : {missing}"
            )
        return {"discrepancies": rows, "note": data["note"]}

    def answer(self, result: Any) -> Any:
        return {"acknowledged": [r.discrepancy_id for r in result]}


class Tables(ReadList, DeclaredActView, generics.ListAPIView[Table]):
    """GET: the tables. POST: put a table on the floor (the director or a committee member)."""

    read_permission = "tables.view_table"
    declared = declaration(services.create_table)
    output_class = TableOutSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.tables()

    def answer(self, result: Any) -> Any:
        return TableOutSerializer(result).data


class OpenSession(ReadDetail, DeclaredActView):
    """POST: open a session of a table (by its number) for the current gaming day, with its limits
    and its initial advance; the caller signs (the initial advance, FR art. 69, LU art. 10) and
    fixes the maximum."""

    read_permission = "tables.view_session"
    declared = declaration(services.open_session)
    people = ("croupier",)
    output_class = OpeningDaySerializer

    def selector(self, **query: Any) -> Any:
        return selectors.opening_day()

    def inputs(self, data: dict[str, Any], **url: Any) -> dict[str, Any]:
        table = Table.objects.filter(number=data.pop("table")).first()
        if table is None:
            raise Refusal.UNKNOWN_TABLE.error(article=self.article())
        if data.get("ministry_notice") is not None:
            notice = MinistryNotice.objects.filter(pk=data["ministry_notice"]).first()
            if notice is None:
                raise Refusal.UNKNOWN_MINISTRY_NOTICE.error(article=self.article(), n=data["ministry_notice"])
            data["ministry_notice"] = notice
        return {**data, "table": table}

    def answer(self, result: Any) -> Any:
        return {"id": result.pk, "day": result.day}


class _SessionActView(ReadDetail, DeclaredActView):
    """An act on one session (``sessions/<pk>/…``): GET says what it concerns; the act's
    answer is the line it wrote in the advance book."""

    read_permission = "tables.view_session"
    output_class = SessionConcernedSerializer

    def selector(self, **query: Any) -> Any:
        return selectors.session_concerned(query["pk"])

    def session(self, pk: int) -> Session:
        session = Session.objects.filter(pk=pk).select_related("table").first()
        if session is None:
            raise Http404
        return session

    def inputs(self, data: dict[str, Any], **url: Any) -> dict[str, Any]:
        return {**data, "session": self.session(url["pk"])}

    def answer(self, result: Any) -> Any:
        return {"line": result.line, "kind": result.kind}


class AddAdvance(_SessionActView):
    """POST ``{"amount", "counted_by"}``: a further advance, counted by the croupier and signed
    by the caller (FR art. 69, LU art. 10)."""

    declared = declaration(services.add_advance)
    people = ("counted_by",)


class InterruptSession(_SessionActView):
    """POST ``{"mode": "counted"|"locked", "amount", "key_holder", "signed_by", "cashier"}``:
    the session interrupted (FR art. 69, LU art. 23)."""

    declared = declaration(services.interrupt_session)
    people = ("key_holder", "signed_by", "cashier")


class ResumeSession(_SessionActView):
    """POST ``{}``: the session resumed by the key's holder named at its interruption."""

    declared = declaration(services.resume_session)


class CloseSession(_SessionActView):
    """POST ``{"closing_cash", "counted_by", "certified_exact", "cashier"}``: the session closed
    with its count, certified "exact" by the caller (FR art. 69, LU art. 10)."""

    declared = declaration(services.close_session)
    people = ("counted_by", "cashier")


class ChangeMaximum(_SessionActView):
    """POST ``{"maximum", "display_changed"}``: the maximum changed during the session, by the
    director or his delegate (FR art. 55-5, LU art. 33, 51 V)."""

    declared = declaration(services.change_maximum)

    def answer(self, result: Any) -> Any:
        return {"id": result.pk, "maximum": result.maximum}


__all__ = [
    "DealerErrors",
    "HandLog",
    "HandLogDetail",
    "SessionDetail",
    "SessionHandLogBatch",
    "SessionHandLogs",
    "SessionList",
]
