"""Output serializers of the audit record, and its filter serializer."""

from __future__ import annotations

import json
from typing import Any

from rest_framework import serializers

from audit.models import AuditEvent


class AuditEventSerializer(serializers.ModelSerializer):
    payload = serializers.SerializerMethodField()

    class Meta:
        model = AuditEvent
        fields = [
            "seq",
            "recorded_at",
            "actor_name",
            "action",
            "object_type",
            "object_id",
            "payload",
            "prev_hash",
            "hash",
            "sealed_at",
        ]
        read_only_fields = fields

    def get_payload(self, event: AuditEvent) -> dict[str, Any]:
        return json.loads(event.payload)


class AuditEventFilterSerializer(serializers.Serializer):
    q = serializers.CharField(required=False, max_length=200)
    action = serializers.CharField(required=False, max_length=64)
    actor = serializers.CharField(required=False, max_length=150)
    object_type = serializers.CharField(required=False, max_length=100)
    object_id = serializers.CharField(required=False, max_length=64)
    since = serializers.DateField(required=False)
    until = serializers.DateField(required=False)
