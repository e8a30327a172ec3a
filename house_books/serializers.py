"""The inputs of the house books' acts (their declarations' schemas, casino_ops.acts)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from casino_ops import roles
from casino_ops.validation import SafeSerializerMixin

from .models import RoleEntryKind


class RoleActInSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=RoleEntryKind.choices)
    person = serializers.CharField(max_length=150, help_text="username of the person")
    role = serializers.ChoiceField(
        choices=[r for r in roles.ALL_ROLES], required=False, allow_blank=True, default=""
    )
    first_name = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")
    last_name = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")
    reason = serializers.CharField(max_length=500)
