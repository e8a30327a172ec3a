"""Shoe simulator: writes valid `casino-hand-log/1` logs, optionally with faults.

A seeded :class:`random.Random` shuffles a real shoe of ``decks`` 52-card decks
(six, FR art. 55-4 / LU art. 32), burns five, places the stop card leaving
at least one deck behind, and deals rounds (1 to 7 boxes, players behind)
until the stop card appears. Decisions follow a basic strategy with some
noise (insurance, doubles, splits, surrender where offered, players behind
declining); settlements are computed here, independently of the replay.

``faults`` names discrepancy codes to inject (each at most once); the
:class:`Simulation` returned lists where each was injected (code, round,
box, hand, player), so tests can check the replay finds them. A few faults
need a house rule and set it: ``TOO_MANY_SPLITS`` (``max_hands_after_split``
2 if unset), ``ILLEGAL_HIT`` (``resplit_aces``: a hit on a split ace),
``TOO_MANY_BOXES`` (FR, ``max_boxes_per_player`` 1 if unset) and
``SINGLE_PLAYER_ONE_BOX`` (FR, ``single_player_two_boxes``).

Some faults take one of several forms (:data:`FAULT_FORMS`), named in
``forms`` (code -> form) or else drawn by the seeded generator among those the
shoe can carry; the injected entry names its ``form``:

* ``ILLEGAL_SURRENDER``: ``"after a hit"`` (a surrender of impossible form) or
  ``"after a draw at the table"`` (an earlier box has hit: FR art. 55-4 1°,
  "avant tout tirage supplémentaire à la table");
* ``TOO_MANY_BOXES``: one player over ``max_boxes_per_player`` while
  ``"another box holder"`` or ``"a player behind"`` takes part in the round
  (the limit holds only then, "dès lors que d'autres joueurs souhaitent
  participer au jeu").

Fault-free, the simulator obeys the rules: it surrenders only before any card
is drawn at the table, and it sometimes seats a lone player on more boxes than
``max_boxes_per_player`` (allowed when nobody else takes part).

Use :func:`simulate_shoe` for a log, :func:`simulate` for the log and the
injected faults.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..cards import DECK
from ..parse import cents
from ..rules import Rules
from .faults import (
    FAULT_FORMS,
    INJECTABLE,
    POST_HOC,
    PRE_PLAY,
    SHOE_WIDE,
    _checked_forms,
    _house_rules_for,
    _inj,
    _post_hoc,
)
from .hands import _force_extra, _Shoe
from .rounds import BEHIND, NOISE, SEATED, _Sim

__all__ = [
    "BEHIND",
    "FAULT_FORMS",
    "INJECTABLE",
    "NOISE",
    "POST_HOC",
    "PRE_PLAY",
    "SEATED",
    "SHOE_WIDE",
    "Simulation",
    "simulate",
    "simulate_shoe",
]


@dataclass
class Simulation:
    """A simulated shoe: its log and the faults injected into it."""

    log: dict[str, Any]
    injected: list[dict[str, Any]] = field(default_factory=list)


def simulate_shoe(
    seed: int,
    profile: str = "FR",
    house_rules: dict[str, Any] | None = None,
    limits: tuple[str, str] = ("10.00", "1000.00"),
    table: str = "BJ01",
    shoe_id: str | None = None,
    faults: tuple[str, ...] | list[str] = (),
    max_boxes: int = 7,
    forms: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A simulated log (a dict ready for ``json.dumps``)."""
    return simulate(seed, profile, house_rules, limits, table, shoe_id, faults, max_boxes, forms).log


def simulate(
    seed: int,
    profile: str = "FR",
    house_rules: dict[str, Any] | None = None,
    limits: tuple[str, str] = ("10.00", "1000.00"),
    table: str = "BJ01",
    shoe_id: str | None = None,
    faults: tuple[str, ...] | list[str] = (),
    max_boxes: int = 7,
    forms: dict[str, str] | None = None,
) -> Simulation:
    """Simulate one shoe; see the module docstring."""
    faults = list(dict.fromkeys(faults))
    forms = _checked_forms(faults, forms)
    rng = random.Random(seed)
    hr = _house_rules_for(faults, profile, house_rules)
    rules = Rules(profile, hr)
    _draw_forms(rng, rules, faults, forms, max_boxes)
    decks = 8 if "DECK_COUNT" in faults else 6
    burned = 4 if "BURN_COUNT" in faults else 5
    shoe, cut = _shuffled_shoe(rng, decks, burned, "CUT_CARD_TOO_DEEP" in faults)
    min_c = cents(limits[0])
    max_c = cents(limits[1])
    if min_c is None or max_c is None:
        raise ValueError("limits must be amount strings")
    sim = _Sim(rng, rules, shoe, min_c, max_c, max_boxes, forms)
    injected: list[dict[str, Any]] = []
    rounds, metas, x_card = _deal_rounds(sim, shoe, faults, decks, burned, cut, injected)
    log = {
        "format": "casino-hand-log/1",
        "shoe_id": shoe_id or f"{table}-SIM-{seed}",
        "table": table,
        "profile": profile,
        "house_rules": hr,
        "limits": {"min": limits[0], "max": limits[1]},
        "decks": decks,
        "burned": burned,
        "cut_card_after": cut,
        "rounds": rounds,
    }
    injected.extend(_inj(f, None) for f in ("DECK_COUNT", "BURN_COUNT", "CUT_CARD_TOO_DEEP") if f in faults)
    _post_hoc(rng, [f for f in POST_HOC if f in faults], rounds, metas, x_card, injected)
    return Simulation(log, injected)


