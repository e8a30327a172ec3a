"""The shoe devices (LU art. 32 §3, 40, 52; under FR, an internal book).

Shoes are of a model approved by the Minister of Finances, numbered by the casino, kept in
the card cabinet (or an equivalent locked one) and listed in its book; the director assigns
one to a table for each séance, avoiding a systematic assignment; at the end of the séance
it goes back to the cabinet.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.regulations import cite
from tables import selectors as tables

from ..models import DeviceAssignment, DeviceState, ShoeDevice
from ..rules import devices as rules
from ..rules.common import required_text
from ._shared import create, profile

RULE = "house.devices"


def _lock_book() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext('house_books.devices'))")


@declare_act(
    act=Act.HOUSE_BOOKS,
    action=Action.HOUSE_DEVICE_REGISTERED,
    article="house.devices",
    gate_cites_article=True,
)
@transaction.atomic
def register_device(*, actor: User, approved_model: str, approval_reference: str) -> ShoeDevice:
    """A shoe of an approved model enters the cabinet, numbered by the casino."""
    article = cite(RULE, profile())
    approved_model = required_text(approved_model, "approved_model", _("le modèle agréé"), article)
    approval_reference = required_text(
        approval_reference, "approval_reference", _("la décision d'agrément du modèle"), article
    )
    _lock_book()
    number = (ShoeDevice.objects.aggregate(n=Max("number"))["n"] or 0) + 1
    device = create(
        ShoeDevice,
        article,
        number=number,
        approved_model=approved_model,
        approval_reference=approval_reference,
        state=DeviceState.CABINET,
        recorded_by=actor,
        recorded_at=tables.acts_now(),
    )
    audit.record(
        actor=actor,
        action=Action.HOUSE_DEVICE_REGISTERED,
        obj=device,
        payload={
            "number": number,
            "approved_model": approved_model,
            "approval_reference": approval_reference,
        },
    )
    return device


@declare_act(
    act=Act.ASSIGN_DEVICE,
    action=Action.HOUSE_DEVICE_ASSIGNED,
    article="house.devices",
    gate_cites_article=True,
)
@transaction.atomic
def assign_device(*, actor: User, device: ShoeDevice, table_number: int, day: dt.date) -> DeviceAssignment:
    """The director assigns a shoe from the cabinet to a table for the séance of ``day``."""
    article = cite(RULE, profile())
    device = ShoeDevice.objects.select_for_update().get(pk=device.pk)
    rules.check_assignable(device, DeviceAssignment.objects.filter(device=device, day=day).exists(), article)
    rules.check_table_number(table_number, article)
    rules.check_table_in_service(table_number, tables.table_in_service(table_number), article)
    assignment = create(
        DeviceAssignment,
        article,
        device=device,
        table_number=table_number,
        day=day,
        assigned_by=actor,
        assigned_at=tables.acts_now(),
    )
    ShoeDevice.objects.filter(pk=device.pk).update(state=DeviceState.ASSIGNED)
    audit.record(
        actor=actor,
        action=Action.HOUSE_DEVICE_ASSIGNED,
        obj=assignment,
        payload={"device": device.number, "table": table_number, "day": day},
    )
    return assignment


@declare_act(
    act=Act.HOUSE_BOOKS,
    action=Action.HOUSE_DEVICE_RETURNED,
    article="house.devices",
    gate_cites_article=True,
)
@transaction.atomic
def return_device(*, actor: User, assignment: DeviceAssignment) -> DeviceAssignment:
    """The shoe goes back to the cabinet at the end of the séance."""
    article = cite(RULE, profile())
    assignment = DeviceAssignment.objects.select_for_update().select_related("device").get(pk=assignment.pk)
    rules.check_not_returned(assignment, article)
    now = tables.acts_now()
    DeviceAssignment.objects.filter(pk=assignment.pk).update(returned_at=now)
    ShoeDevice.objects.filter(pk=assignment.device_id).update(state=DeviceState.CABINET)
    assignment.refresh_from_db()
    audit.record(
        actor=actor,
        action=Action.HOUSE_DEVICE_RETURNED,
        obj=assignment,
        payload={"device": assignment.device.number, "table": assignment.table_number, "returned_at": now},
    )
    return assignment
