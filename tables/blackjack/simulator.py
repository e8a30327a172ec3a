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

from .cards import CARD_RANK, CARD_VALUE, DECK
from .parse import cents, format_cents
from .rules import CHANGEABLE, DISCREPANCY_CODES, Rules

PRE_PLAY = (
    "BET_BELOW_MIN",
    "BET_ABOVE_MAX",
    "BET_UNIT",
    "TOO_MANY_BOXES",
    "SINGLE_PLAYER_ONE_BOX",
    "ILLEGAL_DOUBLE",
    "ILLEGAL_SPLIT",
    "ILLEGAL_SURRENDER",
    "ILLEGAL_HIT",
    "TOO_MANY_SPLITS",
    "CARDS_UNUSED",
)
POST_HOC = (
    "INVALID_CARD",
    "CARDS_SHORT",
    "MISSING_DECISION",
    "EXTRA_DECISION",
    "ILLEGAL_INSURANCE",
    "ROUND_NUMBERING",
    "SETTLEMENT_MISMATCH",
    "SETTLEMENT_MISSING",
    "SETTLEMENT_UNKNOWN",
)
SHOE_WIDE = ("DECK_COUNT", "BURN_COUNT", "CUT_CARD_TOO_DEEP", "CUT_CARD_OVERRUN", "CARD_COUNT_EXCEEDED")
INJECTABLE = frozenset(PRE_PLAY + POST_HOC + SHOE_WIDE)
assert INJECTABLE == frozenset(DISCREPANCY_CODES)

#: the forms of a fault (the module docstring); the first is the one a shoe can always carry
FAULT_FORMS: dict[str, tuple[str, ...]] = {
    "ILLEGAL_SURRENDER": ("after a hit", "after a draw at the table"),
    "TOO_MANY_BOXES": ("another box holder", "a player behind"),
}

SEATED = tuple(f"P{i}" for i in range(1, 9))
BEHIND = tuple(f"B{i}" for i in range(1, 9))
NOISE = 0.04


@dataclass
class Simulation:
    """A simulated shoe: its log and the faults injected into it."""

    log: dict[str, Any]
    injected: list[dict[str, Any]] = field(default_factory=list)


class _Hand:
    __slots__ = ("cards", "hard", "ace", "split", "split_aces", "doubled", "state", "stakes", "num")

    def __init__(self, num: int, stakes: list[list[Any]]) -> None:
        self.num = num
        self.cards: list[str] = []
        self.hard = 0
        self.ace = False
        self.split = False
        self.split_aces = False
        self.doubled = False
        self.state = "open"
        self.stakes = stakes

    def add(self, code: str) -> None:
        v = CARD_VALUE[code]
        self.cards.append(code)
        self.hard += v
        if v == 1:
            self.ace = True

    def total(self) -> tuple[int, bool]:
        if self.ace and self.hard <= 11:
            return self.hard + 10, True
        return self.hard, False


class _Shoe:
    """The cards in shoe order and the next one to leave."""

    def __init__(self, cards: list[str]) -> None:
        self.cards = cards
        self.pos = 0

    def draw(self) -> str:
        if self.pos >= len(self.cards):
            raise RuntimeError("shoe exhausted")
        c = self.cards[self.pos]
        self.pos += 1
        return c

    def rig(self, offset: int, pred: Any) -> None:
        """Swap into position ``pos + offset`` the first later card matching ``pred``."""
        i = self.pos + offset
        cards = self.cards
        for j in range(i, len(cards)):
            if pred(cards[j]):
                cards[i], cards[j] = cards[j], cards[i]
                return
        raise ValueError("no card to rig")


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
    decks = 8 if "DECK_COUNT" in faults else 6
    burned = 4 if "BURN_COUNT" in faults else 5
    size = decks * 52
    if "CUT_CARD_TOO_DEEP" in faults:
        cut = size - rng.randint(36, 46)
    else:
        cut = size - rng.randint(60, 100)
    cards = list(DECK) * decks
    rng.shuffle(cards)
    shoe = _Shoe(cards)
    for _ in range(burned):
        shoe.draw()
    min_c = cents(limits[0])
    max_c = cents(limits[1])
    if min_c is None or max_c is None:
        raise ValueError("limits must be amount strings")
    sim = _Sim(rng, rules, shoe, min_c, max_c, max_boxes, forms)
    injected: list[dict[str, Any]] = []
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


