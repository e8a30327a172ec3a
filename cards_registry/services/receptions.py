"""The receipt book (FR model n° 19): decks taken into the depot, and the officer's visa."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from typing import Any, TypedDict

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import audit
from audit.actions import Action
from casino_ops import act_checks, clock
from casino_ops.access import Act
from casino_ops.acts import OfficerGate, declare_act
from casino_ops.officers import OfficerSignature
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite
from casino_ops.services import get_casino
from casino_ops.validation import validate_fields

from ..models import (
    BookKind,
    Deck,
    DeckStatus,
    DepotSettings,
    OpeningPurpose,
    Order,
    Reception,
    Sixain,
    Visa,
)
from ..rules import (
    PlannedDeck,
    check_approved,
    check_max_sixains,
    check_no_over_delivery,
    check_order_sent,
    check_reception_day,
    check_serials_new,
    check_sixains_only,
    over_delivery,
    plan_reception,
)
from ..rules import books as book_rules
from ..selectors import held_sixains
from ._shared import (
    _create,
    _open_cabinet,
    _profile,
    _require_key_holder,
    _stamp,
    _take_number,
)


class DeckData(TypedDict, total=False):
    serial: str
    back_colour: str


class SixainData(TypedDict, total=False):
    serial: str
    decks: list[DeckData]


@declare_act(
    act=Act.DEPOT,
    action=Action.DEPOT_RECEPTION_RECORDED,
    article="depot.receipt_book",
    refusals=(Refusal.NOT_KEY_HOLDER,),
)
@transaction.atomic
def receive(
    *,
    actor: User,
    order: Order,
    received_on: dt.date,
    sixains: Sequence[SixainData] = (),
    decks: Sequence[DeckData] = (),
    delivery_note: str = "",
) -> Reception:
    """Take decks into the depot: an entry of the receipt book with every serial number.

    FR: each deck's serial; LU: each sixain's (a deck without a serial is then named
    ``<sixain>-<1..6>``). Sixains must be three and three of two back colours. A serial
    already known for the maker is refused; so is, under LU, going beyond the most
    sixains the ministry allows. The reception is written the day the decks arrive
    (neither back- nor future-dated), and never for more decks than the order's (the surplus
    goes back to the maker, or comes on a further order). The decks go into the cabinet:
    the actor holds the key.
    """
    profile = _profile()
    _require_key_holder(actor, profile)
    order = Order.objects.select_related("manufacturer").get(pk=order.pk)
    maker = order.manufacturer
    check_order_sent(order, profile)
    check_approved(maker, received_on, profile)
    now = clock.now()
    check_reception_day(
        received_on, today=timezone.localdate(now), gaming_day=get_casino().gaming_day(now), profile=profile
    )
    act_checks.run(act_checks.Hook.DEPOT_RECEIVE, day=received_on, profile=profile, people={"actor": actor})
    check_sixains_only(decks, profile)
    planned, sixain_serials = plan_reception(sixains=sixains, decks=decks, profile=profile)
    serials = [serial for _s, serial, _c in planned]
    check_serials_new(
        maker_name=maker.name,
        serials=serials,
        sixain_serials=sixain_serials,
        known=list(
            Deck.objects.filter(manufacturer=maker, serial__in=serials).values_list("serial", flat=True)
        ),
        known_sixains=list(
            Sixain.objects.filter(manufacturer=maker, serial__in=sixain_serials).values_list(
                "serial", flat=True
            )
        ),
        profile=profile,
    )
    if profile == "LU" and sixains:
        limit = DepotSettings.objects.filter(pk=1).values_list("max_sixains", flat=True).first()
        if limit is not None:
            check_max_sixains(limit=limit, held=held_sixains(), new=len(sixains), profile=profile)
    over = over_delivery(ordered=_ordered(order), already=_already_received(order), planned=planned)

    book, number = _take_number(BookKind.RECEIPT, profile)
    reception = _create(
        Reception,
        cite("depot.receipt_book", profile),
        book=book,
        number=number,
        order=order,
        manufacturer=maker,
        received_on=received_on,
        delivery_note=delivery_note,
        over_delivery=bool(over),
        recorded_by=actor,
    )
    _create_rows(reception, maker, sixain_serials, planned, profile)
    # After the rows' own checks (a serial or colour too long names its field first); the
    # refusal rolls the whole reception back.
    check_no_over_delivery(over, order_number=order.number, sixains=bool(sixains), profile=profile)
    _open_cabinet(
        actor,
        OpeningPurpose.RECEPTION,
        note=f"Prise en charge n° {number}",
        article=cite("depot.receipt_book", profile),
    )
    audit.record(
        actor=actor,
        action=Action.DEPOT_RECEPTION_RECORDED,
        obj=reception,
        payload={
            "book": book.number,
            "number": number,
            "order": order.number,
            "manufacturer": maker.code,
            "received_on": received_on,
            "delivery_note": delivery_note,
            "sixains": sixain_serials,
            "decks": [[serial, colour] for _s, serial, colour in planned],
            "over_delivery": over,
        },
    )
    return reception


def _ordered(order: Order) -> Counter[str]:
    """The decks ordered, by back colour (lower case)."""
    ordered: Counter[str] = Counter()
    for line in order.lines.all():
        ordered[line.back_colour.lower()] += line.decks
    return ordered


def _already_received(order: Order) -> Counter[str]:
    """The decks already received on ``order``, by back colour (lower case)."""
    return Counter(
        c.lower() for c in Deck.objects.filter(reception__order=order).values_list("back_colour", flat=True)
    )


def _create_rows(
    reception: Reception, maker: Any, sixain_serials: list[str], planned: list[PlannedDeck], profile: str
) -> None:
    """The sixains and decks of a reception, in the cabinet."""
    article = cite("depot.receipt_book", profile)
    new_sixains = [
        Sixain(manufacturer=maker, serial=serial, reception=reception) for serial in sixain_serials
    ]
    for sixain in new_sixains:
        validate_fields(sixain, article, field="sixains")
    try:
        with transaction.atomic():
            made_sixains = Sixain.objects.bulk_create(new_sixains)
        taken = False
    except IntegrityError:
        taken = True
    book_rules.check_serials_not_taken_meanwhile(taken, maker.name, "sixains", article)
    new_decks = [
        Deck(
            manufacturer=maker,
            serial=serial,
            back_colour=colour,
            status=DeckStatus.IN_CABINET,
            reception=reception,
            sixain=made_sixains[s_index] if s_index is not None else None,
        )
        for s_index, serial, colour in planned
    ]
    for deck in new_decks:
        validate_fields(deck, article, field="decks", only=("serial", "back_colour"))
    try:
        # A concurrent reception of the same serials, committed after our check, shows here.
        with transaction.atomic():
            Deck.objects.bulk_create(new_decks)
        taken = False
    except IntegrityError:
        taken = True
    book_rules.check_serials_not_taken_meanwhile(taken, maker.name, "decks", article)


@declare_act(
    act=Act.VISA,
    action=Action.DEPOT_RECEPTION_STAMPED,
    article="depot.receipt_book",
    refusals=(Refusal.ALREADY_STAMPED,),
    gate=OfficerGate("VISA_OFFICER_ONLY", what=gettext_lazy("viser le carnet de prise en charge")),
)
@transaction.atomic
def stamp_reception(
    *, actor: User, reception: Reception, remark: str = "", signature: OfficerSignature | None = None
) -> Visa:
    """The officer's visa on a receipt-book entry (FR art. 39, LU art. 6)."""
    return _stamp(
        actor=actor,
        entry=reception,
        signature=signature,
        remark=remark,
        rule="depot.receipt_book",
        already=_("Cette prise en charge est déjà visée."),
    )
