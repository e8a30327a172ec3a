"""The regulated acts of the card depot (FR art. 39-40, 55-4, 68; LU art. 6-7, 32).

Each act is one function: keyword-only arguments, one transaction, every check
before any write (a refusal is a :class:`RegulationError` citing the article of the
casino's profile, and nothing is written), then the rows, then one audit event.

Who may do what (the roles are in :mod:`casino_ops.roles`):

- the director or a committee member (management): manufacturers, orders, sending
  an order, receptions, the key, every act that opens the cabinet (which needs the
  key: the actor must be the current key holder), incidents;
- the officer alone: visas (orders, receipt-book entries, destructions) and the
  closure of an incident; he witnesses destructions and may demand an opening;
- the croupier / table chief (or management): the unsealing or check of a deck at
  his table, and the report of an incident;
- the director alone: corrections (FR art. 68) and the depot's settings.

Numbered books: the next number is taken from the book's row locked ``FOR UPDATE``
(:func:`_take_number`), so concurrent receptions or orders queue on that row and
neither share nor skip a number; a rolled-back act gives its number back.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, TypedDict

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from casino_ops import roles
from casino_ops.regulations import RegulationError, cite
from casino_ops.services import get_casino

from .models import (
    Book,
    BookKind,
    CabinetOpening,
    Correction,
    Deck,
    DeckReturn,
    DeckStatus,
    DepotSettings,
    Destruction,
    DestructionLine,
    Incident,
    IncidentClosure,
    IncidentKind,
    IssueLine,
    KeyHandover,
    Manufacturer,
    OpeningPurpose,
    Order,
    OrderLine,
    Reception,
    ReturnLine,
    ReturnResult,
    Sixain,
    TableCheck,
    TableIssue,
    Unit,
    Visa,
)
from .rules import check_blackjack_sixain, check_cards_counted, check_transition


class OrderLineData(TypedDict):
    quantity: int
    unit: str  # Unit: "deck" or "sixain"
    back_colour: str


class DeckData(TypedDict, total=False):
    serial: str
    back_colour: str


class SixainData(TypedDict, total=False):
    serial: str
    decks: list[DeckData]


class DestructionCheck(TypedDict, total=False):
    deck: Deck
    complete: bool
    unmarked: bool
    remark: str


# -- helpers --------------------------------------------------------------------------


def _profile() -> str:
    return get_casino().profile


def _require_management(actor: Any) -> None:
    if not roles.is_management(actor):
        raise PermissionDenied(
            _("Seuls le directeur et les membres du comité de direction tiennent le dépôt.")
        )


def _require_officer(actor: Any, code: str, what: str, rule: str, profile: str) -> None:
    if not roles.is_officer(actor):
        raise RegulationError(
            code,
            _("Seul un officier de police ou de contrôle peut %(what)s.") % {"what": what},
            cite(rule, profile),
            field="officer",
        )


def current_key_holder() -> Any | None:
    """The holder of the cabinet's single key (the receiver of the last handover)."""
    last = KeyHandover.objects.select_related("receiver").order_by("-at", "-id").first()
    return last.receiver if last else None


def _require_key_holder(actor: Any, profile: str) -> None:
    """Only the holder of the single key opens the cabinet (FR art. 39, LU art. 6)."""
    _require_management(actor)
    holder = current_key_holder()
    if holder is None or holder.pk != actor.pk:
        raise RegulationError(
            "NOT_KEY_HOLDER",
            _("Le dépôt ne s'ouvre qu'avec son unique clé, détenue par %(holder)s.")
            % {"holder": holder.get_username() if holder else _("personne (remettez d'abord la clé)")},
            cite("depot.cabinet_key", profile),
            field="actor",
        )


def _open_cabinet(
    actor: Any,
    purpose: str,
    *,
    table_number: int | None = None,
    day: dt.date | None = None,
    demanded_by: Any = None,
    note: str = "",
) -> CabinetOpening:
    return CabinetOpening.objects.create(
        opened_by=actor,
        at=timezone.now(),
        purpose=purpose,
        table_number=table_number,
        day=day,
        demanded_by=demanded_by,
        note=note,
    )


def _current_book(kind: str) -> Book:
    """The open book of ``kind``, locked FOR UPDATE (the first one is opened on first use)."""
    book = Book.objects.select_for_update().filter(kind=kind, closed_at__isnull=True).first()
    if book is None:
        # Concurrent first uses: the unique constraints make one INSERT win, the others do nothing.
        Book.objects.bulk_create([Book(kind=kind, number=1)], ignore_conflicts=True)
        book = Book.objects.select_for_update().get(kind=kind, closed_at__isnull=True)
    return book


