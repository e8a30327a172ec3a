"""The checks of the depot's books: makers, orders, receptions, corrections (FR art. 39, 68; LU art. 6)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from casino_ops import dates
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite

from ..models import Unit
from .decks import check_blackjack_sixain

# -- makers and orders -------------------------------------------------------------------


def check_manufacturer(
    *,
    code: str,
    name: str,
    approval_reference: str,
    ministry: str,
    valid_from: dt.date,
    valid_until: dt.date | None,
    profile: str,
) -> None:
    """A maker's approval names its code, name, reference and ministry, and its dates are in order."""
    article = cite("depot.approved_manufacturer", profile)
    for field, value in (("code", code), ("name", name), ("approval_reference", approval_reference)):
        if not value.strip():
            raise Refusal.FIELD_REQUIRED_DEPOT_APPROVED_MANUFACTURER.error(article=article, field=field)
    if not ministry.strip():
        raise Refusal.FIELD_REQUIRED_DEPOT_APPROVED_MANUFACTURER.error(
            article=article, field="ministry", message=_("Indiquez le ministère qui a délivré l'agrément.")
        )
    if is_placeholder(approval_reference):
        raise Refusal.APPROVAL_REFERENCE_MISSING.error(article=article, r=approval_reference.strip())
    if valid_until is not None and valid_until < valid_from:
        raise Refusal.APPROVAL_DATES.error(article=article)
    check_ministry(ministry, profile)


# The ministry that approves card makers, by profile (FR art. 39: Interior; LU art. 6: Finances).
MINISTRIES = {"FR": "Ministère de l'Intérieur", "LU": "Ministère des Finances"}
_MINISTRY_WORDS = {"FR": ("intérieur", "interieur"), "LU": ("finance",)}


# What is typed where an authority's reference should be, and is none (FR art. 39, LU art. 6).
PLACEHOLDERS = frozenset(
    {"néant", "neant", "aucun", "aucune", "sans", "rien", "none", "n/a", "na", "nc", "n.c", "inconnu",
     "inconnue", "à venir", "a venir", "en cours", "-", "--", "—", "?", "x", "xx", "xxx", "0", "."}
)  # fmt: skip


def is_placeholder(reference: str) -> bool:
    """``reference`` is empty, or a word standing for no reference ("néant", "-", "n/a"…)."""
    text = " ".join(str(reference or "").split()).lower().strip(" .;:!")
    return not text or text in PLACEHOLDERS


def names_ministry(ministry: str, profile: str) -> bool:
    """``ministry`` names the ministry that approves card makers under ``profile``."""
    text = ministry.strip().lower()
    return any(word in text for word in _MINISTRY_WORDS[profile])


def check_ministry(ministry: str, profile: str) -> None:
    """The approval is the ministry's of the casino's profile (FR art. 39: Interior; LU art. 6:
    Finance): naming the other one, or another body (a chamber of commerce…), is refused."""
    if not names_ministry(ministry, profile):
        raise Refusal.MINISTRY_PROFILE.error(profile, ministry=MINISTRIES[profile])


def check_sixains_only(decks: Sequence[Any], profile: str) -> None:
    """LU art. 6: the casino obtains cards only by sixains; a reception of loose decks is refused."""
    if profile == "LU" and decks:
        raise Refusal.SIXAINS_ONLY.error(profile, n=len(decks))


def check_approved(manufacturer: Any, day: dt.date, profile: str, *, field: str = "manufacturer") -> None:
    """Cards are bought only from a maker approved by the ministry on ``day``."""
    if not manufacturer.approved_on(day):
        raise Refusal.MANUFACTURER_NOT_APPROVED.error(
            profile, field=field, name=manufacturer.name, day=dates.day(day)
        )


def check_order_lines(lines: Sequence[Mapping[str, Any]], profile: str) -> None:
    """An order has at least one line, each with a positive quantity, a known unit and a back colour."""
    article = cite("depot.order_book", profile)
    if not lines:
        raise Refusal.ORDER_EMPTY.error(article=article)
    for index, line in enumerate(lines, start=1):
        if int(line["quantity"]) <= 0:
            raise Refusal.ORDER_QUANTITY.error(article=article, n=index)
        if line["unit"] not in Unit.values:
            raise Refusal.ORDER_UNIT.error(article=article, n=index)
        if not str(line["back_colour"]).strip():
            raise Refusal.ORDER_COLOUR.error(article=article, n=index)