def _checked_forms(faults: list[str], forms: dict[str, str] | None) -> dict[str, str]:
    """The faults asked for can be injected, each in the form asked for; a copy of ``forms``."""
    unknown = [f for f in faults if f not in INJECTABLE]
    if unknown:
        raise ValueError(f"cannot inject {unknown}")
    forms = dict(forms or {})
    for code, form in forms.items():
        if form not in FAULT_FORMS.get(code, ()):
            raise ValueError(f"{code} has no form {form!r}")
    return forms


def _house_rules_for(faults: list[str], profile: str, house_rules: dict[str, Any] | None) -> dict[str, Any]:
    """The house rules, with those the faults need to be possible."""
    hr = dict(house_rules or {})
    if "TOO_MANY_SPLITS" in faults and hr.get("max_hands_after_split") is None:
        hr["max_hands_after_split"] = 2
    if "ILLEGAL_HIT" in faults:
        hr["resplit_aces"] = True
    if "TOO_MANY_BOXES" in faults or "SINGLE_PLAYER_ONE_BOX" in faults:
        if profile != "FR":
            raise ValueError("boxes-per-player rules exist only under FR")
        if "TOO_MANY_BOXES" in faults and hr.get("max_boxes_per_player") is None:
            hr["max_boxes_per_player"] = 1
        if "SINGLE_PLAYER_ONE_BOX" in faults:
            hr["single_player_two_boxes"] = True
    bad = [k for k in hr if k not in CHANGEABLE[profile]]
    if bad:
        raise ValueError(f"house rules {bad} cannot be set under {profile}")
    return hr


def _inj(
    code: str, rnd: int | None, box: int | None = None, hand: int | None = None, player: str | None = None
) -> dict[str, Any]:
    return {"code": code, "round": rnd, "box": box, "hand": hand, "player": player}


def _force_extra(shoe: _Shoe, counts: dict[str, int], decks: int) -> str:
    """Put copies of the most-seen card at the head of the shoe (an extra card, FR art. 40)."""
    x = max(sorted(counts), key=lambda c: counts[c])
    need = decks + 1 - counts[x]
    for k in range(need):
        shoe.cards[shoe.pos + k] = x
    return x


def _unfit(
    f: str,
    i: int,
    rounds: list[dict[str, Any]],
    meta: dict[str, Any],
    x_card: str | None,
    x_index: int | None,
) -> bool:
    """Round ``i``, clean, cannot carry fault ``f``."""
    rd = rounds[i]
    if f == "ILLEGAL_INSURANCE" and meta["dealer_ace"]:
        return True
    if f == "MISSING_DECISION" and not any(meta["acted"].values()):
        return True
    if (
        f == "INVALID_CARD"
        and x_card is not None
        and x_index is not None
        and i < x_index
        and rd["cards"][-1] == x_card
    ):
        return True
    return f == "ROUND_NUMBERING" and i == 0 and len(rounds) == 1


def _cards_short(
    rounds: list[dict[str, Any]], metas: list[dict[str, Any]], free: list[int], injected: list[dict[str, Any]]
) -> None:
    """CARDS_SHORT, in the last round only: a card taken out of an earlier round would shift
    the cards out before every later round (and so the cut-card checks)."""
    last = len(rounds) - 1
    if not (metas[last]["fault"] == "CUT_CARD_OVERRUN" or last in free):
        raise ValueError("the last round is not free to inject CARDS_SHORT")
    if last in free:
        free.remove(last)
    rounds[last]["cards"].pop()
    injected.append(_inj("CARDS_SHORT", rounds[last]["number"]))