def _take_number(kind: str) -> tuple[Book, int]:
    """The next number of the open book of ``kind``: no gap, no repeat (the row stays locked)."""
    book = _current_book(kind)
    book.last_number += 1
    book.save(update_fields=["last_number"])
    return book, book.last_number


def _lock_decks(decks: Iterable[Deck | int]) -> list[Deck]:
    ids = [d.pk if isinstance(d, Deck) else int(d) for d in decks]
    if len(set(ids)) != len(ids):
        raise ValueError("the same deck is listed twice")
    locked = {
        d.pk: d
        for d in Deck.objects.select_for_update(of=("self",))
        .select_related("manufacturer")
        .filter(pk__in=ids)
        .order_by("pk")
    }
    missing = [i for i in ids if i not in locked]
    if missing:
        raise Deck.DoesNotExist(f"unknown decks: {missing}")
    return [locked[i] for i in ids]


def _move(decks: Sequence[Deck], target: str, act: str, profile: str) -> None:
    for deck in decks:
        check_transition(deck, target, act, profile)
    Deck.objects.filter(pk__in=[d.pk for d in decks]).update(status=target)
    for deck in decks:
        deck.status = target


# -- manufacturers and settings -------------------------------------------------------


@transaction.atomic
def register_manufacturer(
    *,
    actor: Any,
    code: str,
    name: str,
    approval_reference: str,
    ministry: str,
    valid_from: dt.date,
    valid_until: dt.date | None = None,
) -> Manufacturer:
    """Record a maker's approval by the ministry (FR art. 39: Interior; LU art. 6: Finance)."""
    _require_management(actor)
    profile = _profile()
    article = cite("depot.approved_manufacturer", profile)
    for field, value in (("code", code), ("name", name), ("approval_reference", approval_reference)):
        if not value.strip():
            raise RegulationError("FIELD_REQUIRED", _("Ce champ est obligatoire."), article, field=field)
    if not ministry.strip():
        raise RegulationError(
            "FIELD_REQUIRED", _("Indiquez le ministère qui a délivré l'agrément."), article, field="ministry"
        )
    if valid_until is not None and valid_until < valid_from:
        raise RegulationError(
            "APPROVAL_DATES",
            _("La fin de validité de l'agrément précède son début."),
            article,
            field="valid_until",
        )
    if Manufacturer.objects.filter(code=code.strip()).exists():
        raise RegulationError(
            "MANUFACTURER_EXISTS", _("Un fabricant porte déjà ce code."), article, field="code"
        )
    maker = Manufacturer.objects.create(
        code=code.strip(),
        name=name.strip(),
        approval_reference=approval_reference.strip(),
        ministry=ministry.strip(),
        valid_from=valid_from,
        valid_until=valid_until,
        registered_by=actor,
    )
    audit.record(
        actor=actor,
        action="depot.manufacturer_registered",
        obj=maker,
        payload={
            "code": maker.code,
            "name": maker.name,
            "approval_reference": maker.approval_reference,
            "ministry": maker.ministry,
            "valid_from": valid_from,
            "valid_until": valid_until,
        },
    )
    return maker


@transaction.atomic
def set_max_sixains(*, actor: Any, max_sixains: int | None) -> DepotSettings:
    """The most sixains the ministry allows the casino to hold (LU art. 6); the director only."""
    if not roles.has_role(actor, roles.DIRECTOR):
        raise PermissionDenied(_("Seul le directeur responsable modifie les paramètres du dépôt."))
    depot, _created = DepotSettings.objects.select_for_update().get_or_create(pk=1)
    before = depot.max_sixains
    depot.max_sixains = max_sixains
    depot.save()
    audit.record(
        actor=actor,
        action="depot.settings_changed",
        obj=depot,
        payload={"max_sixains": {"before": before, "after": max_sixains}},
    )
    return depot


# -- orders (FR model n° 21) -----------------------------------------------------------


