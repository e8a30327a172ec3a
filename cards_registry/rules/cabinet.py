"""The cabinet and its books: its single key, its books' counters, its openings for an
officer, its inventories, its decks put out of use, the officers' visas (FR art. 39-40, 68;
LU art. 6-7)."""

from __future__ import annotations

from typing import Any, TypeVar

from django.utils.translation import gettext as _

from casino_ops.refusals import Refusal
from casino_ops.regulations import cite

from ..models import OpeningPurpose

T = TypeVar("T")


def check_key_holder(holder: Any, actor_id: int, profile: str) -> None:
    """Only the holder of the single key (``holder``, or None) opens the cabinet (FR art. 39, LU art. 6)."""
    if holder is None or holder.pk != actor_id:
        raise Refusal.NOT_KEY_HOLDER.error(
            profile, holder=holder.get_username() if holder else _("personne (remettez d'abord la clé)")
        )


def check_handover_by_holder(holder: Any, actor_id: int, article: str) -> None:
    """Only the key's holder (``holder``; none before the first handover) hands it over."""
    if holder is not None and holder.pk != actor_id:
        raise Refusal.NOT_KEY_HOLDER.error(
            article=article,
            message=_("Seul le détenteur de la clé (%(holder)s) peut la remettre."),
            holder=holder.get_username(),
        )


def check_key_receiver(holder: Any, receiver: Any, may_hold: bool, article: str) -> None:
    """The key passes to the director or a committee member (``may_hold``), another than its holder."""
    if not may_hold:
        raise Refusal.KEY_HOLDER_ROLE.error(article=article)
    if holder is not None and holder.pk == receiver.pk:
        raise Refusal.KEY_SAME_HOLDER.error(article=article)


def check_book_counter(book: Any, written: int, rule: str, profile: str) -> None:
    """A book's counter says the last number of its entries (``written``): no gap, no repeat
    (the book's ``rule``)."""
    if book.last_number != written:
        raise Refusal.BOOK_COUNTER_OUT_OF_STEP.error(
            article=cite(rule, profile), book=book, counter=book.last_number, written=written
        )


def check_visa_by_witness(witness_only: bool, witnessed: bool, article: str) -> None:
    """A destruction is stamped by the officer who witnessed it (``witness_only``, ``witnessed``)."""
    if witness_only and not witnessed:
        raise Refusal.VISA_NOT_WITNESS.error(article=article)


def check_not_stamped(stamped: bool, already: str, article: str) -> None:
    """An entry is stamped once (``already`` is the refusal's message)."""
    if stamped:
        raise Refusal.ALREADY_STAMPED.error(article=article, message=already)


def check_demand_unanswered(answered: bool, article: str) -> None:
    """An officer's demand is answered by one opening."""
    if answered:
        raise Refusal.DEMAND_ANSWERED.error(article=article)


def demanding_officer(officer: T | None, may_demand: bool, article: str) -> T:
    """The cabinet opens for an inspection demanded by an officer (``officer``, who ``may_demand``)
    (FR art. 39, LU art. 6): that officer."""
    if officer is None or not may_demand:
        raise Refusal.INSPECTION_BY_OFFICER.error(article=article)
    return officer


def check_inventory_opening(opening: Any, article: str) -> None:
    """An inventory is taken at an opening for an officer's inspection."""
    if opening.purpose != OpeningPurpose.INSPECTION or opening.demanded_by is None:
        raise Refusal.INVENTORY_OPENING.error(article=article)


def check_inventory_not_done(done: bool, article: str) -> None:
    """An opening has one inventory."""
    if done:
        raise Refusal.INVENTORY_DONE.error(article=article)


def check_out_of_use(reason: str, decks: Any, article: str) -> None:
    """Decks are put out of use for a reason said, and some are named."""
    if not reason.strip():
        raise Refusal.REASON_REQUIRED.error(article=article)
    if not decks:
        raise Refusal.DECKS_REQUIRED.error(article=article)
