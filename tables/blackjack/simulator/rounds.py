"""The simulator's table: a shoe, hands, and rounds dealt and played under the rules
(hand-log.md §3), faults of the play rigged in (see the package docstring)."""

from __future__ import annotations

import random
from typing import Any

from ..cards import CARD_RANK, CARD_VALUE
from ..parse import format_cents
from ..rules import Rules
from .faults import _inj
from .hands import _Hand, _Seats, _Shoe, settle

SEATED = tuple(f"P{i}" for i in range(1, 9))
BEHIND = tuple(f"B{i}" for i in range(1, 9))
NOISE = 0.04


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

    def _seat(self, nboxes: int) -> _Seats:
        rng = self.rng
        rules = self.rules
        boxes = sorted(rng.sample(range(1, 8), nboxes))
        mx = rules.max_boxes_per_player
        if mx is not None and nboxes > mx and rng.random() < 0.2:
            # a lone player, nobody behind: he may hold any number of boxes
            holder = rng.choice(SEATED)
            return [(box, [[holder, self._stake(self.max_c)]]) for box in boxes]
        held: dict[str, int] = {}
        seats: list[tuple[int, str]] = []  # (box, holder)
        for box in boxes:
            choices = [p for p in SEATED if mx is None or held.get(p, 0) < mx]
            holder = rng.choice(choices)
            held[holder] = held.get(holder, 0) + 1
            seats.append((box, holder))
        if rules.single_player_two_boxes and len(held) == 1:
            (holder,) = held
            if held[holder] == 1:
                free = [b for b in range(1, 8) if b not in boxes]
                if mx is None or mx >= 2:
                    seats.append((rng.choice(free), holder))
                else:
                    seats.append((rng.choice(free), next(p for p in SEATED if p != holder)))
                seats.sort()
        out: _Seats = []
        for box, holder in seats:
            stake = self._stake(self.max_c)
            sl: list[list[Any]] = [[holder, stake]]
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
    def round(
        self, number: int, fault: str | None, injected: list[dict[str, Any]], few_cards: bool = False
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        rng = self.rng
        shoe = self.shoe
        nboxes = rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 7))
        nboxes = min(nboxes, self.max_boxes, 3 if few_cards else 7)
        if fault == "CARD_COUNT_EXCEEDED":
            nboxes = 7  # enough cards in the round for every forced extra copy
        seats = self._seats(number, fault, injected, nboxes)
        self._bet_fault(number, fault, injected, seats)
        boxes_log = [
            {"box": box, "stakes": [{"player": p, "amount": format_cents(c)} for p, c in sl]}
            for box, sl in seats
        ]
        script, scripts = self._rig(number, fault, injected, seats)
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
        insurance = self._insurance(seats) if up == 1 else []
        actions: dict[str, list[Any]] = {}
        acted: dict[int, list[int]] = {}
        target_box = seats[0][0]
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
        rd = {
            "number": number,
            "boxes": boxes_log,
            "cards": cards,
            "insurance": insurance,
            "actions": actions,
            "settlements": settle(seats, hands, dealer, insurance),
        }
        meta = {
            "dealer_ace": up == 1,
            "acted": acted,
            "holders": {box: sl[0][0] for box, sl in seats},
            "clean": fault is None,
        }
        return rd, meta

    def _seats(self, number: int, fault: str | None, injected: list[dict[str, Any]], nboxes: int) -> _Seats:
        """The round's boxes and stakes, seated for the seating faults."""
        rng = self.rng
        rules = self.rules
        seats: _Seats
        if fault == "SINGLE_PLAYER_ONE_BOX":
            seats = [(rng.randint(1, 7), [["P1", self._stake(self.max_c)]])]
            injected.append(_inj(fault, number, None, None, "P1"))
        elif fault == "TOO_MANY_BOXES":
            seats = self._too_many_boxes(number, injected)
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
        return seats

    def _too_many_boxes(self, number: int, injected: list[dict[str, Any]]) -> _Seats:
        """P1 over the limit while another player takes part (hand-log.md §3.7)."""
        mx = self.rules.max_boxes_per_player or 1
        form = self.forms["TOO_MANY_BOXES"]
        boxes = sorted(self.rng.sample(range(1, 8), mx + 2 if form == "another box holder" else mx + 1))
        seats: _Seats = [(b, [["P1", self.min_c]]) for b in boxes]
        other = seats[self.rng.randrange(len(seats))][1]
        if form == "another box holder":
            other[0][0] = "P2"
        else:
            other.append(["B1", self.min_c])
        injected.append({**_inj("TOO_MANY_BOXES", number, None, None, "P1"), "form": form})
        return seats

    def _bet_fault(
        self, number: int, fault: str | None, injected: list[dict[str, Any]], seats: _Seats
    ) -> None:
        """A stake faults on the first box: below the minimum, off the unit, above the maximum."""
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

    def _rig(
        self, number: int, fault: str | None, injected: list[dict[str, Any]], seats: _Seats
    ) -> tuple[list[str], dict[int, list[str]]]:
        """Rig the cards for the play faults (a real shoe, reordered): the first box's script,
        and the scripts of other boxes by number."""
        shoe = self.shoe
        nb = len(seats)
        target_box = seats[0][0]
        holder = seats[0][1][0][0]
        if fault == "ILLEGAL_SURRENDER" and self.forms["ILLEGAL_SURRENDER"] != "after a hit":
            # the first box (2, 3) hits; the second (a ten, 6) surrenders after that draw
            shoe.rig(0, lambda c: CARD_VALUE[c] == 2)
            shoe.rig(1, lambda c: CARD_VALUE[c] == 10)
            shoe.rig(nb + 1, lambda c: CARD_VALUE[c] == 3)
            shoe.rig(nb + 2, lambda c: CARD_VALUE[c] == 6)
            holder = seats[1][1][0][0]
            injected.append({**_inj(fault, number, seats[1][0], 0, holder), "form": self.forms[fault]})
            return [], {seats[0][0]: ["hit"], seats[1][0]: ["surrender"]}
        script: list[str] = []
        if fault in ("ILLEGAL_DOUBLE", "ILLEGAL_SPLIT", "ILLEGAL_SURRENDER"):
            shoe.rig(0, lambda c: CARD_VALUE[c] == 2)
            shoe.rig(nb + 1, lambda c: CARD_VALUE[c] == 3)
            script = {
                "ILLEGAL_DOUBLE": ["hit", "double"],
                "ILLEGAL_SPLIT": ["split"],
                "ILLEGAL_SURRENDER": ["hit", "surrender"],
            }[fault]
            injected.append(
                {**_inj(fault, number, target_box, 0, holder), "form": "after a hit"}
                if fault == "ILLEGAL_SURRENDER"
                else _inj(fault, number, target_box, 0, holder)
            )
        elif fault == "ILLEGAL_HIT":
            shoe.rig(0, lambda c: CARD_VALUE[c] == 1)
            shoe.rig(nb + 1, lambda c: CARD_VALUE[c] == 1)
            script = ["split", "rig-ace", "hit"]
            injected.append(_inj(fault, number, target_box, 0, holder))
        elif fault == "TOO_MANY_SPLITS":
            rank = self.rng.choice("2345679")
            shoe.rig(0, lambda c: CARD_RANK[c] == rank)
            shoe.rig(nb + 1, lambda c: CARD_RANK[c] == rank)
            mx = self.rules.max_hands_after_split or 2
            script = ["split"] + ["rig-" + rank, "split"] * (mx - 1)
            injected.append(_inj(fault, number, target_box, 0, holder))
        return script, {}

    def _insurance(self, seats: _Seats) -> list[dict[str, Any]]:
        """Insurance bets against the dealer's ace (some of the stakes that halve to the unit)."""
        insurance = []
        for box, sl in seats:
            for p, c in sl:
                if c % 20 == 0 and c > 0 and self.rng.random() < 0.15:
                    insurance.append({"box": box, "player": p, "amount": format_cents(c // 2)})
        return insurance

    # -- play (hand-log.md §3.3) ----------------------------------------------------------
    def _play_box(
        self, bh: list[_Hand], up: int, acts: list[Any], acted: list[int], script: list[str]
    ) -> None:
        stack = [bh[0]]
        while stack:
            self._play_hand(stack.pop(), bh, stack, up, acts, acted, script)

    def _play_hand(
        self,
        h: _Hand,
        bh: list[_Hand],
        stack: list[_Hand],
        up: int,
        acts: list[Any],
        acted: list[int],
        script: list[str],
    ) -> None:
        """Play hand ``h`` to its end, writing its decisions (a split hand first takes its second card)."""
        while True:
            if len(h.cards) == 1:
                self._rig_second_card(script)
                h.add(self.shoe.draw())
            total, _soft = h.total()
            if h.hard > 21:
                h.state = "bust"
                return
            if h.doubled:
                h.state = "stand"
                return
            if h.split_aces:
                if not self._split_ace(h, bh, stack, acts, acted, script):
                    h.state = "stand"  # any other action ends a split ace (no card)
                    return
                continue
            if len(h.cards) == 2 and total == 21 and not h.split:
                h.state = "blackjack"
                return
            act = script.pop(0) if script else self._decide(h, bh, up)
            declined: list[str] = []
            if act in ("double", "split") and len(h.stakes) > 1:
                declined = [p for p, _ in h.stakes[1:] if self.rng.random() < 0.2]
            acts.append({"act": act, "declined": declined} if declined else act)
            acted.append(h.num)
            if not self._act(h, bh, stack, act, declined):
                return

    def _rig_second_card(self, script: list[str]) -> None:
        """The cards a script wants next (``rig-ace``, ``rig-<rank>``), to the head of the shoe."""
        while script and script[0].startswith("rig-"):
            want = script.pop(0)[4:]
            if want == "ace":
                self.shoe.rig(0, lambda c: CARD_VALUE[c] == 1)
            else:
                self.shoe.rig(0, lambda c, w=want: CARD_RANK[c] == w)

    def _split_ace(
        self,
        h: _Hand,
        bh: list[_Hand],
        stack: list[_Hand],
        acts: list[Any],
        acted: list[int],
        script: list[str],
    ) -> bool:
        """A split ace takes one card; with resplit_aces another ace may split again (True if it does)."""
        if not (self.rules.resplit_aces and CARD_VALUE[h.cards[1]] == 1):
            return False
        if script:
            act = script.pop(0)
        else:
            act = "split" if self._may_split(h, bh) else "stand"
        acts.append(act)
        acted.append(h.num)
        if act == "split":
            self._split(h, bh, stack, None)
            return True
        return False

    def _act(self, h: _Hand, bh: list[_Hand], stack: list[_Hand], act: str, declined: list[str]) -> bool:
        """Carry out a decision on ``h``; True while the hand goes on."""
        if act == "stand":
            h.state = "stand"
            return False
        if act == "hit":
            h.add(self.shoe.draw())
            return True
        if act == "double":
            if len(h.cards) == 2:
                for st in h.stakes:
                    if st is h.stakes[0] or st[0] not in declined:
                        st[1] *= 2
                h.doubled = True
            h.add(self.shoe.draw())  # a double on more cards is replayed as a hit
            return True
        if act == "split":
            if len(h.cards) != 2 or CARD_VALUE[h.cards[0]] != CARD_VALUE[h.cards[1]]:
                h.state = "stand"  # impossible form: replayed as a stand
                return False
            self._split(h, bh, stack, declined)
            return True
        # surrender: of impossible form, replayed as a stand
        h.state = "stand" if len(bh) > 1 or len(h.cards) != 2 else "surrender"
        return False

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