@transaction.atomic
def create_order(
    *,
    actor: Any,
    manufacturer: Manufacturer,
    ordered_on: dt.date,
    lines: Sequence[OrderLineData],
    note: str = "",
) -> Order:
    """Write a purchase order in the order book: the next number, from an approved maker."""
    _require_management(actor)
    profile = _profile()
    article = cite("depot.order_book", profile)
    if not manufacturer.approved_on(ordered_on):
        raise RegulationError(
            "MANUFACTURER_NOT_APPROVED",
            _("Le fabricant %(name)s n'est pas agréé au %(day)s.")
            % {"name": manufacturer.name, "day": ordered_on.strftime("%d/%m/%Y")},
            cite("depot.approved_manufacturer", profile),
            field="manufacturer",
        )
    if not lines:
        raise RegulationError(
            "ORDER_EMPTY", _("Un bon de commande a au moins une ligne."), article, field="lines"
        )
    for index, line in enumerate(lines, start=1):
        if int(line["quantity"]) <= 0:
            raise RegulationError(
                "ORDER_QUANTITY",
                _("Ligne %(n)s : la quantité doit être positive.") % {"n": index},
                article,
                field="lines",
            )
        if line["unit"] not in Unit.values:
            raise RegulationError(
                "ORDER_UNIT", _("Ligne %(n)s : unité inconnue.") % {"n": index}, article, field="lines"
            )
        if not str(line["back_colour"]).strip():
            raise RegulationError(
                "ORDER_COLOUR",
                _("Ligne %(n)s : indiquez la couleur du dos.") % {"n": index},
                article,
                field="lines",
            )
    book, number = _take_number(BookKind.ORDER)
    order = Order.objects.create(
        book=book,
        number=number,
        manufacturer=manufacturer,
        ordered_on=ordered_on,
        recorded_by=actor,
        note=note,
    )
    OrderLine.objects.bulk_create(
        OrderLine(
            order=order,
            quantity=int(line["quantity"]),
            unit=line["unit"],
            back_colour=str(line["back_colour"]).strip(),
        )
        for line in lines
    )
    audit.record(
        actor=actor,
        action="depot.order_created",
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


@transaction.atomic
def stamp_order(*, actor: Any, order: Order, remark: str = "") -> Visa:
    """The officer's visa on a purchase order (FR art. 39, LU art. 6)."""
    profile = _profile()
    _require_officer(actor, "VISA_OFFICER_ONLY", _("viser un bon de commande"), "depot.order_book", profile)
    order = Order.objects.select_for_update().get(pk=order.pk)
    if Visa.objects.filter(order=order).exists():
        raise RegulationError(
            "ALREADY_STAMPED", _("Ce bon de commande est déjà visé."), cite("depot.order_book", profile)
        )
    visa = Visa.objects.create(order=order, officer=actor, at=timezone.now(), remark=remark)
    audit.record(
        actor=actor,
        action="depot.order_stamped",
        obj=order,
        payload={"number": order.number, "officer": actor.get_username(), "remark": remark},
    )
    return visa


@transaction.atomic
def send_order(*, actor: Any, order: Order) -> Order:
    """Send a stamped order to its maker: refused before the officer's visa."""
    _require_management(actor)
    profile = _profile()
    order = Order.objects.select_for_update(of=("self",)).select_related("manufacturer").get(pk=order.pk)
    if not Visa.objects.filter(order=order).exists():
        raise RegulationError(
            "ORDER_NOT_STAMPED",
            _("Le bon n° %(n)s doit être visé par un officier avant d'être envoyé.") % {"n": order.number},
            cite("depot.order_book", profile),
            field="order",
        )
    if order.sent_at is not None:
        raise RegulationError(
            "ORDER_ALREADY_SENT",
            _("Ce bon a déjà été envoyé."),
            cite("depot.order_book", profile),
            field="order",
        )
    today = timezone.localdate()
    if not order.manufacturer.approved_on(today):
        raise RegulationError(
            "MANUFACTURER_NOT_APPROVED",
            _("Le fabricant %(name)s n'est plus agréé.") % {"name": order.manufacturer.name},
            cite("depot.approved_manufacturer", profile),
            field="order",
        )
    order.sent_at = timezone.now()
    order.save(update_fields=["sent_at"])
    audit.record(actor=actor, action="depot.order_sent", obj=order, payload={"number": order.number})
    return order


# -- receptions (FR model n° 19) -------------------------------------------------------


def _held_sixains() -> int:
    return Sixain.objects.exclude(decks__status=DeckStatus.DESTROYED).distinct().count()


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
            held = _held_sixains()
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
    profile = _profile()
    _require_officer(
        actor, "VISA_OFFICER_ONLY", _("viser le carnet de prise en charge"), "depot.receipt_book", profile
    )
    reception = Reception.objects.select_for_update().get(pk=reception.pk)
    if Visa.objects.filter(reception=reception).exists():
        raise RegulationError(
            "ALREADY_STAMPED", _("Cette prise en charge est déjà visée."), cite("depot.receipt_book", profile)
        )
    visa = Visa.objects.create(reception=reception, officer=actor, at=timezone.now(), remark=remark)
    audit.record(
        actor=actor,
        action="depot.reception_stamped",
        obj=reception,
        payload={"number": reception.number, "officer": actor.get_username(), "remark": remark},
    )
    return visa


# -- the cabinet and its key ------------------------------------------------------------


@transaction.atomic
def hand_over_key(*, actor: Any, receiver: Any, reason: str = "") -> KeyHandover:
    """The single key passes from the actor (its holder) to ``receiver`` (director or committee)."""
    profile = _profile()
    article = cite("depot.cabinet_key", profile)
    # Serialise handovers: the key has one holder at a time.
    list(KeyHandover.objects.select_for_update().order_by("-at", "-id")[:1])
    holder = current_key_holder()
    if holder is None:
        _require_management(actor)
    elif holder.pk != actor.pk:
        raise RegulationError(
            "NOT_KEY_HOLDER",
            _("Seul le détenteur de la clé (%(holder)s) peut la remettre.")
            % {"holder": holder.get_username()},
            article,
            field="actor",
        )
    if not roles.is_management(receiver):
        raise RegulationError(
            "KEY_HOLDER_ROLE",
            _("La clé unique du dépôt est détenue par le directeur ou un membre du comité de direction."),
            article,
            field="receiver",
        )
    if holder is not None and holder.pk == receiver.pk:
        raise RegulationError("KEY_SAME_HOLDER", _("Il détient déjà la clé."), article, field="receiver")
    handover = KeyHandover.objects.create(giver=holder, receiver=receiver, at=timezone.now(), reason=reason)
    audit.record(
        actor=actor,
        action="depot.key_handed_over",
        obj=handover,
        payload={
            "giver": holder.get_username() if holder else None,
            "receiver": receiver.get_username(),
            "reason": reason,
        },
    )
    return handover


@transaction.atomic
def open_for_inspection(*, actor: Any, demanded_by: Any, note: str = "") -> CabinetOpening:
    """An officer demands the cabinet be opened, which he may do at any time; the key holder opens."""
    profile = _profile()
    _require_key_holder(actor, profile)
    if not roles.is_officer(demanded_by):
        raise RegulationError(
            "INSPECTION_BY_OFFICER",
            _("Une inspection du dépôt est demandée par un officier de police ou de contrôle."),
            cite("depot.cabinet_key", profile),
            field="demanded_by",
        )
    opening = _open_cabinet(actor, OpeningPurpose.INSPECTION, demanded_by=demanded_by, note=note)
    audit.record(
        actor=actor,
        action="depot.cabinet_opened",
        obj=opening,
        payload={"purpose": "inspection", "demanded_by": demanded_by.get_username(), "note": note},
    )
    return opening


# -- decks at the tables -------------------------------------------------------------------


@transaction.atomic
def issue_decks(
    *,
    actor: Any,
    table_number: int,
    day: dt.date,
    decks: Sequence[Deck | int],
    received_by: Any = None,
) -> TableIssue:
    """Decks leave the cabinet only to be used: for a named table and day (FR art. 40, LU art. 7)."""
    profile = _profile()
    article = cite("depot.issue_and_unseal", profile)
    _require_key_holder(actor, profile)
    if table_number is None or int(table_number) <= 0:
        raise RegulationError("TABLE_REQUIRED", _("Indiquez la table."), article, field="table_number")
    today = timezone.localdate()
    if not (today - dt.timedelta(days=1) <= day <= today):
        raise RegulationError(
            "ISSUE_DAY",
            _("Les jeux ne sortent du dépôt que pour être utilisés : la journée doit être celle en cours."),
            article,
            field="day",
        )
    if not decks:
        raise RegulationError("ISSUE_EMPTY", _("Aucun jeu à remettre."), article, field="decks")
    locked = _lock_decks(decks)
    _move(locked, DeckStatus.ISSUED, "issue", profile)
    opening = _open_cabinet(actor, OpeningPurpose.ISSUE, table_number=table_number, day=day)
    issue = TableIssue.objects.create(
        table_number=table_number,
        day=day,
        opening=opening,
        issued_by=actor,
        received_by=received_by,
        at=opening.at,
    )
    IssueLine.objects.bulk_create(IssueLine(issue=issue, deck=deck) for deck in locked)
    audit.record(
        actor=actor,
        action="depot.decks_issued",
        obj=issue,
        payload={
            "table": table_number,
            "day": day,
            "decks": [[d.manufacturer.code, d.serial] for d in locked],
            "received_by": received_by.get_username() if received_by else None,
        },
    )
    return issue


@transaction.atomic
def check_at_table(
    *,
    actor: Any,
    deck: Deck,
    table_number: int,
    day: dt.date,
    witness: str,
    order_checked: bool,
    cards_counted: int,
    band_intact: bool | None = None,
    video_reference: str = "",
) -> TableCheck:
    """Unseal a new deck (or check a used one) at the table: band, maker's order, 52 cards.

    FR: a new deck is unsealed on video (``video_reference`` required); LU: the public
    sees that the control band is intact. A count other than 52 is refused: it is an
    incident to report to the officer.
    """
    profile = _profile()
    article = cite("depot.issue_and_unseal", profile)
    if not (roles.has_role(actor, roles.CROUPIER) or roles.is_management(actor)):
        raise PermissionDenied(_("Le contrôle d'un jeu à la table revient au chef de table."))
    [deck] = _lock_decks([deck])
    line = (
        IssueLine.objects.filter(
            deck=deck, issue__table_number=table_number, issue__day=day, return_line__isnull=True
        )
        .order_by("-id")
        .first()
    )
    if line is None:
        raise RegulationError(
            "DECK_NOT_AT_TABLE",
            _("Le jeu %(serial)s n'a pas été remis à la table %(table)s pour cette journée.")
            % {"serial": deck.serial, "table": table_number},
            article,
            field="deck",
        )
    check_transition(deck, DeckStatus.IN_PLAY, "check_at_table", profile)
    if not witness.strip():
        raise RegulationError(
            "WITNESS_REQUIRED", _("Indiquez le témoin du contrôle."), article, field="witness"
        )
    new_deck = deck.unsealed_at is None
    if new_deck and band_intact is not True:
        raise RegulationError(
            "BAND_NOT_INTACT",
            _("La bande de contrôle d'un jeu neuf doit être intacte : signalez l'incident à l'officier."),
            cite("depot.incident", profile),
            field="band_intact",
        )
    if new_deck and profile == "FR" and not video_reference.strip():
        raise RegulationError(
            "VIDEO_REQUIRED",
            _("Un jeu neuf est descellé à la table sous vidéo : indiquez la référence de l'enregistrement."),
            article,
            field="video_reference",
        )
    if not order_checked:
        raise RegulationError(
            "ORDER_NOT_CHECKED",
            _("Les cartes sont étalées faces visibles pour vérifier l'ordre du fabricant."),
            article,
            field="order_checked",
        )
    check_cards_counted(cards_counted, profile)
    now = timezone.now()
    check = TableCheck.objects.create(
        issue_line=line,
        at=now,
        checked_by=actor,
        witness=witness.strip(),
        new_deck=new_deck,
        band_intact=band_intact if new_deck else None,
        order_checked=order_checked,
        cards_counted=cards_counted,
        video_reference=video_reference.strip(),
    )
    Deck.objects.filter(pk=deck.pk).update(status=DeckStatus.IN_PLAY, unsealed_at=deck.unsealed_at or now)
    audit.record(
        actor=actor,
        action="depot.deck_checked",
        obj=check,
        payload={
            "deck": [deck.manufacturer.code, deck.serial],
            "table": table_number,
            "day": day,
            "new_deck": new_deck,
            "witness": check.witness,
            "cards_counted": cards_counted,
            "band_intact": check.band_intact,
            "video_reference": check.video_reference,
        },
    )
    return check


@transaction.atomic
def return_decks(
    *,
    actor: Any,
    table_number: int,
    day: dt.date,
    results: Sequence[tuple[Deck | int, str] | tuple[Deck | int, str, str]],
    order_restored: bool = True,
) -> DeckReturn:
    """Decks come back from the table, put back in maker's order and examined.

    ``results``: ``(deck, result[, remark])`` where result is a :class:`ReturnResult`:
    fit decks go back into the cabinet for use; marked, damaged or worn decks go out
    of use and stay in the cabinet, complete, until destroyed. A deck quarantined by
    an incident at the table comes back too, recorded as such, and stays quarantined
    until the officer closes the incident.
    """
    profile = _profile()
    article = cite("depot.issue_and_unseal", profile)
    _require_key_holder(actor, profile)
    if not results:
        raise RegulationError("RETURN_EMPTY", _("Aucun jeu rendu."), article, field="results")
    if not order_restored:
        raise RegulationError(
            "ORDER_NOT_RESTORED",
            _("En fin de partie les cartes sont remises dans l'ordre du fabricant avant leur examen."),
            article,
            field="order_restored",
        )
    decks = _lock_decks([r[0] for r in results])
    outcome: list[tuple[Deck, str, str]] = []
    for deck, result in zip(decks, results, strict=True):
        if result[1] not in ReturnResult.values or result[1] == ReturnResult.QUARANTINED:
            raise RegulationError("RETURN_RESULT", _("Résultat d'examen inconnu."), article, field="results")
        # A deck under an open incident comes back to the cabinet still quarantined:
        # the officer's closure decides whether it is fit.
        found = ReturnResult.QUARANTINED if deck.status == DeckStatus.QUARANTINED else result[1]
        outcome.append((deck, found, result[2] if len(result) > 2 else ""))  # type: ignore[misc]
    lines = {
        line.deck_id: line
        for line in IssueLine.objects.filter(
            deck__in=decks, issue__table_number=table_number, issue__day=day, return_line__isnull=True
        )
    }
    for deck, result, _remark in outcome:
        if deck.pk not in lines:
            raise RegulationError(
                "DECK_NOT_AT_TABLE",
                _("Le jeu %(serial)s n'est pas sorti pour la table %(table)s ce jour-là.")
                % {"serial": deck.serial, "table": table_number},
                article,
                field="results",
            )
        if result == ReturnResult.QUARANTINED:
            continue
        target = DeckStatus.IN_CABINET if result == ReturnResult.FIT else DeckStatus.OUT_OF_USE
        check_transition(deck, target, "return", profile)
    opening = _open_cabinet(actor, OpeningPurpose.RETURN, table_number=table_number, day=day)
    deck_return = DeckReturn.objects.create(
        table_number=table_number, day=day, opening=opening, returned_by=actor, at=opening.at
    )
    ReturnLine.objects.bulk_create(
        ReturnLine(
            deck_return=deck_return,
            issue_line=lines[deck.pk],
            result=result,
            order_restored=True,
            remark=remark,
        )
        for deck, result, remark in outcome
    )
    fit = [d.pk for d, r, _m in outcome if r == ReturnResult.FIT]
    unfit = [d.pk for d, r, _m in outcome if r not in (ReturnResult.FIT, ReturnResult.QUARANTINED)]
    Deck.objects.filter(pk__in=fit).update(status=DeckStatus.IN_CABINET)
    Deck.objects.filter(pk__in=unfit).update(status=DeckStatus.OUT_OF_USE)
    audit.record(
        actor=actor,
        action="depot.decks_returned",
        obj=deck_return,
        payload={
            "table": table_number,
            "day": day,
            "decks": [[d.manufacturer.code, d.serial, r, m] for d, r, m in outcome],
        },
    )
    return deck_return


# -- incidents ---------------------------------------------------------------------------


@transaction.atomic
def report_incident(
    *,
    actor: Any,
    kind: str,
    occurred_at: dt.datetime,
    day: dt.date,
    decks: Sequence[Deck | int],
    officer_informed: Any,
    officer_informed_at: dt.datetime | None,
    circumstances: str,
    table_number: int | None = None,
    shoe_reference: str = "",
) -> Incident:
    """A missing, extra, marked or foreign card, reported at once to the officer (FR art. 40, LU art. 7).

    The officer told and the time he was told are required. The decks concerned are
    quarantined: they can be neither issued nor destroyed until the officer closes
    the incident.
    """
    profile = _profile()
    article = cite("depot.incident", profile)
    if not (roles.has_role(actor, roles.CROUPIER) or roles.is_management(actor)):
        raise PermissionDenied(_("Un incident est signalé par le chef de table ou la direction."))
    if kind not in IncidentKind.values:
        raise RegulationError("INCIDENT_KIND", _("Nature d'incident inconnue."), article, field="kind")
    if officer_informed is None:
        raise RegulationError(
            "OFFICER_NOT_TOLD",
            _("L'incident est signalé sur-le-champ à l'officier : indiquez son nom."),
            article,
            field="officer_informed",
        )
    if not roles.is_officer(officer_informed):
        raise RegulationError(
            "OFFICER_NOT_TOLD",
            _("%(name)s n'est pas un officier de police ou de contrôle.")
            % {"name": officer_informed.get_username()},
            article,
            field="officer_informed",
        )
    if officer_informed_at is None:
        raise RegulationError(
            "OFFICER_NOT_TOLD",
            _(
                "L'incident est signalé sur-le-champ à l'officier : indiquez l'heure à laquelle il a été avisé."
            ),
            article,
            field="officer_informed_at",
        )
    now = timezone.now()
    if occurred_at > now or officer_informed_at > now:
        raise RegulationError(
            "INCIDENT_IN_FUTURE",
            _("Une heure dans le futur ne peut pas être enregistrée."),
            article,
            field="occurred_at",
        )
    if officer_informed_at < occurred_at:
        raise RegulationError(
            "OFFICER_TOLD_BEFORE",
            _("L'officier ne peut pas avoir été avisé avant l'incident."),
            article,
            field="officer_informed_at",
        )
    if not circumstances.strip():
        raise RegulationError(
            "CIRCUMSTANCES_REQUIRED", _("Décrivez les circonstances."), article, field="circumstances"
        )
    if not decks:
        raise RegulationError("INCIDENT_DECKS", _("Indiquez les jeux concernés."), article, field="decks")
    locked = _lock_decks(decks)
    for deck in locked:
        check_transition(deck, DeckStatus.QUARANTINED, "incident", profile)
    book, number = _take_number(BookKind.INCIDENT)
    incident = Incident.objects.create(
        book=book,
        number=number,
        kind=kind,
        occurred_at=occurred_at,
        table_number=table_number,
        day=day,
        shoe_reference=shoe_reference,
        officer_informed=officer_informed,
        officer_informed_at=officer_informed_at,
        circumstances=circumstances.strip(),
        reported_by=actor,
    )
    incident.decks.set(locked)
    for deck in locked:
        Deck.objects.filter(pk=deck.pk).update(
            status=DeckStatus.QUARANTINED, status_before_quarantine=deck.status
        )
    audit.record(
        actor=actor,
        action="depot.incident_reported",
        obj=incident,
        payload={
            "number": number,
            "kind": kind,
            "occurred_at": occurred_at,
            "table": table_number,
            "day": day,
            "shoe": shoe_reference,
            "decks": [[d.manufacturer.code, d.serial] for d in locked],
            "officer_informed": officer_informed.get_username(),
            "officer_informed_at": officer_informed_at,
            "circumstances": incident.circumstances,
        },
    )
    return incident


@transaction.atomic
def close_incident(
    *, actor: Any, incident: Incident, finding: str, decks_fit: Sequence[Deck | int] = ()
) -> IncidentClosure:
    """The officer closes the incident: the decks he finds fit go back to the cabinet, the others out of use."""
    profile = _profile()
    article = cite("depot.incident", profile)
    _require_officer(actor, "CLOSURE_OFFICER_ONLY", _("clore un incident"), "depot.incident", profile)
    incident = Incident.objects.select_for_update().get(pk=incident.pk)
    if IncidentClosure.objects.filter(incident=incident).exists():
        raise RegulationError("INCIDENT_CLOSED", _("Cet incident est déjà clos."), article, field="incident")
    if not finding.strip():
        raise RegulationError("FINDING_REQUIRED", _("Indiquez vos constatations."), article, field="finding")
    decks = _lock_decks(incident.decks.all())
    fit_ids = {d.pk if isinstance(d, Deck) else int(d) for d in decks_fit}
    if fit_ids - {d.pk for d in decks}:
        raise RegulationError(
            "DECK_NOT_IN_INCIDENT",
            _("Un jeu déclaré apte n'est pas concerné par l'incident."),
            article,
            field="decks_fit",
        )
    for deck in decks:
        target = DeckStatus.IN_CABINET if deck.pk in fit_ids else DeckStatus.OUT_OF_USE
        check_transition(deck, target, "close_incident", profile)
    closure = IncidentClosure.objects.create(
        incident=incident, officer=actor, at=timezone.now(), finding=finding
    )
    closure.decks_fit.set([d for d in decks if d.pk in fit_ids])
    Deck.objects.filter(pk__in=[d.pk for d in decks if d.pk in fit_ids]).update(
        status=DeckStatus.IN_CABINET, status_before_quarantine=""
    )
    Deck.objects.filter(pk__in=[d.pk for d in decks if d.pk not in fit_ids]).update(
        status=DeckStatus.OUT_OF_USE, status_before_quarantine=""
    )
    audit.record(
        actor=actor,
        action="depot.incident_closed",
        obj=incident,
        payload={
            "number": incident.number,
            "finding": finding,
            "fit": sorted(d.serial for d in decks if d.pk in fit_ids),
            "out_of_use": sorted(d.serial for d in decks if d.pk not in fit_ids),
        },
    )
    return closure


# -- destruction --------------------------------------------------------------------------


@transaction.atomic
def destroy_decks(
    *, actor: Any, officer: Any, checks: Sequence[DestructionCheck], method: str = "broyage"
) -> Destruction:
    """Destroy decks out of use in front of an officer, who checks each is complete and unmarked.

    Each deck must be out of use, complete and not under an open incident; a destroyed
    deck can never return. The officer then stamps the record (:func:`stamp_destruction`).
    """
    profile = _profile()
    article = cite("depot.destruction", profile)
    _require_key_holder(actor, profile)
    if officer is None or not roles.is_officer(officer):
        raise RegulationError(
            "DESTRUCTION_WITNESS",
            _("La destruction a lieu devant un officier de police ou de contrôle."),
            article,
            field="officer",
        )
    if not checks:
        raise RegulationError("DESTRUCTION_EMPTY", _("Aucun jeu à détruire."), article, field="decks")
    decks = _lock_decks([c["deck"] for c in checks])
    for deck, check in zip(decks, checks, strict=True):
        check_transition(deck, DeckStatus.DESTROYED, "destroy", profile)
        if not check.get("complete"):
            raise RegulationError(
                "DECK_INCOMPLETE",
                _("Le jeu %(serial)s doit rester complet jusqu'à sa destruction : signalez l'incident.")
                % {"serial": deck.serial},
                article,
                field="decks",
            )
    open_incidents = Incident.objects.filter(decks__in=decks, closure__isnull=True)
    if open_incidents.exists():
        raise RegulationError(
            "DECK_QUARANTINED",
            _("Un jeu est concerné par un incident ouvert."),
            cite("depot.incident", profile),
            field="decks",
        )
    book, number = _take_number(BookKind.DESTRUCTION)
    opening = _open_cabinet(
        actor, OpeningPurpose.DESTRUCTION, demanded_by=officer, note=f"Destruction n° {number}"
    )
    destruction = Destruction.objects.create(
        book=book,
        number=number,
        at=opening.at,
        officer=officer,
        recorded_by=actor,
        opening=opening,
        method=method,
    )
    DestructionLine.objects.bulk_create(
        DestructionLine(
            destruction=destruction,
            deck=deck,
            complete=True,
            unmarked=bool(check.get("unmarked")),
            remark=check.get("remark", ""),
        )
        for deck, check in zip(decks, checks, strict=True)
    )
    Deck.objects.filter(pk__in=[d.pk for d in decks]).update(status=DeckStatus.DESTROYED)
    audit.record(
        actor=actor,
        action="depot.destruction_recorded",
        obj=destruction,
        payload={
            "number": number,
            "officer": officer.get_username(),
            "method": method,
            "decks": [
                [d.manufacturer.code, d.serial, True, bool(c.get("unmarked")), c.get("remark", "")]
                for d, c in zip(decks, checks, strict=True)
            ],
        },
    )
    return destruction


@transaction.atomic
def stamp_destruction(*, actor: Any, destruction: Destruction, remark: str = "") -> Visa:
    """The witnessing officer's visa on the destruction record."""
    profile = _profile()
    article = cite("depot.destruction", profile)
    _require_officer(actor, "VISA_OFFICER_ONLY", _("viser une destruction"), "depot.destruction", profile)
    destruction = Destruction.objects.select_for_update().get(pk=destruction.pk)
    if destruction.officer_id != actor.pk:
        raise RegulationError(
            "VISA_NOT_WITNESS",
            _("La destruction est visée par l'officier qui y a assisté."),
            article,
            field="officer",
        )
    if Visa.objects.filter(destruction=destruction).exists():
        raise RegulationError("ALREADY_STAMPED", _("Cette destruction est déjà visée."), article)
    visa = Visa.objects.create(destruction=destruction, officer=actor, at=timezone.now(), remark=remark)
    audit.record(
        actor=actor,
        action="depot.destruction_stamped",
        obj=destruction,
        payload={"number": destruction.number, "officer": actor.get_username(), "remark": remark},
    )
    return visa


# -- corrections (FR art. 68) ---------------------------------------------------------------

CORRECTABLE = {
    Order: ("ordered_on", "note"),
    Reception: ("received_on", "delivery_note"),
    Incident: ("occurred_at", "table_number", "shoe_reference", "circumstances"),
    Destruction: ("method",),
}


def current_value(entry: Model, field: str) -> str:
    """The value of ``field`` as it stands after the corrections already made."""
    key = type(entry).__name__.lower()
    last = Correction.objects.filter(**{key: entry, "field": field}).order_by("-at", "-id").first()
    if last is not None:
        return last.new_value
    value = getattr(entry, field)
    return "" if value is None else str(value)


@transaction.atomic
def record_correction(*, actor: Any, entry: Model, field: str, new_value: str, reason: str) -> Correction:
    """Correct a registered entry by a new entry pointing at it; the director approves it.

    The corrected entry is never changed: both stay visible in the books.
    """
    profile = _profile()
    article = cite("books.no_erasure", profile)
    if not roles.has_role(actor, roles.DIRECTOR):
        raise RegulationError(
            "CORRECTION_BY_DIRECTOR",
            _("Une correction est approuvée par le directeur responsable."),
            article,
            field="actor",
        )
    fields = CORRECTABLE.get(type(entry))
    if fields is None:
        raise ValueError(f"{type(entry).__name__} entries are not corrected this way")
    if field not in fields:
        raise RegulationError(
            "CORRECTION_FIELD",
            _("Cette rubrique ne se corrige pas (rubriques possibles : %(fields)s).")
            % {"fields": ", ".join(fields)},
            article,
            field="field",
        )
    if not reason.strip():
        raise RegulationError(
            "CORRECTION_REASON", _("Indiquez le motif de la correction."), article, field="reason"
        )
    entry = type(entry).objects.select_for_update().get(pk=entry.pk)
    old = current_value(entry, field)
    if str(new_value).strip() == old:
        raise RegulationError(
            "CORRECTION_SAME",
            _("La nouvelle mention est identique à l'actuelle."),
            article,
            field="new_value",
        )
    correction = Correction.objects.create(
        **{type(entry).__name__.lower(): entry},
        field=field,
        old_value=old,
        new_value=str(new_value).strip(),
        reason=reason.strip(),
        approved_by=actor,
        at=timezone.now(),
    )
    audit.record(
        actor=actor,
        action="depot.correction_recorded",
        obj=correction,
        payload={
            "entry": entry._meta.label_lower,
            "entry_id": entry.pk,
            "number": getattr(entry, "number", None),
            "field": field,
            "old": old,
            "new": correction.new_value,
            "reason": correction.reason,
        },
    )
    return correction
