"""Input and query serializers of the depot's API (decks named by serial or sixain)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from casino_ops.api import Computed, Given
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


# -- What the API's reads answer -------------------------------------------------------------------


class DeckOutSerializer(Given):
    """A deck: its maker, its serial, its sixain's, its back's colour and its state."""

    shape = ("maker", "serial", "sixain", "back_colour", "status")
    maker = serializers.CharField(source="manufacturer.code", read_only=True)
    sixain = Computed(lambda deck: deck.sixain.serial if deck.sixain else None)


class IncidentOutSerializer(Given):
    """An incident: how it was found, its table and day, its decks by serial, whom it was told
    and when, and whether it is closed."""

    shape = (
        "number",
        "kind",
        "route",
        "day",
        "table",
        "card",
        "decks",
        "told_whom",
        "told_at",
        "declared_told_at",
        "closed",
    )
    table = serializers.ReadOnlyField(source="table_number")
    decks = Computed(lambda incident: [d.serial for d in incident.decks.all()])
    closed = Computed(lambda incident: hasattr(incident, "closure"))


class InspectionOutSerializer(Given):
    """The self-inspection: the checks run and the breaches found."""

    shape = ("checks", "breaches")
