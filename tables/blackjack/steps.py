"""The steps of one round, for the visual replay an officer walks through.

Pure Python, next to the engine (no Django, no project import): takes a round
of a ``casino-hand-log/1`` log, the same round of the engine's replay report
(:func:`tables.blackjack.replay`) and the round's discrepancies, and returns
the successive states of the table — stakes, the deal card by card as it left
the shoe, insurance, each decision of each box in play order, the dealer's
draw, the payments — each step carrying the discrepancies found at that point,
placed on the box where they happened.

The engine decides; this module only lays its findings out in time. Cards
drawn during play are read from the shoe in order; the hands' final cards and
totals are the engine's. A card is shown by :func:`card_face` (code, rank,
suit symbol, colour), or by the ``card`` function the caller passes (the
officers' portal adds its markup).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from .rules import MAX_BOXES

CardFn = Callable[[str], dict[str, Any]]

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = {"H", "D"}

# Where a discrepancy shows, by code (anything else shows at the end of the round).
STAKE_CODES = {
    "BET_BELOW_MIN",
    "BET_ABOVE_MAX",
    "BET_UNIT",
    "TOO_MANY_BOXES",
    "SINGLE_PLAYER_ONE_BOX",
    "CUT_CARD_OVERRUN",
    "ROUND_NUMBERING",
}
DEAL_CODES = {"CARD_COUNT_EXCEEDED", "INVALID_CARD"}
INSURANCE_CODES = {"ILLEGAL_INSURANCE"}
PLAY_CODES = {
    "ILLEGAL_DOUBLE",
    "ILLEGAL_HIT",
    "ILLEGAL_SPLIT",
    "ILLEGAL_SURRENDER",
    "TOO_MANY_SPLITS",
    "EXTRA_DECISION",
    "MISSING_DECISION",
}
SETTLEMENT_CODES = {"SETTLEMENT_MISMATCH", "SETTLEMENT_MISSING", "SETTLEMENT_UNKNOWN"}

ACTION_LABELS = {
    "hit": "tire une carte",
    "stand": "reste",
    "double": "double",
    "split": "sépare",
    "surrender": "abandonne",
}
OUTCOME_LABELS = {
    "win": "gagne",
    "lose": "perd",
    "push": "égalité",
    "blackjack": "black-jack",
    "bust": "sauté",
    "surrender": "abandon",
}


def card_face(code: str) -> dict[str, Any]:
    """A card for display: ``{"code", "rank", "suit", "red", "invalid"}`` (``10`` for a ten,
    the suit's symbol; anything that is not a card is shown as written, ``invalid``)."""
    code = str(code)
    rank, suit = code[:-1], code[-1:]
    rank = "10" if rank in ("T", "10") else rank
    symbol = SUIT_SYMBOLS.get(suit)
    if symbol is None:  # not a card (INVALID_CARD): shown as written
        return {"code": code, "rank": code, "suit": "?", "red": False, "invalid": True}
    return {"code": code, "rank": rank, "suit": symbol, "red": suit in RED_SUITS, "invalid": False}


def _act(action: Any) -> tuple[str, list[str]]:
    if isinstance(action, dict):
        return str(action.get("act", "?")), [str(p) for p in action.get("declined", [])]
    return str(action), []


def _stake_boxes(log_round: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted((b for b in log_round.get("boxes", []) if b.get("stakes")), key=lambda b: int(b["box"]))


class _Table:
    def __init__(self, log_round: dict[str, Any], box_count: int, card: CardFn) -> None:
        self.card = card
        self.dealer: list[dict[str, Any]] = []
        self.dealer_total: Any = None
        self.boxes: dict[int, dict[str, Any]] = {}
        numbers = {int(b["box"]) for b in log_round.get("boxes", [])}
        for number in range(1, max([box_count, *numbers]) + 1):
            self.boxes[number] = {"number": number, "stakes": [], "hands": [], "insurance": [], "note": ""}
        for b in _stake_boxes(log_round):
            self.boxes[int(b["box"])]["stakes"] = [
                {"player": s.get("player"), "amount": s.get("amount")} for s in b["stakes"]
            ]
        self.steps: list[dict[str, Any]] = []

    def snapshot(
        self, title: str, *, phase: str, drawn: list[str] | None = None, focus: int | None = None
    ) -> dict[str, Any]:
        step = {
            "index": len(self.steps),
            "title": title,
            "phase": phase,
            "focus": focus,
            "drawn": [self.card(c) for c in drawn or []],
            "dealer": copy.deepcopy(self.dealer),
            "dealer_total": self.dealer_total,
            "boxes": copy.deepcopy(list(self.boxes.values())),
            "discrepancies": [],
        }
        self.steps.append(step)
        return step


def round_steps(
    log_round: dict[str, Any],
    report_round: dict[str, Any] | None,
    discrepancies: list[dict[str, Any]],
    *,
    box_count: int = MAX_BOXES,
    card: CardFn = card_face,
) -> list[dict[str, Any]]:
    """The steps of one round, each a full picture of the table (see module doc)."""
    walk = _Walk(log_round, report_round, box_count, card)
    walk.stakes()
    walk.deal()
    walk.insurance()
    walk.play()
    walk.dealer()
    walk.settlement()
    walk.place(discrepancies)
    return walk.table.steps


class _Walk:
    """One round laid out step by step: the shoe read in order, and where each phase's step is."""

    def __init__(
        self, log_round: dict[str, Any], report_round: dict[str, Any] | None, box_count: int, card: CardFn
    ) -> None:
        self.log_round = log_round
        self.report_round = report_round or {"hands": [], "dealer": {"cards": []}, "insurance": []}
        self.card = card
        self.shoe = [str(c) for c in log_round.get("cards", [])]
        self.pos = 0
        self.table = _Table(log_round, box_count, card)
        self.stake_boxes = [int(b["box"]) for b in _stake_boxes(log_round)]
        self.report_hands: dict[int, list[dict[str, Any]]] = {}
        for hand in self.report_round.get("hands", []):
            self.report_hands.setdefault(int(hand["box"]), []).append(hand)
        self.anchors: dict[str, int] = {}
        self.box_steps: dict[int, int] = {}

    def take(self) -> str | None:
        """The next card out of the shoe, None once it is empty."""
        if self.pos >= len(self.shoe):
            return None
        self.pos += 1
        return self.shoe[self.pos - 1]

    def stakes(self) -> None:
        self.anchors["stakes"] = self.table.snapshot("Mises sur les cases", phase="stakes")["index"]

    def deal(self) -> None:
        """The deal: a card to each box, one to the dealer, a second to each box (§3.1)."""
        table, card = self.table, self.card
        for label, to_dealer in (
            ("Première carte à chaque case", False),
            ("Carte du croupier", True),
            ("Seconde carte à chaque case", False),
        ):
            drawn = []
            if to_dealer:
                c = self.take()
                if c is not None:
                    table.dealer.append(card(c))
                    drawn.append(c)
            else:
                for number in self.stake_boxes:
                    c = self.take()
                    if c is None:
                        break
                    box = table.boxes[number]
                    if not box["hands"]:
                        box["hands"].append(
                            {"hand": 0, "cards": [], "total": None, "outcome": None, "nets": []}
                        )
                    box["hands"][0]["cards"].append(card(c))
                    drawn.append(c)
            self.anchors["deal"] = table.snapshot(label, phase="deal", drawn=drawn)["index"]

    def insurance(self) -> None:
        """Insurance, taken once every box has its second card (§3.2)."""
        insurance = self.log_round.get("insurance") or []
        if not insurance:
            return
        for bet in insurance:
            box = self.table.boxes.setdefault(
                int(bet["box"]),
                {"number": int(bet["box"]), "stakes": [], "hands": [], "insurance": [], "note": ""},
            )
            box["insurance"].append({"player": bet.get("player"), "amount": bet.get("amount"), "net": None})
        self.anchors["insurance"] = self.table.snapshot("Assurances", phase="insurance")["index"]

    def play(self) -> None:
        """Each box in play order, each decision in order (§3.3)."""
        actions = self.log_round.get("actions") or {}
        for number in self.stake_boxes:
            box = self.table.boxes[number]
            final = self.report_hands.get(number, [])
            decisions = actions.get(str(number), [])
            for i, action in enumerate(decisions):
                self._decision(number, box, final, action, last=i == len(decisions) - 1)
            if not decisions and final:
                box["hands"] = _final_hands(final, self.card)

    def _decision(
        self, number: int, box: dict[str, Any], final: list[dict[str, Any]], action: Any, *, last: bool
    ) -> None:
        """One decision of a box: the card it draws, and at its last one the box's hands as dealt."""
        act, declined = _act(action)
        drawn = []
        if len(final) <= 1 and act in ("hit", "double") and final:
            already = len(box["hands"][0]["cards"]) if box["hands"] else 0
            if already < len(final[0]["cards"]):
                c = self.take()
                if c is not None:
                    box["hands"][0]["cards"].append(self.card(c))
                    drawn.append(c)
        if last:
            # The box is done: its hands as the engine dealt them (splits included).
            consumed = sum(len(h["cards"]) for h in final) - sum(len(h["cards"]) for h in box["hands"])
            for _ in range(max(consumed, 0)):
                c = self.take()
                if c is not None:
                    drawn.append(c)
            box["hands"] = _final_hands(final, self.card) or box["hands"]
        title = f"Case {number} : {ACTION_LABELS.get(act, act)}"
        if declined:
            title += f" (sans {', '.join(declined)})"
        step = self.table.snapshot(title, phase="play", drawn=drawn, focus=number)
        self.box_steps[number] = step["index"]

    def dealer(self) -> None:
        """The dealer's draw (§3.5)."""
        table, card = self.table, self.card
        dealer = self.report_round.get("dealer") or {"cards": []}
        dealer_cards = [str(c) for c in dealer.get("cards", [])]
        for c in dealer_cards[len(table.dealer) :]:
            took = self.take()
            table.dealer.append(card(took if took is not None else c))
            table.snapshot(f"Le croupier tire {card(c)['rank']}{card(c)['suit']}", phase="dealer", drawn=[c])
        table.dealer_total = dealer.get("total")
        self.anchors["dealer"] = table.snapshot(
            f"Le croupier termine à {dealer.get('total', '—')}"
            if dealer_cards
            else "Le croupier ne joue pas",
            phase="dealer",
        )["index"]

    def settlement(self) -> None:
        """The payments: what the rules give, next to what the table recorded (§3.6)."""
        recorded = _recorded_nets(self.log_round)
        for number, hands in self.report_hands.items():
            self._hand_nets(number, hands, recorded)
        for bet in self.report_round.get("insurance") or []:
            self._insurance_net(bet, recorded)
        table = self.table
        self.anchors["settlement"] = table.snapshot("Paiements", phase="settlement")["index"]
        if self.pos < len(self.shoe):
            table.steps[-1]["drawn"] = [self.card(c) for c in self.shoe[self.pos :]]
            table.steps[-1]["title"] += " — cartes restées hors du jeu"

    def _hand_nets(self, number: int, hands: list[dict[str, Any]], recorded: dict[_RowKey, Any]) -> None:
        by_hand = {h["hand"]: h for h in self.table.boxes[number]["hands"]}
        for h in hands:
            shown = by_hand.get(h["hand"])
            if shown is None:
                continue
            shown["outcome"] = OUTCOME_LABELS.get(str(h.get("outcome")), h.get("outcome"))
            shown["nets"] = [
                {
                    "player": s.get("player"),
                    "amount": s.get("amount"),
                    "net": s.get("net"),
                    "recorded": recorded.get((number, int(h["hand"]), str(s.get("player")), False)),
                }
                for s in h.get("stakes", [])
            ]
            for n in shown["nets"]:
                n["differs"] = _differs(n["net"], n["recorded"])

    def _insurance_net(self, bet: dict[str, Any], recorded: dict[_RowKey, Any]) -> None:
        box = self.table.boxes.get(int(bet["box"]))
        if box is None:
            return
        for shown in box["insurance"]:
            if shown["player"] == bet.get("player"):
                shown["net"] = bet.get("net")
                shown["recorded"] = recorded.get((int(bet["box"]), None, str(bet.get("player")), True))
                shown["differs"] = _differs(shown["net"], shown["recorded"])

    def place(self, discrepancies: list[dict[str, Any]]) -> None:
        """Each discrepancy on the step where it happened, and on its box there."""
        last = len(self.table.steps) - 1
        for d in discrepancies:
            step = self.table.steps[_step_of(d, self.anchors, self.box_steps, last)]
            step["discrepancies"].append(d)
            for box in step["boxes"]:
                if d.get("box") is not None and box["number"] == int(d["box"]):
                    box.setdefault("discrepancies", []).append(d)


#: a recorded settlement row: box, hand (None for insurance), player, insurance or not
_RowKey = tuple[int, int | None, str, bool]


def _recorded_nets(log_round: dict[str, Any]) -> dict[_RowKey, Any]:
    """The nets the table recorded, by row."""
    recorded: dict[_RowKey, Any] = {}
    for row in log_round.get("settlements") or []:
        is_insurance = "insurance_net" in row
        key = (
            int(row["box"]),
            None if is_insurance else int(row.get("hand", 0)),
            str(row.get("player")),
            is_insurance,
        )
        recorded[key] = row.get("insurance_net") if is_insurance else row.get("net")
    return recorded


def _final_hands(final: list[dict[str, Any]], card: CardFn) -> list[dict[str, Any]]:
    """A box's hands as the engine dealt them (splits included), before settlement."""
    return [
        {
            "hand": h["hand"],
            "cards": [card(c) for c in h["cards"]],
            "total": h.get("total"),
            "soft": h.get("soft"),
            "outcome": None,
            "nets": [],
            "doubled": h.get("doubled"),
        }
        for h in final
    ]


def _differs(computed: Any, recorded: Any) -> bool:
    if computed is None or recorded is None:
        return bool(computed != recorded)
    try:
        return Decimal(str(computed)) != Decimal(str(recorded))
    except ArithmeticError:
        return True


def _step_of(d: dict[str, Any], anchors: dict[str, int], box_steps: dict[int, int], last: int) -> int:
    code = d.get("code", "")
    box = d.get("box")
    if code in STAKE_CODES:
        return anchors["stakes"]
    if code in DEAL_CODES:
        return anchors["deal"]
    if code in INSURANCE_CODES:
        return anchors.get("insurance", anchors["deal"])
    if code in PLAY_CODES and box is not None and int(box) in box_steps:
        return box_steps[int(box)]
    if code in SETTLEMENT_CODES:
        return anchors["settlement"]
    if code == "CARDS_SHORT":
        return anchors["dealer"]
    return last


def round_summaries(report: dict[str, Any], discrepancies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One line per round of the report: its number and how many discrepancies it has."""
    counts: dict[Any, int] = {}
    for d in discrepancies:
        counts[d.get("round")] = counts.get(d.get("round"), 0) + 1
    return [
        {
            "position": i + 1,
            "number": r["number"],
            "replayed": r.get("replayed", True),
            "discrepancies": counts.get(r["number"], 0),
        }
        for i, r in enumerate(report.get("rounds", []))
    ]
