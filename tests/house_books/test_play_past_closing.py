"""LU art. 71: play past the closing hour notified to the ministers is named by the
self-inspection (``inspect_books``), on the séance's day, with the article: a séance still open
after the closing hour, a shoe filled at or after it, a séance closed after it."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from tests.support import builders
from tests.support.seance_hours import D, close_seance_at, notify_hours, open_seance_at
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db


def _named(day: dt.date) -> list[str]:
    return [f"{b.article} | {b.object} | {b.detail}" for b in breaches_of("house.session_outside_hours", day)]


def test_play_past_the_closing_hour_is_named(
    lu_casino: Any,
    director: Any,
    croupier: Any,
    cashier: Any,
    table: Any,
) -> None:
    notify_hours(director, closing=dt.time(22))  # séances from 15:00 to 22:00
    session = open_seance_at(director, croupier, table, 16)
    assert _named(D) == [
        f"LU art. 71 | séance de la table 3 du {D:%d/%m/%Y} | "
        "jouée après l'heure de fermeture autorisée : encore ouverte après elle"
    ]
    builders.shoe(session, croupier=croupier, hour=22)  # a shoe filled at the closing hour
    builders.return_decks(session, hour=23)
    close_seance_at(director, croupier, cashier, session, 23)
    found = _named(D)
    assert len(found) == 2 and all(f.startswith("LU art. 71 | séance de la table 3") for f in found)
    assert "clôturée après elle" in found[0] and "sabot garni après elle" in found[1]
    assert not _named(D - dt.timedelta(days=1))


def test_a_seance_closed_at_the_closing_hour_is_not_named(
    lu_casino: Any,
    director: Any,
    croupier: Any,
    cashier: Any,
    table: Any,
) -> None:
    notify_hours(director, closing=dt.time(22))
    session = open_seance_at(director, croupier, table, 16)
    builders.shoe(session, croupier=croupier, hour=17)
    builders.return_decks(session, hour=21)
    close_seance_at(director, croupier, cashier, session, 22)
    assert _named(D) == []
