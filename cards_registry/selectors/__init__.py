"""Reads of the card depot: for the tables, the admin, the portal and the printed registers.

Every function here only reads, and loads what it returns in a fixed number of
queries whatever the size of the result (``select_related``/``prefetch_related``).
"""

from __future__ import annotations

from ..colours import colour
from .books import DepotLogEntry, depot_log, destructions, incidents, order_book, receipt_book
from .decks import deck_history, find_deck, resolve_decks
from .depot import (
    current_key_holder,
    current_value,
    decks_checked_for_play,
    decks_in_cabinet_per_books,
    decks_issued_to,
    decks_out,
    decks_out_of_use,
    depot_settings,
    held_sixains,
    incident_notice,
    incidents_not_closed,
    incidents_of_replay,
    incidents_of_return,
    last_issue_day,
    last_sixain_cap_act,
    late_or_unreported_incidents,
    open_incidents_at,
    self_inspection,
)
from .officers import (
    all_incidents,
    authority_facts_to_stamp,
    deck_list,
    destructions_awaiting_visa,
    entries_to_stamp,
    makers_awaiting_visa,
    open_incidents,
    orders_awaiting_visa,
    receipt_book_days,
    receptions_awaiting_visa,
    sixain_cap_in_force,
    sixain_caps_awaiting_visa,
    unreported_incidents,
)

__all__ = [
    "colour",
    "decks_out_of_use",
    "incidents_not_closed",
    "self_inspection",
    "last_issue_day",
    "current_key_holder",
    "held_sixains",
    "current_value",
    "decks_issued_to",
    "decks_out",
    "decks_checked_for_play",
    "decks_in_cabinet_per_books",
    "depot_settings",
    "last_sixain_cap_act",
    "late_or_unreported_incidents",
    "incidents_of_replay",
    "incidents_of_return",
    "incident_notice",
    "open_incidents_at",
    "resolve_decks",
    "find_deck",
    "deck_history",
    "receipt_book",
    "order_book",
    "incidents",
    "destructions",
    "DepotLogEntry",
    "depot_log",
    "orders_awaiting_visa",
    "authority_facts_to_stamp",
    "makers_awaiting_visa",
    "sixain_cap_in_force",
    "sixain_caps_awaiting_visa",
    "receptions_awaiting_visa",
    "destructions_awaiting_visa",
    "entries_to_stamp",
    "all_incidents",
    "open_incidents",
    "unreported_incidents",
    "deck_list",
    "receipt_book_days",
]
