"""The order book (FR model n° 21): write, stamp and send a purchase order."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TypedDict

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import audit
from audit.actions import Action
from casino_ops.access import Act
from casino_ops.acts import OfficerGate, declare_act
from casino_ops.officers import OfficerSignature
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite
from casino_ops.validation import validate_fields

from ..models import (
    BookKind,
    Manufacturer,
    Order,
    OrderLine,
    Visa,
)
from ..rules import check_approved, check_order_lines, check_order_sendable
from ._shared import (
    _create,
    _profile,
    _stamp,
    _take_number,
)


class OrderLineData(TypedDict):
    quantity: int
    unit: str  # Unit: "deck" or "sixain"
    back_colour: str


@declare_act(
    act=Act.DEPOT,
    action=Action.DEPOT_ORDER_CREATED,
    article="depot.order_book",
)
@transaction.atomic
def create_order(
    *,
    actor: User,
    manufacturer: Manufacturer,
    ordered_on: dt.date,
    lines: Sequence[OrderLineData],
    note: str = "",
) -> Order:
    """Write a purchase order in the order book: the next number, from an approved maker."""
    profile = _profile()
    check_approved(manufacturer, ordered_on, profile)
    check_order_lines(lines, profile)
    article = cite("depot.order_book", profile)
    order_lines = [
        OrderLine(
            quantity=int(line["quantity"]), unit=line["unit"], back_colour=str(line["back_colour"]).strip()
        )
        for line in lines
    ]
    for order_line in order_lines:
        validate_fields(order_line, article, field="lines")
    book, number = _take_number(BookKind.ORDER, profile)
    order = _create(
        Order,
        article,
        book=book,
        number=number,
        manufacturer=manufacturer,
        ordered_on=ordered_on,
        recorded_by=actor,
        note=note,
    )
    for order_line in order_lines:
        order_line.order = order
    OrderLine.objects.bulk_create(order_lines)
    audit.record(
        actor=actor,
        action=Action.DEPOT_ORDER_CREATED,
        obj=order,
        payload={
            "book": book.number,
            "number": number,
            "manufacturer": manufacturer.code,
            "ordered_on": ordered_on,
            "lines": [dict(line) for line in lines],
            "note": note,
        },
    )
    return order


@declare_act(
    act=Act.VISA,
    action=Action.DEPOT_ORDER_STAMPED,
    article="depot.order_book",
    refusals=(Refusal.ALREADY_STAMPED,),
    gate=OfficerGate("VISA_OFFICER_ONLY", what=gettext_lazy("viser un bon de commande")),
)
@transaction.atomic
def stamp_order(
    *, actor: User, order: Order, remark: str = "", signature: OfficerSignature | None = None
) -> Visa:
    """The officer's visa on a purchase order (FR art. 39, LU art. 6)."""
    return _stamp(
        actor=actor,
        entry=order,
        signature=signature,
        remark=remark,
        rule="depot.order_book",
        already=_("Ce bon de commande est déjà visé."),
    )


@declare_act(
    act=Act.DEPOT,
    action=Action.DEPOT_ORDER_SENT,
    article="depot.order_book",
)
@transaction.atomic
def send_order(*, actor: User, order: Order) -> Order:
    """Send a stamped order to its maker: refused before the officer's visa."""
    profile = _profile()
    order = Order.objects.select_for_update(of=("self",)).select_related("manufacturer").get(pk=order.pk)
    check_order_sendable(
        order=order,
        stamped=Visa.objects.filter(order=order).exists(),
        approved_today=order.manufacturer.approved_on(timezone.localdate()),
        profile=profile,
    )
    order.sent_at = timezone.now()
    order.save(update_fields=["sent_at"])
    audit.record(actor=actor, action=Action.DEPOT_ORDER_SENT, obj=order, payload={"number": order.number})
    return order