def check_order_sendable(*, order: Any, stamped: bool, approved_today: bool, profile: str) -> None:
    """An order is sent once, after the officer's visa, to a maker still approved."""
    article = cite("depot.order_book", profile)
    if not stamped:
        raise Refusal.ORDER_NOT_STAMPED.error(article=article, n=order.number)
    if order.sent_at is not None:
        raise Refusal.ORDER_ALREADY_SENT.error(article=article)
    if not approved_today:
        raise Refusal.MANUFACTURER_NOT_APPROVED.error(
            profile,
            field="order",
            message=_("Le fabricant %(name)s n'est plus agréé."),
            name=order.manufacturer.name,
        )


# -- receptions ----------------------------------------------------------------------------

# A planned deck of a reception: (index of its sixain or None, serial, back colour).
PlannedDeck = tuple[int | None, str, str]


def check_order_sent(order: Any, profile: str) -> None:
    if order.sent_at is None:
        raise Refusal.ORDER_NOT_SENT.error(profile, n=order.number)


def _colour_of(deck: Mapping[str, Any], serial: str, article: str) -> str:
    colour = str(deck.get("back_colour") or "").strip()
    if not colour:
        raise Refusal.COLOUR_REQUIRED.error(article=article, serial=serial)
    return colour


def _plan_sixain(
    s_index: int, sixain: Mapping[str, Any], profile: str, article: str
) -> tuple[str, list[PlannedDeck]]:
    s_serial = str(sixain.get("serial") or "").strip()
    if profile == "LU" and not s_serial:
        raise Refusal.SERIAL_REQUIRED.error(
            article=article,
            field="sixains",
            message=_("Sixain %(n)s : le numéro de série du fabricant est obligatoire."),
            n=s_index + 1,
        )
    s_decks = list(sixain.get("decks") or [])
    check_blackjack_sixain([str(d.get("back_colour") or "") for d in s_decks], profile)
    if not s_serial:
        s_serial = "S-" + str(s_decks[0].get("serial") or "").strip()
    planned: list[PlannedDeck] = []
    for d_index, deck in enumerate(s_decks, start=1):
        serial = str(deck.get("serial") or "").strip()
        if not serial:
            if profile == "FR":
                raise Refusal.SERIAL_REQUIRED.error(
                    article=article,
                    field="decks",
                    message=_("Sixain %(s)s, jeu %(n)s : le numéro de série du jeu est obligatoire."),
                    s=s_serial,
                    n=d_index,
                )
            serial = f"{s_serial}-{d_index}"
        planned.append((s_index, serial, _colour_of(deck, serial, article)))
    return s_serial, planned


def plan_reception(
    *, sixains: Sequence[Mapping[str, Any]], decks: Sequence[Mapping[str, Any]], profile: str
) -> tuple[list[PlannedDeck], list[str]]:
    """The decks and sixain serials a reception records, every serial and colour given.

    FR: each deck's serial; LU: each sixain's (a deck without a serial is then named
    ``<sixain>-<1..6>``). Sixains must be three and three of two back colours.
    """
    article = cite("depot.receipt_book", profile)
    if not sixains and not decks:
        raise Refusal.RECEPTION_EMPTY.error(article=article)
    planned: list[PlannedDeck] = []
    sixain_serials: list[str] = []
    for s_index, sixain in enumerate(sixains):
        s_serial, s_planned = _plan_sixain(s_index, sixain, profile, article)
        sixain_serials.append(s_serial)
        planned.extend(s_planned)
    for d_index, deck in enumerate(decks, start=1):
        serial = str(deck.get("serial") or "").strip()
        if not serial:
            raise Refusal.SERIAL_REQUIRED.error(article=article, field="decks", n=d_index)
        planned.append((None, serial, _colour_of(deck, serial, article)))
    return planned, sixain_serials


def check_serials_new(
    *,
    maker_name: str,
    serials: Sequence[str],
    sixain_serials: Sequence[str],
    known: Sequence[str],
    known_sixains: Sequence[str],
    profile: str,
) -> None:
    """No serial twice in a reception, nor one already known for the maker (``known``, ``known_sixains``)."""
    twice = sorted(s for s, n in Counter(serials).items() if n > 1)
    s_twice = sorted(s for s, n in Counter(sixain_serials).items() if n > 1)
    known = sorted(known)
    duplicates = twice or known or s_twice or sorted(known_sixains)
    if duplicates:
        raise Refusal.SERIAL_ALREADY_KNOWN.error(
            profile,
            field="decks" if (twice or known) else "sixains",
            maker=maker_name,
            serials=", ".join(duplicates[:10]),
        )


def check_max_sixains(*, limit: int | None, held: int, new: int, profile: str) -> None:
    """LU art. 6: the depot holds no more sixains than the ministry allows (no limit: ``None``)."""
    if limit is not None and held + new > limit:
        raise Refusal.MAX_SIXAINS.error(profile, limit=limit, held=held, new=new)


