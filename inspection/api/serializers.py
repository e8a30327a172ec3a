"""Output serializers of the audit record, and its filter serializer."""

from __future__ import annotations

import json
from typing import Any

from rest_framework import serializers

from audit.chain.hashing import CONTENT_FIELDS
from audit.models import AuditEvent
from cards_registry.selectors import deck_history
from casino_ops.renderers import MoneyJSONEncoder
from casino_ops.validation import SafeSerializerMixin
from casino_ops.validators import validate_date_window
from inspection.portal.selectors import hand_log_report
from tables.selectors import session_report


class OfficerAuditEventSerializer(SafeSerializerMixin, serializers.ModelSerializer[AuditEvent]):
    payload = serializers.SerializerMethodField()

    class Meta:
        model = AuditEvent
        fields = ["seq", "recorded_at", *CONTENT_FIELDS, "prev_hash", "hash", "sealed_at"]
        read_only_fields = fields

    def get_payload(self, event: AuditEvent) -> dict[str, Any]:
        payload: dict[str, Any] = json.loads(event.payload)
        return payload


class OfficerAuditEventFilterSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    q = serializers.CharField(required=False, max_length=200)
    action = serializers.CharField(required=False, max_length=64)
    actor = serializers.CharField(required=False, max_length=150)
    object_type = serializers.CharField(required=False, max_length=100)
    object_id = serializers.CharField(required=False, max_length=64)
    since = serializers.DateField(required=False, validators=[validate_date_window])
    until = serializers.DateField(required=False, validators=[validate_date_window])


class OfficerDeckSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    id = serializers.IntegerField()
    serial = serializers.CharField()
    manufacturer = serializers.CharField(source="manufacturer.code")
    back_colour = serializers.CharField()
    status = serializers.CharField()
    status_label = serializers.CharField(source="get_status_display")
    sixain = serializers.CharField(source="sixain.serial", allow_null=True, default=None)
    reception = serializers.IntegerField(source="reception_id")
    unsealed_at = serializers.DateTimeField(allow_null=True)


class OfficerDeckFilterSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    serial = serializers.CharField(required=False, max_length=64)
    status = serializers.CharField(required=False, max_length=16)
    manufacturer = serializers.CharField(required=False, max_length=32)


class OfficerHistoryLineSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    at = serializers.DateTimeField()
    what = serializers.CharField()
    audit_seq = serializers.IntegerField(allow_null=True)


class OfficerDeckDetailSerializer(OfficerDeckSerializer):
    history = serializers.SerializerMethodField()

    def get_history(self, deck: Any) -> list[dict[str, Any]]:
        return list(OfficerHistoryLineSerializer(deck_history(deck), many=True).data)


class OfficerSessionSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    id = serializers.IntegerField()
    table = serializers.CharField(source="table.code")
    table_number = serializers.IntegerField(source="table.number")
    day = serializers.DateField()
    profile = serializers.CharField()
    minimum = serializers.DecimalField(max_digits=12, decimal_places=2)
    maximum = serializers.DecimalField(max_digits=12, decimal_places=2)
    advance_amount = serializers.DecimalField(max_digits=14, decimal_places=2)
    advances_total = serializers.DecimalField(max_digits=14, decimal_places=2)
    closing_cash = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
    result = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
    status = serializers.CharField()
    opened_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    croupier = serializers.CharField(source="croupier.get_username")


class OfficerSessionFilterSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    table = serializers.IntegerField(required=False, min_value=1, max_value=32767)
    since = serializers.DateField(required=False, validators=[validate_date_window])
    until = serializers.DateField(required=False, validators=[validate_date_window])
    status = serializers.ChoiceField(required=False, choices=["open", "interrupted", "closed"])


class OfficerSessionDetailSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    """The whole session report (advance book lines, shoes, hand logs, discrepancies)."""

    def to_representation(self, session: Any) -> dict[str, Any]:
        report: dict[str, Any] = json.loads(json.dumps(session_report(session.pk), cls=MoneyJSONEncoder))
        return report


class OfficerReplaySerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    ok = serializers.BooleanField()
    rounds_replayed = serializers.IntegerField()
    discrepancy_count = serializers.IntegerField()
    overpaid = serializers.DecimalField(max_digits=14, decimal_places=2)
    underpaid = serializers.DecimalField(max_digits=14, decimal_places=2)
    finished_at = serializers.DateTimeField()


class OfficerHandLogSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    id = serializers.IntegerField()
    session = serializers.IntegerField(source="session_id")
    table = serializers.CharField(source="session.table.code")
    shoe_label = serializers.CharField()
    sha256 = serializers.CharField()
    rounds = serializers.IntegerField()
    source = serializers.CharField()  # type: ignore[assignment]  # a declared field: DRF's metaclass takes it off the class
    uploaded_at = serializers.DateTimeField()
    uploaded_by = serializers.CharField(source="uploaded_by.get_username")
    replay = serializers.SerializerMethodField()

    def get_replay(self, log: Any) -> dict[str, Any] | None:
        replay = getattr(log, "replay", None)
        return OfficerReplaySerializer(replay).data if replay is not None else None


class OfficerHandLogFilterSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    session = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    table = serializers.IntegerField(required=False, min_value=1, max_value=32767)
    ok = serializers.BooleanField(required=False, allow_null=True, default=None)


class OfficerHandLogDetailSerializer(OfficerHandLogSerializer):
    report = serializers.SerializerMethodField()

    def get_report(self, log: Any) -> dict[str, Any]:
        return hand_log_report(log)


class OfficerDiscrepancySerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    id = serializers.IntegerField()
    hand_log = serializers.IntegerField(source="hand_log_id")
    session = serializers.IntegerField(source="session_id")
    table = serializers.CharField(source="session.table.code")
    code = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    box = serializers.IntegerField(allow_null=True)
    hand = serializers.IntegerField(allow_null=True)
    player = serializers.CharField()
    expected = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
    recorded = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
    delta = serializers.DecimalField(max_digits=14, decimal_places=2)
    article = serializers.CharField()
    detail = serializers.JSONField()


class OfficerDiscrepancyFilterSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    code = serializers.CharField(required=False, max_length=32)
    table = serializers.IntegerField(required=False, min_value=1, max_value=32767)
    session = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    hand_log = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    since = serializers.DateField(required=False, validators=[validate_date_window])
    until = serializers.DateField(required=False, validators=[validate_date_window])


class OfficerReportSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    id = serializers.IntegerField()
    register = serializers.CharField()
    date_from = serializers.DateField()
    date_to = serializers.DateField()
    table_number = serializers.IntegerField(allow_null=True)
    part = serializers.IntegerField(allow_null=True)
    parent = serializers.IntegerField(source="parent_id", allow_null=True)  # type: ignore[assignment]  # as source above
    state = serializers.CharField()
    requested_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    pages = serializers.IntegerField(allow_null=True)
    rows = serializers.IntegerField(allow_null=True)
    head_seq = serializers.IntegerField(allow_null=True)
    head_hash = serializers.CharField()
    sha256 = serializers.CharField()
    download = serializers.SerializerMethodField()

    def get_download(self, report: Any) -> str | None:
        from django.urls import reverse

        if report.state != "done" or not report.file:
            return None
        return reverse("officers_api:report-pdf", args=[report.pk])


class OfficerReportFilterSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    register = serializers.CharField(required=False, max_length=32)
    sha256 = serializers.CharField(required=False, max_length=64)
    state = serializers.CharField(required=False, max_length=16)


class OfficerCheckpointSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    head_hash = serializers.CharField()
    made_at = serializers.DateTimeField()
    signer = serializers.CharField()
    statement = serializers.CharField()
    signature = serializers.SerializerMethodField()
    chain_matches = serializers.SerializerMethodField()

    def get_signature(self, checkpoint: Any) -> str:
        """The detached CMS signature (DER), base64."""
        import base64

        return base64.b64encode(bytes(checkpoint.signature)).decode()

    def get_chain_matches(self, checkpoint: Any) -> bool:
        """Does the chain still hold, at this sequence number, the hash the casino signed?"""
        hashes = self.context.get("chain_hashes")
        if hashes is None:
            return AuditEvent.objects.filter(seq=checkpoint.seq, hash=checkpoint.head_hash).exists()
        return bool(hashes.get(checkpoint.seq) == checkpoint.head_hash)