def _draw_forms(
    rng: random.Random, rules: Rules, faults: list[str], forms: dict[str, str], max_boxes: int
) -> None:
    """The forms of TOO_MANY_BOXES and ILLEGAL_SURRENDER not named in ``forms``, drawn among those
    the shoe can carry (ValueError when none)."""
    if "TOO_MANY_BOXES" in faults:
        # one player on max + 1 boxes, and another player on a box of his own or behind
        mx = rules.max_boxes_per_player or 1
        possible = ("another box holder",) * (mx <= 5) + ("a player behind",) * (mx <= 6)
        form = forms.get("TOO_MANY_BOXES") or (rng.choice(possible) if possible else "")
        if form not in possible:
            raise ValueError(f"TOO_MANY_BOXES ({form or 'any form'}) cannot be injected with max {mx}")
        forms["TOO_MANY_BOXES"] = form
    if "ILLEGAL_SURRENDER" in faults and "ILLEGAL_SURRENDER" not in forms:
        forms["ILLEGAL_SURRENDER"] = rng.choice(FAULT_FORMS["ILLEGAL_SURRENDER"][: 2 if max_boxes > 1 else 1])


def _shuffled_shoe(rng: random.Random, decks: int, burned: int, too_deep: bool) -> tuple[_Shoe, int]:
    """The shuffled shoe with its burned cards drawn, and where the cut card goes (at least one
    deck behind it, unless ``too_deep``)."""
    size = decks * 52
    if too_deep:
        cut = size - rng.randint(36, 46)
    else:
        cut = size - rng.randint(60, 100)
    cards = list(DECK) * decks
    rng.shuffle(cards)
    shoe = _Shoe(cards)
    for _ in range(burned):
        shoe.draw()
    return shoe, cut


def _deal_rounds(
    sim: _Sim,
    shoe: _Shoe,
    faults: list[str],
    decks: int,
    burned: int,
    cut: int,
    injected: list[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str | None]:
    """Rounds until the cut card appears (and past it for CUT_CARD_OVERRUN), the faults played
    in them injected: the rounds, what each one met, and the card dealt one time too many."""
    pre = [f for f in PRE_PLAY if f in faults]
    count_fault = "CARD_COUNT_EXCEEDED" in faults
    count_after = burned + (cut - burned) * 3 // 5
    counts: dict[str, int] = {}
    rounds: list[dict[str, Any]] = []
    metas: list[dict[str, Any]] = []
    x_card: str | None = None
    number = 0
    while (
        shoe.pos < cut
        or (not rounds)
        or ("CUT_CARD_OVERRUN" in faults and not any(i["code"] == "CUT_CARD_OVERRUN" for i in injected))
    ):
        number += 1
        fault = None
        if shoe.pos >= cut:
            injected.append(_inj("CUT_CARD_OVERRUN", number))
            fault = "CUT_CARD_OVERRUN"
        elif pre:
            fault = pre.pop(0)
        elif count_fault and x_card is None and shoe.pos >= count_after:
            x_card = _force_extra(shoe, counts, decks)
            fault = "CARD_COUNT_EXCEEDED"
            injected.append(_inj(fault, number))
        few = len(shoe.cards) - shoe.pos < 70
        rd, meta = sim.round(number, fault, injected, few_cards=few)
        for c in rd["cards"]:
            counts[c] = counts.get(c, 0) + 1
        meta["fault"] = fault
        rounds.append(rd)
        metas.append(meta)
    if count_fault and x_card is None:
        raise ValueError("shoe too short to inject CARD_COUNT_EXCEEDED")
    if pre:
        raise ValueError(f"not enough rounds to inject {pre}")
    return rounds, metas, x_card