def over_delivery(
    *, ordered: Mapping[str, int], already: Mapping[str, int], planned: Sequence[PlannedDeck]
) -> dict[str, int]:
    """Decks received beyond the order, by back colour (partial deliveries are normal)."""
    now_received: Counter[str] = Counter(colour.lower() for _s, _serial, colour in planned)
    return {
        colour: already.get(colour, 0) + n - ordered.get(colour, 0)
        for colour, n in now_received.items()
        if already.get(colour, 0) + n > ordered.get(colour, 0)
    }


def check_reception_day(received_on: Any, *, today: dt.date, gaming_day: dt.date, profile: str) -> None:
    """A reception is written in the receipt book the day the decks arrive (FR art. 39, LU art. 6):
    the current date or gaming day, neither before nor after."""
    if not isinstance(received_on, dt.date) or not (
        min(today, gaming_day) <= received_on <= max(today, gaming_day)
    ):
        raise Refusal.RECEPTION_DAY.error(
            profile,
            day=dates.day(received_on) if isinstance(received_on, dt.date) else received_on,
            today=dates.day(today),
        )


def check_no_over_delivery(
    over: Mapping[str, int], *, order_number: int, sixains: bool, profile: str
) -> None:
    """No more decks are taken in than the order's (FR art. 39, LU art. 6): the surplus goes back
    to the maker, or comes on a further order stamped by the officer."""
    if over:
        raise Refusal.OVER_DELIVERY.error(
            profile,
            field="sixains" if sixains else "decks",
            number=order_number,
            over=", ".join(f"{colour} : {n}" for colour, n in sorted(over.items())),
        )


# -- corrections ---------------------------------------------------------------------------


def check_correction(*, fields: Sequence[str], field: str, reason: str, profile: str) -> None:
    """Only the listed rubrics of an entry are corrected, and always with a reason (FR art. 68)."""
    article = cite("depot.correction", profile)
    if field not in fields:
        raise Refusal.CORRECTION_FIELD.error(article=article, fields=", ".join(fields))
    if not reason.strip():
        raise Refusal.CORRECTION_REASON.error(article=article)


def check_correction_changes(old: str, new_value: str, profile: str) -> None:
    if new_value.strip() == old:
        raise Refusal.CORRECTION_SAME.error(profile)


# -- what the acts on the books find already written ----------------------------------------


def check_maker_new(exists: bool, article: str) -> None:
    """A maker is registered once, under its code."""
    if exists:
        raise Refusal.MANUFACTURER_EXISTS.error(article=article)


def check_sixain_cap(max_sixains: int | None, reference: str, profile: str, article: str) -> None:
    """LU art. 6: the most sixains held is the ministry's, recorded with its decision's
    reference and never emptied."""
    if profile == "LU" and max_sixains is None:
        raise Refusal.SIXAIN_CAP_REQUIRED.error(article=article)
    if profile == "LU" and is_placeholder(reference):
        raise Refusal.SIXAIN_CAP_REFERENCE.error(article=article)


def check_fact_not_stamped(stamped: bool, already: str, article: str) -> None:
    """An authority's fact is stamped once (``already`` is the refusal's message)."""
    if stamped:
        raise Refusal.ALREADY_STAMPED.error(article=article, message=already)


def check_serials_not_taken_meanwhile(taken: bool, maker: str, field: str, article: str) -> None:
    """A concurrent reception of the same serials, committed after the check, took them (``taken``)."""
    if not taken:
        return
    if field == "sixains":
        message = _("Numéro(s) de sixain déjà pris en charge pour %(maker)s entre-temps.")
    else:
        message = _("Numéro(s) de série déjà pris en charge pour %(maker)s entre-temps.")
    raise Refusal.SERIAL_ALREADY_KNOWN.error(article=article, field=field, message=message, maker=maker)


def check_corrected_serial_free(taken: bool, maker: str, serial: str, profile: str) -> None:
    """A corrected serial is not one the maker already has (``taken``: as registered or as corrected)."""
    if taken:
        raise Refusal.SERIAL_ALREADY_KNOWN.error(profile, field="new_value", maker=maker, serials=serial)


def check_corrected_value(wrong: bool, field: str, value: str, allowed: str, article: str) -> None:
    """A corrected examination, count or check is one the act itself would accept (``allowed``)."""
    if wrong:
        raise Refusal.CORRECTION_VALUE.error(
            article=article, values={"field": field, "value": value, "allowed": allowed}
        )
