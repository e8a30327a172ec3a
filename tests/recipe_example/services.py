"""The recipe's act: the director records a cleaning of a shoe device (LU art. 40).

Declared once, here: who may perform it (``access.declare``), its event and its label
(``actions.declare``), its input (the serializer below: the API's body and the admin's form),
its article, its refusals, its endpoint (``route``) and its book (``book``: the admin's page);
the doors are derived from the declaration."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

import audit
from audit import actions
from casino_ops import access, clock, roles
from casino_ops.acts import declare_act
from casino_ops.services import get_casino
from casino_ops.validation import SafeSerializerMixin
from house_books.models import ShoeDevice

from . import rules
from .models import DeviceCleaning

CLEAN_DEVICE = access.declare(
    "CLEAN_DEVICE",
    "recipe.clean_device",
    roles=(roles.DIRECTOR,),
    code="DEVICE_BY_DIRECTOR",
    message=_("Le directeur inscrit les nettoyages des sabots."),
    rule="house.devices",
)
DEVICE_CLEANED = actions.declare("DEVICE_CLEANED", "recipe.device_cleaned", label=_("Sabot nettoyé"))


class CleaningInSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    device = serializers.PrimaryKeyRelatedField(queryset=ShoeDevice.objects.all())
    cleaned_on = serializers.DateField()


@declare_act(
    act=CLEAN_DEVICE,
    action=DEVICE_CLEANED,
    schema=CleaningInSerializer,
    article="house.devices",
    refusals=(rules.CLEANING_IN_FUTURE,),
    route="device-cleanings/",
    book=DeviceCleaning,
)
@transaction.atomic
def clean_device(*, actor: Any, device: ShoeDevice, cleaned_on: dt.date) -> DeviceCleaning:
    profile = get_casino().profile
    now = clock.now()
    rules.check_cleaning(cleaned_on, clock.gaming_date(now), profile)
    cleaning = DeviceCleaning.objects.create(
        device=device, cleaned_on=cleaned_on, recorded_by=actor, recorded_at=now
    )
    audit.record(
        actor=actor,
        action=DEVICE_CLEANED,
        obj=cleaning,
        payload={"device": device.number, "cleaned_on": cleaned_on.isoformat()},
    )
    return cleaning
