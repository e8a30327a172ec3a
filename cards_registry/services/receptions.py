"""The receipt book (FR model n° 19): decks taken into the depot, and the officer's visa."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from typing import Any, TypedDict

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

import audit
from casino_ops.regulations import RegulationError, cite

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
from ..rules import check_blackjack_sixain
from ..selectors import held_sixains
from ._shared import (
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


@transaction.atomic
def receive(
    *,
    actor: Any,
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
    sixains the ministry allows. More than ordered is recorded and flagged
    (``over_delivery``). The decks go into the cabinet: the actor holds the key.
    """
    profile = _profile()
    _require_key_holder(actor, profile)
    article = cite("depot.receipt_book", profile)
    order = Order.objects.select_related("manufacturer").get(pk=order.pk)
    maker = order.manufacturer
    if order.sent_at is None:
        raise RegulationError(
            "ORDER_NOT_SENT",
            _("Le bon n° %(n)s n'a pas été visé et envoyé : rien ne peut être pris en charge sur ce bon.")
            % {"n": order.number},
            cite("depot.order_book", profile),
            field="order",
        )
    if not sixains and not decks:
        raise RegulationError("RECEPTION_EMPTY", _("Aucun jeu reçu."), article, field="decks")

    planned: list[tuple[int | None, str, str]] = []  # (sixain index, serial, colour)
    sixain_serials: list[str] = []
    for s_index, sixain in enumerate(sixains):
        s_serial = str(sixain.get("serial") or "").strip()
        if profile == "LU" and not s_serial:
            raise RegulationError(
                "SERIAL_REQUIRED",
                _("Sixain %(n)s : le numéro de série du fabricant est obligatoire.") % {"n": s_index + 1},
                article,
                field="sixains",
            )
        s_decks = list(sixain.get("decks") or [])
        check_blackjack_sixain([str(d.get("back_colour") or "") for d in s_decks], profile)
        if not s_serial:
            s_serial = "S-" + str(s_decks[0].get("serial") or "").strip()
        sixain_serials.append(s_serial)
        for d_index, deck in enumerate(s_decks, start=1):
            serial = str(deck.get("serial") or "").strip()
            if not serial:
                if profile == "FR":
                    raise RegulationError(
                        "SERIAL_REQUIRED",
                        _("Sixain %(s)s, jeu %(n)s : le numéro de série du jeu est obligatoire.")
                        % {"s": s_serial, "n": d_index},
                        article,
                        field="decks",
                    )
                serial = f"{s_serial}-{d_index}"
            colour = str(deck.get("back_colour") or "").strip()
            if not colour:
                raise RegulationError(
                    "COLOUR_REQUIRED",
                    _("Jeu %(serial)s : indiquez la couleur du dos.") % {"serial": serial},
                    article,
                    field="decks",
                )
            planned.append((s_index, serial, colour))
    for d_index, deck in enumerate(decks, start=1):
        serial = str(deck.get("serial") or "").strip()
        colour = str(deck.get("back_colour") or "").strip()
        if not serial:
            raise RegulationError(
                "SERIAL_REQUIRED",
                _("Jeu %(n)s : le numéro de série du jeu est obligatoire.") % {"n": d_index},
                article,
                field="decks",
            )
        if not colour:
            raise RegulationError(
                "COLOUR_REQUIRED",
                _("Jeu %(serial)s : indiquez la couleur du dos.") % {"serial": serial},
                article,
                field="decks",
            )
        planned.append((None, serial, colour))

    serials = [serial for _s, serial, _c in planned]
    twice = sorted(s for s, n in Counter(serials).items() if n > 1)
    s_twice = sorted(s for s, n in Counter(sixain_serials).items() if n > 1)
    known = sorted(
        Deck.objects.filter(manufacturer=maker, serial__in=serials).values_list("serial", flat=True)
    )
    known_sixains = sorted(
        Sixain.objects.filter(manufacturer=maker, serial__in=sixain_serials).values_list("serial", flat=True)
    )
    duplicates = twice or known or s_twice or known_sixains
    if duplicates:
        raise RegulationError(
            "SERIAL_ALREADY_KNOWN",
            _("Numéro(s) de série déjà connu(s) pour %(maker)s : %(serials)s.")
            % {"maker": maker.name, "serials": ", ".join(duplicates[:10])},
            article,
            field="decks" if (twice or known) else "sixains",
        )
    if profile == "LU" and sixains:
        limit = DepotSettings.objects.filter(pk=1).values_list("max_sixains", flat=True).first()
        if limit is not None:
            held = held_sixains()
            if held + len(sixains) > limit:
                raise RegulationError(
                    "MAX_SIXAINS",
                    _(
                        "Le ministère autorise au plus %(limit)s sixains ; le dépôt en détient %(held)s, "
                        "%(new)s de plus dépasseraient la limite."
                    )
                    % {"limit": limit, "held": held, "new": len(sixains)},
                    cite("depot.max_sixains", profile),
                    field="sixains",
                )

    # Matched against the order: partial deliveries are normal, more than ordered is flagged.
    ordered: Counter[str] = Counter()
    for line in order.lines.all():
        ordered[line.back_colour.lower()] += line.decks
    already: Counter[str] = Counter(
        c.lower() for c in Deck.objects.filter(reception__order=order).values_list("back_colour", flat=True)
    )
    now_received: Counter[str] = Counter(colour.lower() for _s, _serial, colour in planned)
    over = {
        colour: already[colour] + n - ordered[colour]
        for colour, n in now_received.items()
        if already[colour] + n > ordered[colour]
    }

    book, number = _take_number(BookKind.RECEIPT)
    reception = Reception.objects.create(
        book=book,
        number=number,
        order=order,
        manufacturer=maker,
        received_on=received_on,
        delivery_note=delivery_note,
        over_delivery=bool(over),
        recorded_by=actor,
    )
    try:
        with transaction.atomic():
            made_sixains = Sixain.objects.bulk_create(
                Sixain(manufacturer=maker, serial=serial, reception=reception) for serial in sixain_serials
            )
    except IntegrityError as exc:
        raise RegulationError(
            "SERIAL_ALREADY_KNOWN",
            _("Numéro(s) de sixain déjà pris en charge pour %(maker)s entre-temps.") % {"maker": maker.name},
            article,
            field="sixains",
        ) from exc
    try:
        # A concurrent reception of the same serials, committed after our check, shows here.
        with transaction.atomic():
            Deck.objects.bulk_create(
                Deck(
                    manufacturer=maker,
                    serial=serial,
                    back_colour=colour,
                    status=DeckStatus.IN_CABINET,
                    reception=reception,
                    sixain=made_sixains[s_index] if s_index is not None else None,
                )
                for s_index, serial, colour in planned
            )
    except IntegrityError as exc:
        raise RegulationError(
            "SERIAL_ALREADY_KNOWN",
            _("Numéro(s) de série déjà pris en charge pour %(maker)s entre-temps.") % {"maker": maker.name},
            article,
            field="decks",
        ) from exc
    _open_cabinet(actor, OpeningPurpose.RECEPTION, note=f"Prise en charge n° {number}")
    audit.record(
        actor=actor,
        action="depot.reception_recorded",
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


@transaction.atomic
def stamp_reception(*, actor: Any, reception: Reception, remark: str = "") -> Visa:
    """The officer's visa on a receipt-book entry (FR art. 39, LU art. 6)."""
    return _stamp(
        actor=actor,
        entry=reception,
        remark=remark,
        what=_("viser le carnet de prise en charge"),
        rule="depot.receipt_book",
        already=_("Cette prise en charge est déjà visée."),
    )