def _post_hoc(
    rng: random.Random,
    faults: list[str],
    rounds: list[dict[str, Any]],
    metas: list[dict[str, Any]],
    x_card: str | None,
    injected: list[dict[str, Any]],
) -> None:
    """Faults written into a finished, clean round of the log."""
    # CARDS_SHORT first: it needs the last round
    faults = sorted(faults, key=lambda f: f != "CARDS_SHORT")
    free = [i for i, m in enumerate(metas) if m["fault"] is None and m["clean"]]
    rng.shuffle(free)
    x_index = None
    for i, m in enumerate(metas):
        if m["fault"] == "CARD_COUNT_EXCEEDED":
            x_index = i
    for f in faults:
        pick = None
        if f == "CARDS_SHORT":
            _cards_short(rounds, metas, free, injected)
            continue
        for i in free:
            if _unfit(f, i, rounds, metas[i], x_card, x_index):
                continue
            pick = i
            break
        if pick is None:
            raise ValueError(f"not enough clean rounds to inject {f}")
        free.remove(pick)
        rd = rounds[pick]
        meta = metas[pick]
        number = rd["number"]
        if f == "INVALID_CARD":
            idx = len(rd["cards"]) - 1  # the last card: never the forced extra card
            rd["cards"][idx] = "1X"
            injected.append(_inj(f, number))
        elif f == "MISSING_DECISION":
            box = max(b for b, hands in meta["acted"].items() if hands)
            rd["actions"][str(box)].pop()
            injected.append(_inj(f, number, box, meta["acted"][box][-1], meta["holders"][box]))
        elif f == "EXTRA_DECISION":
            box = rd["boxes"][0]["box"]
            rd["actions"].setdefault(str(box), []).append("stand")
            injected.append(_inj(f, number, box, None, meta["holders"][box]))
        elif f == "ILLEGAL_INSURANCE":
            b = rd["boxes"][0]
            stake = b["stakes"][0]
            rd["insurance"].append(
                {
                    "box": b["box"],
                    "player": stake["player"],
                    "amount": format_cents((cents(stake["amount"]) or 0) // 2),
                }
            )
            injected.append(_inj(f, number, b["box"], None, stake["player"]))
        elif f == "ROUND_NUMBERING":
            rd["number"] = number + 1000
            injected.append(_inj(f, number + 1000))
        else:
            rows = [r for r in rd["settlements"] if "net" in r]
            row = rng.choice(rows)
            if f == "SETTLEMENT_MISMATCH":
                row["net"] = format_cents((cents(row["net"]) or 0) + 1000)
                injected.append(_inj(f, number, row["box"], row["hand"], row["player"]))
            elif f == "SETTLEMENT_MISSING":
                rd["settlements"].remove(row)
                injected.append(_inj(f, number, row["box"], row["hand"], row["player"]))
            else:
                rd["settlements"].append({"box": row["box"], "hand": 0, "player": "X99", "net": "10.00"})
                injected.append(_inj(f, number, row["box"], 0, "X99"))


class _Sim:
    """Deals and plays rounds under the rules (hand-log.md §3), writing the log."""

    def __init__(
        self,
        rng: random.Random,
        rules: Rules,
        shoe: _Shoe,
        min_c: int,
        max_c: int,
        max_boxes: int,
        forms: dict[str, str] | None = None,
    ) -> None:
        self.rng = rng
        self.rules = rules
        self.shoe = shoe
        self.min_c = min_c
        self.max_c = max_c
        self.max_boxes = max(1, min(7, max_boxes))
        self.forms = forms or {}
        self.dealt = 0  # shoe position once the round's first deal is done

    # -- seating and stakes (FR art. 55-5 / LU art. 33, house rules) --------------------
    def _stake(self, room: int) -> int:
        unit = max(self.min_c, 10)
        k = self.rng.choice((1, 1, 1, 2, 2, 3, 4, 5, 10, 20))
        c = min(unit * k, max(room, self.min_c))
        return c - c % 10

    def _seat(self, nboxes: int) -> list[tuple[int, list[list[Any]]]]:
        rng = self.rng
        rules = self.rules
        boxes = sorted(rng.sample(range(1, 8), nboxes))
        mx = rules.max_boxes_per_player
        if mx is not None and nboxes > mx and rng.random() < 0.2:
            # a lone player, nobody behind: he may hold any number of boxes
            holder = rng.choice(SEATED)
            return [(box, [[holder, self._stake(self.max_c)]]) for box in boxes]
        held: dict[str, int] = {}
        seats = []
        for box in boxes:
            choices = [p for p in SEATED if mx is None or held.get(p, 0) < mx]
            holder = rng.choice(choices)
            held[holder] = held.get(holder, 0) + 1
            seats.append([box, holder])
        if rules.single_player_two_boxes and len(held) == 1:
            (holder,) = held
            if held[holder] == 1:
                free = [b for b in range(1, 8) if b not in boxes]
                if mx is None or mx >= 2:
                    seats.append([rng.choice(free), holder])
                else:
                    seats.append([rng.choice(free), next(p for p in SEATED if p != holder)])
                seats.sort()
        out = []
        for box, holder in seats:
            stake = self._stake(self.max_c)
            sl = [[holder, stake]]
            room = self.max_c - stake
            if rng.random() < 0.3:
                for b in rng.sample(BEHIND, rng.choice((1, 1, 2))):
                    if room >= self.min_c:
                        s = self._stake(room)
                        sl.append([b, s])
                        room -= s
            out.append((box, sl))
        return out

    # -- one round ------------------------------------------------------------------------
    def round(  # noqa: C901 - TODO split
        self, number: int, fault: str | None, injected: list[dict[str, Any]], few_cards: bool = False
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        rng = self.rng
        rules = self.rules
        shoe = self.shoe
        nboxes = rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 7))
        nboxes = min(nboxes, self.max_boxes, 3 if few_cards else 7)
        if fault == "CARD_COUNT_EXCEEDED":
            nboxes = 7  # enough cards in the round for every forced extra copy
        if fault == "SINGLE_PLAYER_ONE_BOX":
            seats = [(rng.randint(1, 7), [["P1", self._stake(self.max_c)]])]
            injected.append(_inj(fault, number, None, None, "P1"))
        elif fault == "TOO_MANY_BOXES":
            # P1 over the limit while another player takes part (hand-log.md §3.7)
            mx = rules.max_boxes_per_player or 1
            form = self.forms["TOO_MANY_BOXES"]
            boxes = sorted(rng.sample(range(1, 8), mx + 2 if form == "another box holder" else mx + 1))
            seats = [(b, [["P1", self.min_c]]) for b in boxes]
            other = seats[rng.randrange(len(seats))][1]
            if form == "another box holder":
                other[0][0] = "P2"
            else:
                other.append(["B1", self.min_c])
            injected.append({**_inj(fault, number, None, None, "P1"), "form": form})
        elif fault == "ILLEGAL_SURRENDER" and self.forms["ILLEGAL_SURRENDER"] != "after a hit":
            seats = self._seat(max(nboxes, 2))  # an earlier box draws, a later one surrenders
        else:
            seats = self._seat(nboxes)
        if (
            rules.single_player_two_boxes
            and fault != "SINGLE_PLAYER_ONE_BOX"
            and len({sl[0][0] for _, sl in seats}) == 1
            and len(seats) == 1
        ):
            box = seats[0][0]
            seats.append((box % 7 + 1, [["P2", self._stake(self.max_c)]]))
            seats.sort(key=lambda s: s[0])
        target_box = seats[0][0]
        target = seats[0][1]
        if fault == "BET_BELOW_MIN":
            c = max(self.min_c - 100, 0)
            target[0][1] = c - c % 10
            injected.append(_inj(fault, number, target_box, None, target[0][0]))
        elif fault == "BET_UNIT":
            target[0][1] = self.min_c + 5
            del target[1:]
            injected.append(_inj(fault, number, target_box, None, target[0][0]))
        elif fault == "BET_ABOVE_MAX":
            target[0][1] = self.max_c + 1000
            del target[1:]
            injected.append(_inj(fault, number, target_box, None, None))
        boxes_log = [
            {"box": box, "stakes": [{"player": p, "amount": format_cents(c)} for p, c in sl]}
            for box, sl in seats
        ]
        # rig the target box's cards for the play faults (a real shoe, reordered)
        nb = len(seats)
        script: list[str] = []
        scripts: dict[int, list[str]] = {}
        if fault == "ILLEGAL_SURRENDER" and self.forms["ILLEGAL_SURRENDER"] != "after a hit":
            # the first box (2, 3) hits; the second (a ten, 6) surrenders after that draw
            shoe.rig(0, lambda c: CARD_VALUE[c] == 2)
            shoe.rig(1, lambda c: CARD_VALUE[c] == 10)
            shoe.rig(nb + 1, lambda c: CARD_VALUE[c] == 3)
            shoe.rig(nb + 2, lambda c: CARD_VALUE[c] == 6)
            scripts[seats[0][0]] = ["hit"]
            scripts[seats[1][0]] = ["surrender"]
            holder = seats[1][1][0][0]
            injected.append({**_inj(fault, number, seats[1][0], 0, holder), "form": self.forms[fault]})
        elif fault in ("ILLEGAL_DOUBLE", "ILLEGAL_SPLIT", "ILLEGAL_SURRENDER"):
            shoe.rig(0, lambda c: CARD_VALUE[c] == 2)
            shoe.rig(nb + 1, lambda c: CARD_VALUE[c] == 3)
            script = {
                "ILLEGAL_DOUBLE": ["hit", "double"],
                "ILLEGAL_SPLIT": ["split"],
                "ILLEGAL_SURRENDER": ["hit", "surrender"],
            }[fault]
            injected.append(
                {**_inj(fault, number, target_box, 0, target[0][0]), "form": "after a hit"}
                if fault == "ILLEGAL_SURRENDER"
                else _inj(fault, number, target_box, 0, target[0][0])
            )
        elif fault == "ILLEGAL_HIT":
            shoe.rig(0, lambda c: CARD_VALUE[c] == 1)
            shoe.rig(nb + 1, lambda c: CARD_VALUE[c] == 1)
            script = ["split", "rig-ace", "hit"]
            injected.append(_inj(fault, number, target_box, 0, target[0][0]))
        elif fault == "TOO_MANY_SPLITS":
            rank = rng.choice("2345679")
            shoe.rig(0, lambda c: CARD_RANK[c] == rank)
            shoe.rig(nb + 1, lambda c: CARD_RANK[c] == rank)
            mx = rules.max_hands_after_split or 2
            script = ["split"] + ["rig-" + rank, "split"] * (mx - 1)
            injected.append(_inj(fault, number, target_box, 0, target[0][0]))
        hands: list[list[_Hand]] = [[_Hand(0, [list(s) for s in sl])] for _, sl in seats]
        start = shoe.pos
        for bh in hands:
            bh[0].add(shoe.draw())
        dealer = _Hand(0, [])
        dealer.add(shoe.draw())
        for bh in hands:
            bh[0].add(shoe.draw())
        self.dealt = shoe.pos
        up = CARD_VALUE[dealer.cards[0]]
        insurance = []
        if up == 1:
            for box, sl in seats:
                for p, c in sl:
                    if c % 20 == 0 and c > 0 and rng.random() < 0.15:
                        insurance.append({"box": box, "player": p, "amount": format_cents(c // 2)})
        actions: dict[str, list[Any]] = {}
        acted: dict[int, list[int]] = {}
        for (box, _sl), bh in zip(seats, hands, strict=True):
            acts: list[Any] = []
            acted[box] = []
            self._play_box(bh, up, acts, acted[box], scripts.get(box, script if box == target_box else []))
            if acts:
                actions[str(box)] = acts
        on_layout = bool(insurance) or any(h.state not in ("bust", "surrender") for bh in hands for h in bh)
        if on_layout:
            while dealer.total()[0] < 17:
                dealer.add(shoe.draw())
        if fault == "CARDS_UNUSED":
            shoe.draw()
            injected.append(_inj(fault, number))
        cards = shoe.cards[start : shoe.pos]
        settlements = self._settle(seats, hands, dealer, insurance)
        rd = {
            "number": number,
            "boxes": boxes_log,
            "cards": cards,
            "insurance": insurance,
            "actions": actions,
            "settlements": settlements,
        }
        meta = {
            "dealer_ace": up == 1,
            "acted": acted,
            "holders": {box: sl[0][0] for box, sl in seats},
            "clean": fault is None,
        }
        return rd, meta

    # -- play (hand-log.md §3.3) ----------------------------------------------------------
    def _play_box(  # noqa: C901 - TODO split
        self, bh: list[_Hand], up: int, acts: list[Any], acted: list[int], script: list[str]
    ) -> None:
        rules = self.rules
        shoe = self.shoe
        stack = [bh[0]]
        while stack:
            h = stack.pop()
            while True:
                if len(h.cards) == 1:
                    while script and script[0].startswith("rig-"):
                        want = script.pop(0)[4:]
                        if want == "ace":
                            shoe.rig(0, lambda c: CARD_VALUE[c] == 1)
                        else:
                            shoe.rig(0, lambda c, w=want: CARD_RANK[c] == w)
                    h.add(shoe.draw())
                total, soft = h.total()
                if h.hard > 21:
                    h.state = "bust"
                    break
                if h.doubled:
                    h.state = "stand"
                    break
                if h.split_aces:
                    if not (rules.resplit_aces and CARD_VALUE[h.cards[1]] == 1):
                        h.state = "stand"
                        break
                    if script:
                        act = script.pop(0)
                    else:
                        act = "split" if self._may_split(h, bh) else "stand"
                    acts.append(act)
                    acted.append(h.num)
                    if act == "split":
                        self._split(h, bh, stack, None)
                        continue
                    h.state = "stand"  # any other action ends a split ace (no card)
                    break
                if len(h.cards) == 2 and total == 21 and not h.split:
                    h.state = "blackjack"
                    break
                act = script.pop(0) if script else self._decide(h, bh, up)
                declined: list[str] = []
                if act in ("double", "split") and len(h.stakes) > 1:
                    declined = [p for p, _ in h.stakes[1:] if self.rng.random() < 0.2]
                acts.append({"act": act, "declined": declined} if declined else act)
                acted.append(h.num)
                if act == "stand":
                    h.state = "stand"
                    break
                if act == "hit":
                    h.add(shoe.draw())
                elif act == "double":
                    if len(h.cards) == 2:
                        for st in h.stakes:
                            if st is h.stakes[0] or st[0] not in declined:
                                st[1] *= 2
                        h.doubled = True
                    h.add(shoe.draw())  # a double on more cards is replayed as a hit
                elif act == "split":
                    if len(h.cards) != 2 or CARD_VALUE[h.cards[0]] != CARD_VALUE[h.cards[1]]:
                        h.state = "stand"  # impossible form: replayed as a stand
                        break
                    self._split(h, bh, stack, declined)
                else:  # surrender
                    if len(bh) > 1 or len(h.cards) != 2:
                        h.state = "stand"
                        break
                    h.state = "surrender"
                    break

    def _split(self, h: _Hand, bh: list[_Hand], stack: list[_Hand], declined: Any) -> None:
        c0, c1 = h.cards
        new = _Hand(
            len(bh),
            [list(h.stakes[0])] + [list(s) for s in h.stakes[1:] if not declined or s[0] not in declined],
        )
        new.add(c1)
        new.split = True
        new.split_aces = CARD_VALUE[c1] == 1
        h.cards = []
        h.hard = 0
        h.ace = False
        h.add(c0)
        h.split = True
        h.split_aces = CARD_VALUE[c0] == 1
        bh.append(new)
        stack.append(new)

    def _may_split(self, h: _Hand, bh: list[_Hand]) -> bool:
        r = self.rules
        c0, c1 = h.cards
        if len(h.cards) != 2 or CARD_VALUE[c0] != CARD_VALUE[c1]:
            return False
        if r.split_identical_only and CARD_RANK[c0] != CARD_RANK[c1]:
            return False
        return r.max_hands_after_split is None or len(bh) < r.max_hands_after_split

    def _may_double(self, h: _Hand) -> bool:
        r = self.rules
        if len(h.cards) != 2 or (h.split and not r.double_after_split):
            return False
        total, soft = h.total()
        return r.double_totals is None or (not soft and total in r.double_totals)

    def _decide(self, h: _Hand, bh: list[_Hand], up: int) -> str:
        """Basic strategy (dealer stands on soft 17, no hole card), with some noise."""
        rng = self.rng
        rules = self.rules
        total, soft = h.total()
        two = len(h.cards) == 2
        may_double = self._may_double(h)
        may_split = two and self._may_split(h, bh)
        # surrender: offered, unsplit two cards, before any card drawn at the table (FR art. 55-4 1°)
        may_surrender = rules.surrender and two and len(bh) == 1 and self.shoe.pos == self.dealt
        hit_ok = not (rules.hit_on_21_forbidden and total == 21)
        if rng.random() < NOISE:
            options = ["stand"] + (["hit"] if hit_ok and total < 21 else [])
            options += (["double"] if may_double else []) + (["split"] if may_split else [])
            options += ["surrender"] if may_surrender else []
            return rng.choice(options)
        d = 11 if up == 1 else up
        if may_split:
            v = CARD_VALUE[h.cards[0]]
            if (
                v in (1, 8)
                or (v == 9 and d not in (7, 10, 11))
                or (v in (2, 3, 6, 7) and d <= 7)
                or (v == 4 and d in (5, 6))
            ):
                return "split"
        if may_surrender and not soft and ((total == 16 and d >= 9) or (total == 15 and d == 10)):
            return "surrender"
        if soft:
            if total >= 19:
                return "stand"
            if may_double and total <= 18 and d in (4, 5, 6):
                return "double"
            if total == 18 and d <= 8:
                return "stand"
            return "hit"
        if total >= 17:
            return "stand"
        if may_double and (total == 11 or (total == 10 and d <= 9) or (total == 9 and 3 <= d <= 6)):
            return "double"
        if total >= 13 and d <= 6:
            return "stand"
        if total == 12 and 4 <= d <= 6:
            return "stand"
        return "hit"

    # -- settlement (hand-log.md §3.6) ----------------------------------------------------
    def _settle(
        self,
        seats: list[tuple[int, list[list[Any]]]],
        hands: list[list[_Hand]],
        dealer: _Hand,
        insurance: list[dict[str, Any]],
    ) -> list[dict[str, Any]]:
        dt, _ = dealer.total()
        d_bj = len(dealer.cards) == 2 and dt == 21
        rows: list[dict[str, Any]] = []
        for (box, _sl), bh in zip(seats, hands, strict=True):
            for h in sorted(bh, key=lambda x: x.num):
                total, _ = h.total()
                for p, c in h.stakes:
                    if h.state == "bust":
                        net = -c
                    elif h.state == "surrender":
                        net = -_round_half(c)
                    elif h.state == "blackjack":
                        net = 0 if d_bj else _round_half(3 * c)
                    elif d_bj or (dt <= 21 and total < dt):
                        net = -c
                    elif dt > 21 or total > dt:
                        net = c
                    else:
                        net = 0
                    rows.append({"box": box, "hand": h.num, "player": p, "net": format_cents(net)})
        ten = len(dealer.cards) > 1 and CARD_VALUE[dealer.cards[1]] == 10
        for ins in insurance:
            a = cents(ins["amount"]) or 0
            rows.append(
                {
                    "box": ins["box"],
                    "player": ins["player"],
                    "insurance_net": format_cents(2 * a if ten else -a),
                }
            )
        return rows


def _round_half(k: int) -> int:
    """k / 2 to the cent, half away from zero."""
    q, r = divmod(abs(k), 2)
    q += r
    return q if k >= 0 else -q
