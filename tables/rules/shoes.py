"""A shoe filled at its séance: with decks issued to its table that day, under a label of its
own (FR art. 40, 55-4; LU art. 7, 32)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from casino_ops import dates
from casino_ops.refusals import Refusal


def check_decks_issued(wanted: Sequence[int], issued: Collection[int], session: Any, profile: str) -> None:
    """Every deck put in the shoe was issued to the séance's table for its day (``issued``) and
    is not yet returned."""
    if len(issued) != len(wanted):
        raise Refusal.DECK_NOT_ISSUED.error(
            profile, t=session.table.code, d=dates.day(session.day), ids=sorted(set(wanted) - set(issued))
        )


def check_label_free(label: str, taken: bool, profile: str) -> None:
    """A shoe's label is its own: no other shoe bears it (``taken``)."""
    if taken:
        raise Refusal.SHOE_LABEL_TAKEN.error(profile, l=label)
