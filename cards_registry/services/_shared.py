"""What the depot's acts share: the profile, who may act, the cabinet's openings, the
numbered books, deck locking and moves, and the officers' visas.

Numbered books: the next number is taken from the book's row locked ``FOR UPDATE``
(:func:`_take_number`), so concurrent receptions or orders queue on that row and
neither share nor skip a number; a rolled-back act gives its number back. The counter
must say the last number written in the book: one moved behind the application's back
is refused (BOOK_COUNTER_OUT_OF_STEP), no number is given.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db.models import Max, Model
from django.utils import timezone

import audit
from audit.actions import DEPOT_STAMPED
from casino_ops import access, clock, officers
from casino_ops.access import Act
from casino_ops.officers import OfficerSignature
from casino_ops.regulations import cite
from casino_ops.services import get_casino
from casino_ops.validation import validate_fields

from ..models import (
    Book,
    BookKind,
    CabinetOpening,
    Deck,
    Destruction,
    Incident,
    Order,
    Reception,
    Visa,
)
from ..rules import cabinet as cabinet_rules
from ..rules import check_transition
from ..selectors import current_key_holder

M = TypeVar("M", bound=Model)


def _profile() -> str:
    return get_casino().profile


def _require_management(actor: User) -> None:
    access.require(actor, Act.DEPOT)


def _require_key_holder(actor: User, profile: str) -> None:
    """Only the holder of the single key opens the cabinet (FR art. 39, LU art. 6); the role
    (``Act.DEPOT``) is the declaration's gate of the act (casino_ops.acts)."""
    cabinet_rules.check_key_holder(current_key_holder(), actor.pk, profile)


def _create(model: type[M], article: str, /, **values: Any) -> M:
    """``model.objects.create(**values)``, its values checked first against their fields.

    A value that does not fit its column is a :class:`RegulationError` citing ``article``
    and naming the field, never an ``IntegrityError`` or ``DataError``.
    """
    instance = model(**values)
    validate_fields(instance, article)
    instance.save(force_insert=True)
    return instance


def _open_cabinet(
    actor: User,
    purpose: str,
    *,
    table_number: int | None = None,
    day: dt.date | None = None,
    demanded_by: User | None = None,
    note: str = "",
    article: str,
) -> CabinetOpening:
    """An opening of the cabinet, recorded with its purpose (``article``: of the act, for a refusal)."""
    return _create(
        CabinetOpening,
        article,
        opened_by=actor,
        at=clock.now(),
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


#: Each numbered book: its entries and the article keeping it.
_NUMBERED: dict[str, tuple[type[Model], str]] = {
    BookKind.ORDER: (Order, "depot.order_book"),
    BookKind.RECEIPT: (Reception, "depot.receipt_book"),
    BookKind.INCIDENT: (Incident, "depot.incident"),
    BookKind.DESTRUCTION: (Destruction, "depot.destruction"),
}


def _take_number(kind: str, profile: str) -> tuple[Book, int]:
    """The next number of the open book of ``kind``: no gap, no repeat (the row stays locked).
    The counter must say the last number of the book's entries: else nothing is given."""
    book = _current_book(kind)
    entries, rule = _NUMBERED[kind]
    written = entries._base_manager.filter(book=book).aggregate(last=Max("number"))["last"] or 0
    cabinet_rules.check_book_counter(book, written, rule, profile)
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


def _stamp(
    *,
    actor: User,
    entry: Order | Reception | Destruction,
    remark: str,
    rule: str,
    already: str,
    witness_only: bool = False,
    signature: OfficerSignature | None = None,
) -> Visa:
    """The officer's visa on a book entry: an order, a reception or a destruction.

    Only an officer stamps (the gate of the stamp's declaration); an entry is stamped
    once (``already`` is the refusal); a destruction is stamped by the officer who
    witnessed it (``witness_only``); the officer's passkey signs it (``signature``, checked by
    :func:`casino_ops.officers.seal`). The visa and its audit event
    (``depot.<entry>_stamped``, with the signature) are written in the caller's transaction.
    """
    profile = _profile()
    article = cite(rule, profile)
    model = type(entry)
    key = model.__name__.lower()
    entry = model.objects.select_for_update().get(pk=entry.pk)
    cabinet_rules.check_visa_by_witness(witness_only, getattr(entry, "officer_id", None) == actor.pk, article)
    cabinet_rules.check_not_stamped(Visa.objects.filter(**{key: entry}).exists(), already, article)
    sealed = officers.seal(
        officer=actor,
        act=DEPOT_STAMPED[key],
        target=entry,
        fields={"remark": remark},
        signature=signature,
        profile=profile,
    )
    visa = _create(Visa, article, **{key: entry}, officer=actor, at=timezone.now(), remark=remark)
    audit.record(
        actor=actor,
        action=DEPOT_STAMPED[key],
        obj=entry,
        payload={
            "number": entry.number,
            "officer": actor.get_username(),
            "remark": remark,
            officers.SIGNATURE_KEY: sealed,
        },
    )
    return visa
