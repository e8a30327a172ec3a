"""The visual replay of one round, as the officers' portal shows it.

The steps themselves (stakes, deal, insurance, each decision, the dealer, the
payments, each with its discrepancies) are computed next to the rules engine,
by :mod:`tables.blackjack.steps`; the portal only gives each card its markup.
"""

from __future__ import annotations

import html
from typing import Any

from tables.blackjack import steps
from tables.blackjack.steps import (
    ACTION_LABELS,
    DEAL_CODES,
    INSURANCE_CODES,
    OUTCOME_LABELS,
    PLAY_CODES,
    RED_SUITS,
    SETTLEMENT_CODES,
    STAKE_CODES,
    SUIT_SYMBOLS,
    round_summaries,
)

__all__ = [
    "ACTION_LABELS",
    "DEAL_CODES",
    "INSURANCE_CODES",
    "OUTCOME_LABELS",
    "PLAY_CODES",
    "RED_SUITS",
    "SETTLEMENT_CODES",
    "STAKE_CODES",
    "SUIT_SYMBOLS",
    "card",
    "round_steps",
    "round_summaries",
]


def card(code: str) -> dict[str, Any]:
    """A card for display: ``{"code", "rank", "suit", "red", "invalid", "html"}``.

    ``html`` is the card's markup, escaped (a log may hold anything where a card
    should be), made once here rather than by a template include per card.
    """
    shown = steps.card_face(code)
    css = "pcard" + (" red" if shown["red"] else "") + (" invalid" if shown["invalid"] else "")
    shown["html"] = (
        f'<span class="{css}" title="{html.escape(shown["code"])}"><b>{html.escape(shown["rank"])}</b>'
        f"<i>{shown['suit']}</i></span>"
    )
    return shown


def round_steps(
    log_round: dict[str, Any],
    report_round: dict[str, Any] | None,
    discrepancies: list[dict[str, Any]],
    *,
    box_count: int = 7,
) -> list[dict[str, Any]]:
    """The steps of one round (:func:`tables.blackjack.steps.round_steps`), cards with their markup."""
    return steps.round_steps(log_round, report_round, discrepancies, box_count=box_count, card=card)
