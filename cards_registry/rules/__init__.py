"""The checks of the card depot and the articles they cite (FR art. 39-40, 55-4, 68; LU art. 6-7, 32).

Pure checks over plain values or model instances already loaded: no query, no write.
Each raises :class:`~casino_ops.regulations.RegulationError` with the article of the
casino's profile and the field at fault. :mod:`.decks`: a deck's life and what a
sixain is; :mod:`.books`: makers, orders, receptions, corrections; :mod:`.tables`:
decks at the tables, incidents, destruction.
"""

from .books import (
    MINISTRIES,
    PlannedDeck,
    check_approved,
    check_correction,
    check_correction_changes,
    check_manufacturer,
    check_max_sixains,
    check_ministry,
    check_no_over_delivery,
    check_order_lines,
    check_order_sendable,
    check_order_sent,
    check_reception_day,
    check_serials_new,
    check_sixains_only,
    over_delivery,
    plan_reception,
)
from .decks import CARDS_PER_DECK, TRANSITIONS, check_blackjack_sixain, check_cards_counted, check_transition
from .tables import (
    check_cards_returned,
    check_closure,
    check_deck_complete,
    check_decks_playable,
    check_destruction,
    check_incident_facts,
    check_incident_kind,
    check_issue,
    check_officer_told,
    check_return,
    check_return_result,
    check_table_check,
    report_is_late,
    return_findings,
    table_check_finding,
)

__all__ = [
    "check_no_over_delivery",
    "check_reception_day",
    "CARDS_PER_DECK",
    "MINISTRIES",
    "TRANSITIONS",
    "PlannedDeck",
    "check_approved",
    "check_blackjack_sixain",
    "check_cards_counted",
    "check_cards_returned",
    "check_closure",
    "check_correction",
    "check_correction_changes",
    "check_deck_complete",
    "check_decks_playable",
    "check_destruction",
    "check_incident_facts",
    "check_incident_kind",
    "check_issue",
    "check_manufacturer",
    "check_max_sixains",
    "check_ministry",
    "check_officer_told",
    "check_order_lines",
    "check_order_sendable",
    "check_order_sent",
    "check_return",
    "check_return_result",
    "check_serials_new",
    "check_sixains_only",
    "check_table_check",
    "check_transition",
    "over_delivery",
    "plan_reception",
    "report_is_late",
    "return_findings",
    "table_check_finding",
]
