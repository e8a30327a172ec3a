"""Shoes filled from the decks issued to the table (FR art. 40, 55-4; LU art. 7, 32)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max

import audit
from audit.actions import Action
from cards_registry.models import Deck
from cards_registry.rules import check_blackjack_sixain, check_decks_playable
from cards_registry.selectors import decks_checked_for_play, decks_issued_to, incident_notice
from cards_registry.services import incident_at_shoe
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.refusals import Refusal
from casino_ops.regulations import RegulationError, cite

from .. import clock
from ..models import (
    Session,
    SessionStatus,
    Shoe,
    ShoeDeck,
)
from ..rules import shoes as shoe_rules
from ._shared import (
    _lock_session,
    _require_status,
    _save,
)


def _decks_in_other_live_shoes(session: Session) -> set[int]:
    """The decks of the live shoes of the other sessions: the last shoe filled in each session
    still open or interrupted (a new shoe of a session replaces its previous one)."""
    live = Shoe.objects.filter(session__status__in=[SessionStatus.OPEN, SessionStatus.INTERRUPTED]).exclude(
        session=session
    )
    return set(ShoeDeck.objects.filter(shoe_id__in=last_shoe_ids(live)).values_list("deck_id", flat=True))


def last_shoe_ids(shoes: Any) -> list[int]:
    """The last shoe (highest number) of each session among ``shoes``, on every database
    (no PostgreSQL-only ``DISTINCT ON``: the quick start runs on SQLite)."""
    last: dict[int, int] = {}
    for session_id, pk in shoes.order_by("session_id", "-number").values_list("session_id", "pk"):
        last.setdefault(session_id, pk)
    return list(last.values())


class _WrongComposition(Exception):
    """Decks of the wrong composition at the table: the shoe is refused, and the decks are an
    incident of their own (FR art. 55-4, LU art. 32)."""

    def __init__(self, error: RegulationError, decks: list[Deck]) -> None:
        super().__init__(str(error))
        self.error, self.decks = error, decks


@declare_act(
    act=Act.COUNT,
    action=Action.SHOE_FILLED,
    article="depot.issue_and_unseal",
    refusals=(Refusal.SESSION_STATE,),
    profile=lambda kw: kw["session"].profile,
)
def fill_shoe(*, actor: User, session: Session, deck_ids: Sequence[int], label: str = "") -> Shoe:
    """Fill a shoe of the session from a sixain issued to the table for the day by the card depot:
    six decks, three of one back colour and three of the other (FR art. 40, 55-4; LU art. 7, 32).
    The decks' serials are written with the shoe.

    Decks of the wrong composition are refused *and* open their incident at once, the decks
    quarantined: the refusal rolls the shoe back, the incident is recorded by an act of its own
    (committed even though the shoe is refused), to be reported to the officer."""
    try:
        return _fill_shoe(actor=actor, session=session, deck_ids=deck_ids, label=label)
    except _WrongComposition as wrong:
        colours = Counter(str(d.back_colour).strip().lower() for d in wrong.decks)
        described = ", ".join(f"{n} × {colour}" for colour, n in sorted(colours.items()))
        incident = incident_at_shoe(
            actor=actor,
            decks=wrong.decks,
            table_number=session.table.number,
            day=session.day,
            circumstances=f"{', '.join(d.serial for d in wrong.decks)} : composition du sabot"
            f" ({described}) — remplissage d'un sabot à la table {session.table.code}",
        )
        if incident is not None:  # said with the refusal: no act changes a deck's state silently
            wrong.error.consequence = incident_notice([incident])
        raise wrong.error from None


@transaction.atomic
def _fill_shoe(*, actor: User, session: Session, deck_ids: Sequence[int], label: str) -> Shoe:
    session = _lock_session(session)
    profile = session.profile
    _require_status(session, SessionStatus.OPEN)
    wanted = list(dict.fromkeys(deck_ids))
    # The decks of the table's day not yet returned (FR art. 40, LU art. 7), then the depot's
    # rule: only decks unsealed or checked at that table that day, never a deck already in
    # another live shoe (the current shoe of another open session).
    decks = list(decks_issued_to(table_number=session.table.number, day=session.day).filter(pk__in=wanted))
    shoe_rules.check_decks_issued(wanted, {d.pk for d in decks}, session, profile)
    by_id = {d.pk: d for d in decks}
    decks = [by_id[pk] for pk in wanted]
    checked = set(
        decks_checked_for_play(table_number=session.table.number, day=session.day)
        .filter(pk__in=wanted)
        .values_list("pk", flat=True)
    )
    check_decks_playable(
        deck_ids=wanted,
        checked_ids=checked,
        other_shoe_ids=_decks_in_other_live_shoes(session),
        serials={d.pk: d.serial for d in decks},
        profile=profile,
    )
    try:
        check_blackjack_sixain(decks, profile)
    except RegulationError as error:
        raise _WrongComposition(error, decks) from error
    number = (session.shoes.aggregate(m=Max("number"))["m"] or 0) + 1
    label = label.strip() or f"{session.table.code}-{session.day:%Y-%m-%d}-{session.pk}-S{number}"
    shoe_rules.check_label_free(label, Shoe.objects.filter(label=label).exists(), profile)
    shoe = _save(
        Shoe(session=session, number=number, label=label, filled_at=clock.now(), croupier=actor),
        cite("game.shoe", profile),
    )
    ShoeDeck.objects.bulk_create(
        [ShoeDeck(shoe=shoe, deck=d, serial=d.serial, back_colour=d.back_colour) for d in decks]
    )
    audit.record(
        actor=actor,
        action=Action.SHOE_FILLED,
        obj=shoe,
        payload={
            "session": session.pk,
            "label": label,
            "decks": [{"id": d.pk, "serial": d.serial, "back_colour": d.back_colour} for d in decks],
        },
    )
    return shoe


# -- hand logs ---------------------------------------------------------------------------
