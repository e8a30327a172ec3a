"""The tables on the floor: a table's number is its cash box's and advance book's (FR art. 42; LU art. 9)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite
from casino_ops.services import get_casino

from .. import rules
from ..models import ControlDay, Table
from ..rules import floor as floor_rules
from ..serializers import TableInSerializer


@declare_act(
    act=Act.PUT_ON_FLOOR,
    action=Action.TABLE_CREATED,
    schema=TableInSerializer,
    article="table.layout",
    refusals=(Refusal.TABLE_NUMBER_TAKEN, Refusal.TOO_MANY_BOXES),
)
@transaction.atomic
def create_table(*, actor: User, number: int, code: str, boxes: int = 7) -> Table:
    """Put a blackjack table on the floor; its number is its cash box's and advance book's.
    The director or a committee member only."""
    profile = get_casino().profile
    floor_rules.check_new_table(
        number, boxes, taken=Table.objects.filter(number=number).exists(), profile=profile
    )
    table = rules.validated(
        Table(number=number, code=code, boxes=boxes), cite("advance.book", profile), unique=True
    )
    try:
        with transaction.atomic():
            table.save(force_insert=True)
        taken = False
    except IntegrityError:  # a table created at the same moment by someone else
        taken = True
    floor_rules.check_not_taken_meanwhile(taken, number, code, profile)
    audit.record(
        actor=actor,
        action=Action.TABLE_CREATED,
        obj=table,
        payload={"number": number, "code": code, "boxes": boxes, "game": table.game},
    )
    return table


@declare_act(
    act=Act.PUT_ON_FLOOR,
    action=(Action.TABLE_IN_SERVICE, Action.TABLE_OUT_OF_SERVICE),
    article="table.in_service",
    refusals=(Refusal.TABLE_SERVICE_UNCHANGED,),
)
@transaction.atomic
def set_table_in_service(*, actor: User, table: Table, in_service: bool, reason: str = "") -> Table:
    """Put a table in or out of service (the director or a committee member). A table out of
    service opens no session and receives no decks from the depot (FR art. 40, 42; LU art. 7, 9)."""
    profile = get_casino().profile
    table = Table.objects.select_for_update(no_key=True).get(pk=table.pk)
    in_service = bool(in_service)
    floor_rules.check_service_changed(table, in_service, profile)
    table.in_service = in_service
    table.save(update_fields=["in_service"])
    audit.record(
        actor=actor,
        action=Action.TABLE_IN_SERVICE if in_service else Action.TABLE_OUT_OF_SERVICE,
        obj=table,
        payload={"number": table.number, "code": table.code, "in_service": in_service, "reason": reason},
    )
    return table


def table_refusal(table_number: int, day: Any) -> str | None:
    """The card depot's check (registered in ``TablesConfig.ready``): decks are issued only to a
    table that exists and is in service (FR art. 40, LU art. 7)."""
    table = Table.objects.filter(number=table_number).first()
    if table is None:
        return _("Il n'y a pas de table n° %(n)s.") % {"n": table_number}
    if not table.in_service:
        return _("La table %(t)s n'est pas en service.") % {"t": table.code}
    return None


def day_closed(day: Any) -> bool:
    """The card depot's check (registered in ``TablesConfig.ready``): no deck is issued for a
    day closed in the control register (FR art. 40, 72; LU art. 7, 10)."""
    return ControlDay.objects.filter(day=day, closed_at__isnull=False).exists()
