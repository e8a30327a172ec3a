"""A hand log received for its séance: its table, its shoe, received once; the director's
explanation of a shoe never filled (FR art. 40, 55-4, 68; LU art. 7, 32)."""

from __future__ import annotations

from typing import Any, NoReturn

from casino_ops.refusals import Refusal


def check_log_table(log_table: Any, table_code: str, profile: str) -> None:
    """A log names the table of the séance it is sent for."""
    if log_table != table_code:
        raise Refusal.HAND_LOG_TABLE.error(profile, l=log_table, t=table_code)


def check_shoe_of_this_session(label: str, session: Any, other: Any) -> None:
    """One shoe does not unlock every log of its séance: a log naming the shoe another séance
    (``other``, or None) filled (its decks issued to another table or another day) is that
    séance's, and its cards were never this one's (FR art. 40, 55-4; LU art. 7, 32). A label no
    séance filled is still received: the replay names it (``SHOE_UNKNOWN``) for the director's
    explanation."""
    if other is not None:
        raise Refusal.HAND_LOG_SHOE_OF_ANOTHER_SESSION.error(session.profile, l=label, o=other, s=session)


def refuse_duplicate(digest: str, profile: str) -> NoReturn:
    """The same bytes already received (FR art. 68): the unique SHA-256 refused the insert."""
    raise Refusal.HAND_LOG_DUPLICATE.error(profile, h=digest)


def check_explained(unexplained_shoes: list[str], note: str, profile: str) -> None:
    """A log of a shoe the séance never filled is taken note of only with the director's
    explanation (``note``): its cards come from no recorded deck (FR art. 40, LU art. 7)."""
    if unexplained_shoes and not note:
        raise Refusal.EXPLANATION_REQUIRED.error(profile, logs=", ".join(sorted(set(unexplained_shoes))))
