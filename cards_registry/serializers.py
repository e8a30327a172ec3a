"""Input and query serializers of the depot's API (decks named by serial or sixain)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from casino_ops.validation import SafeSerializerMixin


def _names(**kw: Any) -> serializers.ListField:
    """Decks or sixains by serial (``A1-1``, ``MAKER:A1-1``), never by database id."""
    return serializers.ListField(child=serializers.CharField(max_length=64), default=list, **kw)


def _text() -> serializers.CharField:
    return serializers.CharField(required=False, allow_blank=True, default="")


class _Told(SafeSerializerMixin, serializers.Serializer[Any]):
    """Whom an incident was told to and when (FR art. 40, LU art. 7)."""

    officer_informed = serializers.CharField(
        max_length=150, required=False, allow_blank=True, default="", help_text="username"
    )
    officer_informed_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    authority_informed = _text()


class IncidentInSerializer(_Told):
    kind = serializers.CharField()
    occurred_at = serializers.DateTimeField()
    day = serializers.DateField()
    decks = _names()
    sixains = _names()
    circumstances = _text()
    table_number = serializers.IntegerField(required=False, allow_null=True, default=None)
    shoe_reference = _text()
    card = _text()


class ReturnLineSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    deck = serializers.CharField(max_length=64, allow_blank=True, default="")
    result = _text()
    remark = _text()
    # counted by hand, never presumed: left out, the service refuses it (FR art. 40)
    cards_counted = serializers.IntegerField(required=False, allow_null=True, default=None)


class ReturnInSerializer(_Told):
    table_number = serializers.IntegerField()
    day = serializers.DateField()
    results = serializers.ListField(child=ReturnLineSerializer(), allow_empty=False)


class OutOfUseInSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    decks = _names()
    sixains = _names()
    reason = _text()  # a blank reason is refused by the act itself, with its article


class ReturnsFilterSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    table = serializers.IntegerField(required=False, allow_null=True, default=None)
    day = serializers.DateField(required=False, allow_null=True, default=None)


class InspectionFilterSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    day = serializers.DateField(required=False, allow_null=True, default=None)
