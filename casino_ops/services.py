"""The casino's own settings: the row read by every app, and the fields its act may change.

The act that changes them (``house_books.services.casino.update_casino_settings``)
records itself in the chain, so it stands above the record; casino_ops imports no app.
"""

from __future__ import annotations

from .models import HOUSE_RULE_KEYS, CasinoSettings

#: The casino's own fields, then its house rules (the rules engine's keys), then its
#: gaming day and exercise.
CASINO_FIELDS = ("name", "profile", "authorised_min_stake", "authorisation_reference")
CALENDAR_FIELDS = ("gaming_day_rollover", "exercise_start_month", "exercise_start_day")
EDITABLE_FIELDS = (*CASINO_FIELDS, *HOUSE_RULE_KEYS, *CALENDAR_FIELDS)


def get_casino() -> CasinoSettings:
    """The casino's settings; before the director's first act, the defaults (not saved: the row
    is a book, written only by that act)."""
    casino = CasinoSettings.objects.filter(pk=1).first()
    if casino is None:
        casino = CasinoSettings(pk=1, name="Casino")
    return casino
