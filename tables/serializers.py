"""Input, output and filter serializers of the tables' API."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from casino_ops.api import Computed, Given
from casino_ops.validation import SafeSerializerMixin
from casino_ops.validators import validate_no_control_characters

from .models import Discrepancy, HandLog, Replay, Session
from .rules import MAX_HAND_LOG_BYTES
from .selectors import person_name


class DiscrepancySerializer(SafeSerializerMixin, serializers.ModelSerializer[Discrepancy]):
    class Meta:
        model = Discrepancy
        fields = [
            "code",
            "round",
            "box",
            "hand",
            "player",
            "expected",
            "recorded",
            "delta",
            "article",
            "detail",
        ]


class HandLogSerializer(SafeSerializerMixin, serializers.ModelSerializer[HandLog]):
    """A stored hand log, its replay state and its discrepancies (the raw log is not repeated)."""

    replayed = serializers.SerializerMethodField()
    ok = serializers.SerializerMethodField()
    overpaid = serializers.SerializerMethodField()
    underpaid = serializers.SerializerMethodField()
    discrepancies = DiscrepancySerializer(many=True, read_only=True)

    class Meta:
        model = HandLog
        fields = [
            "id",
            "session",
            "shoe",
            "sha256",
            "shoe_label",
            "table_code",
            "profile",
            "limits_min",
            "limits_max",
            "house_rules",
            "rounds",
            "source",
            "uploaded_at",
            "replayed",
            "ok",
            "overpaid",
            "underpaid",
            "discrepancies",
        ]

    def _replay(self, obj: HandLog) -> Replay | None:
        return getattr(obj, "replay", None) if hasattr(obj, "replay") else None

    def get_replayed(self, obj: HandLog) -> bool:
        return self._replay(obj) is not None

    def get_ok(self, obj: HandLog) -> bool | None:
        replay = self._replay(obj)
        return replay.ok if replay else None

    def get_overpaid(self, obj: HandLog) -> str | None:
        replay = self._replay(obj)
        return f"{replay.overpaid:.2f}" if replay else None

    def get_underpaid(self, obj: HandLog) -> str | None:
        replay = self._replay(obj)
        return f"{replay.underpaid:.2f}" if replay else None


class HandLogReceivedSerializer(SafeSerializerMixin, serializers.ModelSerializer[HandLog]):
    class Meta:
        model = HandLog
        fields = ["id", "session", "shoe", "sha256", "shoe_label", "rounds", "uploaded_at"]


class ReplayStateSerializer(serializers.Serializer[Any]):
    """Where the replay of a log just received stands (the answer's ``replay``)."""

    url = serializers.URLField(read_only=True, help_text="The log, its replay and its discrepancies.")
    state = serializers.ChoiceField(
        choices=["pending", "done"],
        read_only=True,
        help_text="pending: the replay has not finished yet (read it later at url); done: it has run.",
    )
    ok = serializers.BooleanField(read_only=True, allow_null=True)
    discrepancies = serializers.IntegerField(read_only=True, allow_null=True)


class ReplayIncidentSerializer(serializers.Serializer[Any]):
    """A card incident the replay opened (FR art. 40, LU art. 7): the decks quarantined."""

    number = serializers.IntegerField(read_only=True)
    kind = serializers.CharField(read_only=True)
    kind_label = serializers.CharField(read_only=True)
    decks = serializers.ListField(child=serializers.CharField(), read_only=True)
    article = serializers.CharField(read_only=True)


class HandLogAnswerSerializer(HandLogReceivedSerializer):
    """The answer to an upload: the log as stored, its replay, and the incidents it opened (null
    while the replay is pending), with ``notice``, what to do next."""

    replay = ReplayStateSerializer(read_only=True)
    incidents = ReplayIncidentSerializer(many=True, read_only=True, allow_null=True)
    notice = serializers.CharField(read_only=True)

    class Meta(HandLogReceivedSerializer.Meta):
        fields = [*HandLogReceivedSerializer.Meta.fields, "replay", "incidents", "notice"]


class SessionSerializer(SafeSerializerMixin, serializers.ModelSerializer[Session]):
    table_number = serializers.IntegerField(source="table.number")
    table_code = serializers.CharField(source="table.code")

    class Meta:
        model = Session
        fields = [
            "id",
            "table_number",
            "table_code",
            "day",
            "profile",
            "house_rules",
            "minimum",
            "maximum",
            "advance_amount",
            "status",
            "opened_at",
            "closed_at",
            "advances_total",
            "closing_cash",
            "result",
        ]


class SessionFilterSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    table = serializers.IntegerField(required=False, help_text="table number")
    day = serializers.DateField(required=False)
    status = serializers.ChoiceField(choices=["open", "interrupted", "closed"], required=False)


class DealerErrorFilterSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    by = serializers.ChoiceField(choices=["table", "session", "croupier"], default="table")
    date_from = serializers.DateField(required=False)
    date_to = serializers.DateField(required=False)


class DelegationInSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    delegate = serializers.CharField(max_length=150, help_text="username of the committee member")
    approval_reference = serializers.CharField(max_length=200)
    approved_on = serializers.DateField()
    valid_from = serializers.DateField()
    valid_until = serializers.DateField(required=False, allow_null=True)


class AuthorisedMinimumInSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    minimum = serializers.DecimalField(max_digits=10, decimal_places=2, min_value=0)
    decree_reference = serializers.CharField(max_length=200)
    decree_date = serializers.DateField()
    in_force_on = serializers.DateField()


class AcknowledgeInSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    discrepancies = serializers.ListField(
        child=serializers.IntegerField(min_value=1), min_length=1, max_length=10000
    )
    note = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


#: The most hand logs one batch carries (``POST sessions/<id>/hand-logs/batch/``).
MAX_HAND_LOGS_PER_BATCH = 100


@extend_schema_field(OpenApiTypes.BYTE)  # a string, base64 (OpenAPI's "byte")
class HandLogBytes(serializers.Field):  # type: ignore[type-arg]
    """A hand log's bytes, exactly, in base64 (RFC 4648, standard alphabet, with its padding):
    what the single upload's body would be. Only the base64 alphabet is taken (no control
    character, no surrogate can pass), at most ``max_length`` characters."""

    default_error_messages = {
        "base64": _("Le journal n'est pas en base64 (RFC 4648)."),
        "max_length": serializers.CharField.default_error_messages["max_length"],
    }

    def __init__(self, *, max_length: int, **kwargs: Any) -> None:
        self.max_length = max_length
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> bytes:
        if not isinstance(data, str) or not data:
            self.fail("base64")
        if len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        try:
            return base64.b64decode(data.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError):
            self.fail("base64")
            raise  # pragma: no cover - fail() raises

    def to_representation(self, value: bytes) -> str:
        return base64.b64encode(value).decode("ascii")


class HandLogBatchInSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    """Several hand logs of one séance, in the order they are received."""

    logs = serializers.ListField(
        child=HandLogBytes(max_length=4 * (MAX_HAND_LOG_BYTES // 3 + 1)),
        min_length=1,
        max_length=MAX_HAND_LOGS_PER_BATCH,
        help_text="each log's bytes in base64, as the single upload's body would be",
    )


def _money(**kw: object) -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=14, decimal_places=2, **kw)  # type: ignore[arg-type]


class TableInSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    number = serializers.IntegerField(
        min_value=1, max_value=32767, help_text="the table's number (its cash box's)"
    )
    code = serializers.CharField(
        max_length=16,
        help_text="the code its hand logs name, e.g. BJ03",
        validators=[validate_no_control_characters],
    )
    boxes = serializers.IntegerField(min_value=1, max_value=7, default=7, help_text="boxes on its layout")


class OpenSessionInSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    table = serializers.IntegerField(min_value=1, max_value=32767, help_text="table number")
    day = serializers.DateField(required=False, allow_null=True)
    minimum = _money()
    maximum = _money()
    advance_amount = _money()
    croupier = serializers.CharField(max_length=150, help_text="username")
    guarantee_fund = _money(required=False, allow_null=True)
    ministry_notice = serializers.IntegerField(
        min_value=1,
        max_value=2**63 - 1,
        required=False,
        allow_null=True,
        help_text="its notice to the minister (LU)",
    )


class MinistryNoticeInSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    minimum = _money()
    sent_on = serializers.DateField()
    reference = serializers.CharField(max_length=120, validators=[validate_no_control_characters])


class AdvanceInSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    amount = _money()
    counted_by = serializers.CharField(max_length=150)


class InterruptInSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    mode = serializers.ChoiceField(choices=["counted", "locked"])
    amount = _money(required=False, allow_null=True)
    key_holder = serializers.CharField(max_length=150, required=False, allow_blank=True)
    signed_by = serializers.CharField(max_length=150, required=False, allow_blank=True)
    cashier = serializers.CharField(max_length=150, required=False, allow_blank=True)


class CloseInSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    closing_cash = _money()
    counted_by = serializers.CharField(max_length=150)
    certified_exact = serializers.BooleanField()
    cashier = serializers.CharField(max_length=150, required=False, allow_blank=True)


class MaximumInSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    maximum = _money()
    display_changed = serializers.BooleanField()


class NoInputSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    """An act that takes nothing but its caller (the resumption of a session)."""


# -- What the API's reads answer (the selectors' rows, their amounts and moments as read) -------


class DelegationOutSerializer(Given):
    """A delegation of the direction of play (LU art. 51 V), its people by name."""

    shape = ("id", "delegate", "approval_reference", "approved_on", "valid_from", "valid_until", "granted_by")
    delegate = Computed(lambda d: person_name(d.delegate))
    granted_by = Computed(lambda d: person_name(d.granted_by))


class AuthorisedMinimumOutSerializer(Given):
    """The authorised minimum of a decree, and when an officer stamped it."""

    shape = ("id", "minimum", "decree_reference", "decree_date", "in_force_on", "stamped_at")


class MinistryNoticeOutSerializer(Given):
    """A notice to the minister of a raised minimum (LU art. 26), with its recording."""

    shape = ("id", "minimum", "sent_on", "reference", "recorded_at")


class TableOutSerializer(Given):
    """A table of the floor."""

    shape = ("id", "number", "code", "boxes", "in_service")


class NotAcknowledgedSerializer(Given):
    """The discrepancies the director has not yet taken note of, by id."""

    shape = ("not_acknowledged",)
    not_acknowledged = serializers.ListField(child=serializers.IntegerField(), read_only=True)


class SessionConcernedSerializer(Given):
    """The séance an act concerns: its state and its day."""

    shape = ("id", "status", "day")


class OpeningDaySerializer(Given):
    """The gaming day a séance opened now falls on."""

    shape = ("gaming_day",)


class DealerErrorRowSerializer(Given):
    """A row of the dealer errors: a table, a séance or a croupier, its replayed hand logs and
    their discrepancies, by code, with what was overpaid and underpaid."""

    shape = ("key", "label", "hand_logs", "rounds", "discrepancies", "by_code", "overpaid", "underpaid")


class SessionReportSerializer(Given):
    """The report of a séance (:func:`tables.selectors.session_report`): its advance book's line,
    its shoes, its hand logs with their discrepancies, its control lines and their summary."""

    shape = (
        "id",
        "table_number",
        "table_code",
        "day",
        "fiscal_year",
        "profile",
        "house_rules",
        "minimum",
        "maximum",
        "advance_amount",
        "guarantee_fund",
        "ministry_notified_on",
        "ministry_notice_reference",
        "ministry_notice_recorded_at",
        "delegation",
        "croupier",
        "opened_at",
        "opened_by",
        "status",
        "status_label",
        "closed_at",
        "advances_total",
        "closing_cash",
        "result",
        "entries",
        "interruptions",
        "maximum_changes",
        "notice",
        "shoes",
        "hand_logs",
        "control_lines",
        "summary",
    )
