"""Replay of a `casino-hand-log/1` shoe (hand-log.md §3) and its report (§5).

Every hand is re-derived from the cards in the order they left the shoe and
the holder's decisions, under the rules of the profile and the house
(FR art. 55-4 / LU art. 32); stakes are checked against the limits
(FR art. 55-5 / LU art. 33) and cards against the shoe (FR art. 40 /
LU art. 7). Each place where the log breaks a rule, or a payment differs from
the one the rules give, is a discrepancy naming its code, round, box, hand,
player and article.

Amounts are integer cents throughout; they become ``"12.50"`` strings only in
the report.

Two paths replay a round (the replay must keep up with 50,000 rounds a second on one
core). The general path (:func:`_round_general`, :func:`_play`,
:func:`_settle`) checks the round's shape (:func:`check_round`) and finds every
discrepancy. The fast path reads a round once, in named steps of few calls
(the round's fields and the dealer in :func:`_replay`, the boxes' stakes, deal
and play in :func:`_fast_play`, the recorded settlement rows in report order in
:func:`_fast_settle`), with locals and no object per hand. It accepts a round only
when the general path would report nothing for it and builds the same report;
at anything else (a discrepancy to come, a row out of order, a ``10H`` card,
an empty box, a malformed field) it raises before touching the shoe's state
and the round goes to the general path. ``tests/tables/blackjack/
test_fast_path.py`` replays altered logs both ways and compares.

Readings of points the spec leaves open (chosen closest to the regulation):

* ``round`` in every discrepancy, and ``number`` in the report, is the round
  number as recorded; ``ROUND_NUMBERING`` adds ``expected`` (the position).
* Order of a round's discrepancies: numbering, cut card, stakes (by box,
  then each stake, then the box maximum), boxes per player, invalid cards,
  card counts, then the replay in the order it meets them (deal, insurance,
  boxes, dealer, boxes without stakes, unused cards), then settlements
  (recorded rows in log order, then missing rows in report order).
  Shoe-wide codes (``DECK_COUNT``, ``BURN_COUNT``, ``CUT_CARD_TOO_DEEP``)
  come first.
* ``CARD_COUNT_EXCEEDED.count`` is the card's count over the shoe at the end
  of the round where it first exceeds ``decks``.
* ``INVALID_CARD`` cites the foreign-card article (FR art. 40, LU art. 7),
  like ``CARD_COUNT_EXCEEDED``; ``BET_UNIT`` cites the limits article
  (FR art. 55-5, LU art. 33).
* At the resplit-aces decision point (split aces take one card each: pairs,
  FR art. 55-4 3°) a ``hit`` or ``double`` is reported under the pairs
  article with reason ``"split aces take one card"``; a ``surrender`` there
  is a surrender after a split (house rules article). All draw no card
  (``replayed_as: "stand"``).
* Settlement rows for insurance cite the insurance article (2°); rows for
  hands cite the payments article (1°). A row for nothing the rules owe
  (``SETTLEMENT_UNKNOWN``) cites the payments article, and carries
  ``"insurance": true`` when it is an insurance row (as the spec's examples do).
* ``TOO_MANY_BOXES`` names the ``boxes`` the player holds; ``BET_UNIT`` and
  ``ILLEGAL_INSURANCE`` name the ``amount`` (as the spec's examples do).
* A round stopped during the first deal lists every box holding stakes with
  the cards it had received (possibly none), and the dealer with his cards so
  far (possibly none, total 0). A round stopped after the deal lists the
  legal insurance bets with a null net.
* ``reason`` strings: a rule that forbids a possible action is named by its
  key (``double_after_split``, ``double_totals``, ``split_identical_only``,
  ``hit_on_21_forbidden``), or ``"not offered"`` for a surrender (or ``"after
  a draw at the table"`` where it is offered but an earlier box drew); an
  impossible form is described (``"more than two cards"``, ``"cards of
  different values"``, ``"after a hit"``, ``"after a split"``) and carries
  ``replayed_as``.
"""

from __future__ import annotations

from collections import _count_elements  # type: ignore[attr-defined]  # C counter
from typing import Any, NamedTuple

from .cards import CANONICAL, CARD_INDEX, CARD_RANK, CARD_VALUE
from .parse import _CENTS, ACTIONS, cents, check_round, format_cents, validate_header
from .rules import CARDS_PER_DECK, STANDARD_BURNED, STANDARD_DECKS, Rules

# hand states
OPEN, STAND, BLACKJACK, BUST, SURRENDER = 0, 1, 2, 3, 4  # STAND and BLACKJACK: on the layout

BOX_KEY = ("0", "1", "2", "3", "4", "5", "6", "7")
SPLIT_ACES_REASON = "split aces take one card"
LATE_SURRENDER = "after a draw at the table"

#: card code -> canonical code (``10H`` -> ``TH``): the shoe's counts are kept by canonical code.
_CANON: dict[str, str] = {code: CANONICAL[k] for code, k in CARD_INDEX.items()}
#: value of the 52 canonical codes only: the fast path leaves ``10H`` to the general one.
_VAL52: dict[str, int] = {code: CARD_VALUE[code] for code in CANONICAL}
#: player ids already seen to be non-empty strings.
_PLAYERS: set[str] = set()
#: (min, max) of a table -> {stake amount: cents} of the amounts well within those limits.
_STAKES: dict[tuple[int, int], dict[str, int]] = {}


_FMT: dict[int, str] = {}


def _fmt(c: int) -> str:
    """Cached cents -> "12.50" (the same few amounts recur on every round)."""
    s = _FMT.get(c)
    if s is None:
        if len(_FMT) > 100_000:
            _FMT.clear()
        s = _FMT[c] = format_cents(c)
    return s


def _half(k: int) -> int:
    """k / 2 rounded to the cent, half away from zero (hand-log.md §6)."""
    if k & 1 == 0:
        return k >> 1
    return (k + 1) // 2 if k > 0 else (k - 1) // 2


class Hand:
    """One hand of a box; ``stakes`` is a list of ``[player, cents]``."""

    __slots__ = ("box", "num", "cards", "hard", "ace", "split", "split_aces", "doubled", "state", "stakes")

    def __init__(self, box: int, num: int, stakes: list[list[Any]]) -> None:
        self.box = box
        self.num = num
        self.cards: list[str] = []
        self.hard = 0
        self.ace = False
        self.split = False
        self.split_aces = False
        self.doubled = False
        self.state = OPEN
        self.stakes = stakes


def _d(
    code: str, rnd: int | None, box: int | None, hand: int | None, player: str | None, art: str, **extra: Any
) -> dict[str, Any]:
    """A discrepancy in the report's key order (§5)."""
    out: dict[str, Any] = {"code": code, "round": rnd, "box": box, "hand": hand, "player": player}
    if extra:
        out.update(extra)
    out["article"] = art
    return out


#: a hand played on the fast path: box, number, cards, hard total, ace, state, doubled, stakes
_HandRow = tuple[int, int, list[str], int, bool, int, bool, Any]

#: the decisions of a box without an actions key
NO_ACTS: tuple[Any, ...] = ()
#: end of the settlement rows
_END = object()


class _Bail(Exception):
    """The fast path met something it leaves to the general replay."""


def replay(doc: Any) -> dict[str, Any]:
    """Validate and replay one log; raises ``Rejected`` if it is malformed.

    The rounds are checked as the replay reaches them: the first fault found,
    and so the rejection, is the one :func:`validate` names.
    """
    return replay_valid(doc, validate_header(doc))


def replay_valid(doc: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """Replay a log whose header :func:`validate_header` (or :func:`validate`) accepted.

    Each round is first tried on a fast path that handles the common case, a
    well-formed round with nothing to report, and gives up (raising inside
    it, before changing any state) at the first sign of anything else. The
    round is then checked (:func:`check_round`, which raises ``Rejected`` on a
    malformed round) and replayed by the general code, which the fast path
    never contradicts: it only accepts what the general code would replay
    without a discrepancy, with the same report.

    Card counts over the shoe are checked once at its end; only a shoe where
    a card did go over ``decks`` is replayed again, checking them round by
    round to report each card in the round where it first went over.
    """
    report = _replay(doc, rules, False)
    if report is None:
        report = _replay(doc, rules, True)
    return report  # type: ignore[return-value]


def _replay(doc: dict[str, Any], rules: Rules, each_round: bool) -> dict[str, Any] | None:
    """The replay; None when, counts checked at the end only, a card went over ``decks``.

    Each round is first read on the fast path: its fields and the dealer here, its boxes' stakes,
    deal and play in :func:`_fast_play`, the settlement in :func:`_fast_settle`. At its first doubt
    the fast path raises, before any state of the shoe changes, and the round is checked
    (:func:`check_round`, which raises ``Rejected`` on a malformed round) and replayed by
    :func:`_round_general`. Its shape checks are only those that JSON values would pass otherwise:
    a list where a dict is expected fails at the first ["key"], a bool is told from an int by
    identity (small ints are shared objects, so `x is pos` holds only for the int itself)."""
    disc = _shoe_checks(doc, rules.articles)
    decks: int = doc["decks"]
    cut: int = doc["cut_card_after"]
    min_c, max_c = _limits(doc["limits"])
    counts: dict[str, int] = {}  # the shoe so far: canonical code -> count (CARD_COUNT_EXCEEDED)
    out: int = doc["burned"]
    per_player = rules.max_boxes_per_player is not None or rules.single_player_two_boxes
    reports: list[dict[str, Any]] = []
    val = _VAL52  # read per shoe: a test empties it, and every round goes to the general path
    known = _stake_table(min_c, max_c)
    limits = (min_c, max_c, known)
    sc_get = known.get
    play = _play_rules(rules)
    shoe = _Shoe(rules, min_c, max_c, cut, decks, counts, set(), per_player, disc, reports, each_round)
    for pos, rd in enumerate(doc["rounds"], 1):
        try:
            if type(rd) is not dict:
                raise _Bail
            boxes = rd["boxes"]
            cards = rd["cards"]
            insurance = rd["insurance"]
            actions = rd["actions"]
            if rd["number"] is not pos or out >= cut or type(insurance) is not list:
                raise _Bail
            dc = cards[len(boxes)]
            res, p, live, no_key = _fast_play(boxes, cards, actions, sc_get, limits, val, play)
            # actions for no box, or not a box; boxes per player
            if len(actions) != len(boxes) - no_key or (per_player and _per_player_fault(rules, boxes)):
                raise _Bail
            legal: Any = ()
            if insurance:  # checked once the deal is complete (3.2)
                legal = _fast_insurance(insurance, val[dc] == 1, boxes)
                live = True
            d_cards = [dc]  # the dealer draws to 17 if a hand is on the layout or an insurance bet open (3.5)
            d_hard = val[dc]
            d_ace = d_hard == 1
            if live:
                while True:
                    if (d_hard + 10 if d_ace and d_hard <= 11 else d_hard) >= 17:
                        break
                    c = cards[p]
                    p += 1
                    v = val[c]
                    d_cards.append(c)
                    d_hard += v
                    if v == 1:
                        d_ace = True
            if p != len(cards):
                raise _Bail
            report = _fast_settle(pos, res, d_cards, d_hard, d_ace, val, rd["settlements"], legal)
        except Exception:
            check_round(pos - 1, rd)
            out = _round_general(pos, rd, out, shoe)
            continue
        # the round is replayed: cards out, counts over the shoe, report
        out += p
        _count_elements(counts, cards)
        if each_round and max(counts.values()) > decks:
            _card_counts(pos, cards, counts, shoe.exceeded, decks, rules.articles, disc)
        reports.append(report)
    if not each_round and counts and max(counts.values()) > decks:
        return None
    return {"shoe_id": doc["shoe_id"], "ok": not disc, "rounds": reports, "discrepancies": disc}


def _shoe_checks(doc: dict[str, Any], arts: dict[str, str]) -> list[dict[str, Any]]:
    """The shoe-wide discrepancies (FR art. 55-4 / LU art. 32 (shoe)): decks, burned cards, cut card."""
    disc: list[dict[str, Any]] = []
    decks: int = doc["decks"]
    burned: int = doc["burned"]
    cut: int = doc["cut_card_after"]
    if decks != STANDARD_DECKS:
        disc.append(
            _d(
                "DECK_COUNT",
                None,
                None,
                None,
                None,
                arts["DECK_COUNT"],
                expected=STANDARD_DECKS,
                recorded=decks,
            )
        )
    if burned != STANDARD_BURNED:
        disc.append(
            _d(
                "BURN_COUNT",
                None,
                None,
                None,
                None,
                arts["BURN_COUNT"],
                expected=STANDARD_BURNED,
                recorded=burned,
            )
        )
    if decks * CARDS_PER_DECK - cut < CARDS_PER_DECK:
        disc.append(
            _d(
                "CUT_CARD_TOO_DEEP",
                None,
                None,
                None,
                None,
                arts["CUT_CARD_TOO_DEEP"],
                cut_card_after=cut,
                cards_behind=decks * CARDS_PER_DECK - cut,
            )
        )
    return disc


def _limits(limits: dict[str, Any]) -> tuple[int, int]:
    """The table's minimum and maximum stake in cents (the header is valid: both are amounts)."""
    min_c = cents(limits["min"])
    max_c = cents(limits["max"])
    assert min_c is not None and max_c is not None
    return min_c, max_c


# ---- the fast path -------------------------------------------------------------------------------
#
# It reads a round once, with locals, in two calls from :func:`_replay` (which reads the round's
# fields and draws the dealer's cards): each box's stakes, first two cards and play
# (:func:`_fast_play`: boxes 1 to 7 listed once each in increasing order, box j holding cards[j]
# and cards[k + 1 + j], the dealer cards[k]; stakes, hits, stands and a plain double read inline,
# a box's other decisions, its splits' hands included, by :func:`_fast_box_rest`), then the
# settlement rows (:func:`_fast_settle`). Any step raises (``_Bail``, or any error a malformed
# value gives) before the shoe's state changes. The steps take their tables as arguments, not in
# an object: locals are the fastest reads. Each call costs (a frame set up and cleared): few
# steps, each as long as the engine's limits allow (80 lines, complexity 20), and in the hot loops
# a comparison is followed by its jump (``if v == 1: ace = True``), which the interpreter runs
# faster than a comparison kept as a value (``ace = ace or v == 1``); docs/development.md has
# what the steps cost against one function.

#: double_after_split, double_totals, split_identical_only, max_hands_after_split, resplit_aces,
#: surrender, hit_on_21_forbidden
_PlayRules = tuple[bool, Any, bool, Any, bool, bool, bool]

#: a decision's result on the fast path besides the hand's states: the hand is played again from
#: its first decision point (a split ace)
_AGAIN = -2
#: the state of a box :func:`_fast_box_rest` played, its rows already kept
_PLAYED = -3


def _stake_table(min_c: int, max_c: int) -> dict[str, int]:
    """The stake amounts already met at a table with these limits -> cents (those within the
    limits and in units of 0.10)."""
    known = _STAKES.get((min_c, max_c))
    if known is None:
        if len(_STAKES) > 64:
            _STAKES.clear()
        known = _STAKES[(min_c, max_c)] = {}
    return known


def _play_rules(rules: Rules) -> _PlayRules:
    return (
        rules.double_after_split,
        rules.double_totals,
        rules.split_identical_only,
        rules.max_hands_after_split,
        rules.resplit_aces,
        rules.surrender,
        rules.hit_on_21_forbidden,
    )


def _fast_play(
    boxes: Any, cards: list[str], actions: Any, sc_get: Any, limits: Any, val: Any, play: Any
) -> tuple[list[_HandRow], int, bool, int]:
    """Fast path: each box's stakes, deal and plain decisions (3.1, 3.3); see the comment above."""
    k1 = len(boxes) + 1
    p = dealt = k1 + k1 - 1  # cards out once the first deal is done
    res: list[_HandRow] = []
    actions_get, hit21, dtotals = actions.get, play[6], play[1]
    prev = no_key = j = 0
    live = False  # a hand on the layout
    for b in boxes:
        box, bets = b["box"], b["stakes"]
        if box <= prev or type(box) is not int:  # over 7: BOX_KEY[box] fails
            raise _Bail
        prev = box
        if len(bets) == 1 and (pl := (s := bets[0])["player"]) in _PLAYERS and (cs := sc_get(s["amount"])):
            st = [(pl, cs)]
        else:  # players behind, or a player or an amount not met yet: every check
            st, total = [], 0
            for s in bets:
                cs = sc_get(s["amount"])
                cs = cs if cs is not None else _stake_cents(s["amount"], *limits)
                if (pl := s["player"]) not in _PLAYERS:
                    _player(pl)
                total += cs
                st.append((pl, cs))
            if not st or total > limits[1] or len(dict(st)) != len(st):  # no stakes: general path
                raise _Bail
        acts = actions_get(BOX_KEY[box], NO_ACTS)
        c1, c2 = cards[j], cards[k1 + j]
        j += 1
        hard = (v1 := val[c1]) + (v2 := val[c2])
        hc, ace = [c1, c2], v1 == 1 or v2 == 1
        if hard == 11 and ace:  # blackjack: no decision is read
            no_key += _fast_blackjack(acts, res, box, hc, st)
            live = True
            continue
        doubled, ai = False, 0
        while True:  # the box's first hand, unsplit: its decisions
            a = acts[ai]
            ai += 1
            if a == "hit":
                if hit21 and (hard == 21 or (hard == 11 and ace)):
                    raise _Bail
                c = cards[p]
                p += 1
                v = val[c]
                hc.append(c)
                hard += v
                if hard > 21:
                    state = BUST
                    break
                if v == 1:
                    ace = True
                continue
            if a == "stand":
                state = STAND
                break
            if a == "double":  # on two cards, at the totals allowed
                if len(hc) != 2 or (dtotals is not None and (ace or hard not in dtotals)):
                    raise _Bail
                st = [(st[0][0], 2 * st[0][1])] if len(st) == 1 else _double_stakes(st, None)
                c = cards[p]
                p += 1
                v = val[c]
                hc.append(c)
                hard += v
                doubled, ace = True, ace or v == 1
                state = BUST if hard > 21 else STAND
                break
            p, ai, live = _fast_box_rest(box, hc, hard, ace, st, acts, ai, cards, p, dealt, play, res, live)
            state = _PLAYED
            break
        if state != _PLAYED:
            res.append((box, 0, hc, hard, ace, state, doubled, st))
            if state <= BLACKJACK:
                live = True
        if ai != len(acts):
            raise _Bail
    return res, p, live, no_key


def _fast_box_rest(
    box: int,
    hc: list[str],
    hard: int,
    ace: bool,
    st: Any,
    acts: Any,
    ai: int,
    cards: list[str],
    p: int,
    dealt: int,
    play: _PlayRules,
    res: list[_HandRow],
    live: bool,
) -> tuple[int, int, bool]:
    """Fast path: a box from its first decision that is not a plain hit, stand or double (the one
    before ``ai``) to its end, the hands its splits make included (their rows join ``res``, in
    number order); raises unless each decision is legal. Returns the cards out, the box's
    decisions read, and whether a hand is on the layout."""
    das, dtotals, offered, hit21 = play[0], play[1], play[5], play[6]
    val, ai, num, fv, doubled, state = _VAL52, ai - 1, 0, 0, False, OPEN
    created = 1  # the box's hands so far (more than one: it has split)
    stack: list[tuple[int, str, int, Any]] = []  # split hands waiting for their second card
    while True:  # the box's hands, each to its end (fv: the value of the hand's first card)
        if fv == 1:  # a split ace
            state, hc, hard, ai, p, created = _fast_split_ace(
                acts, ai, hc, hard, st, stack, created, cards, p, play
            )
        while state == OPEN:  # the hand's decisions
            a, ai, declined = acts[ai], ai + 1, None
            if type(a) is not str:
                a, declined = _act(a)
            if a == "stand":
                state = STAND
            elif a == "hit":
                if hit21 and (hard == 21 or (hard == 11 and ace)):
                    raise _Bail
                c = cards[p]
                p += 1
                v = val[c]
                hc.append(c)
                hard += v
                ace = ace or v == 1
                state = BUST if hard > 21 else OPEN
            elif a == "double":
                if (
                    len(hc) != 2
                    or (created > 1 and not das)
                    or (dtotals is not None and (ace or hard not in dtotals))
                ):
                    raise _Bail
                st = [(st[0][0], 2 * st[0][1])] if len(st) == 1 else _double_stakes(st, declined)
                c = cards[p]
                p += 1
                v = val[c]
                hc.append(c)
                hard += v
                ace = ace or v == 1
                doubled, state = True, BUST if hard > 21 else STAND
            elif a == "split":
                state, hc, hard, ace, p, created, fv = _fast_split(
                    hc, st, declined, stack, created, cards, p, play
                )
            elif a != "surrender" or not offered or created > 1 or len(hc) != 2 or p != dealt:
                raise _Bail  # a surrender: offered, on an unsplit two-card hand, before any draw at the table
            else:
                state = SURRENDER
        if state == _AGAIN:
            continue
        res.append((box, num, hc, hard, ace, state, doubled, st))
        live = live or state <= BLACKJACK
        if not stack:  # every hand of the box played: their rows in number order
            if created > 1:
                res[-created:] = sorted(res[-created:], key=_num_of_row)
            return p, ai, live
        num, c0, fv, st = stack.pop()  # the next split hand receives its second card
        c = cards[p]
        p += 1
        v = val[c]
        hc, hard, ace, doubled, state = [c0, c], fv + v, fv == 1 or v == 1, False, OPEN


def _fast_split(
    hc: list[str],
    st: Any,
    declined: Any,
    stack: list[tuple[int, str, int, Any]],
    created: int,
    cards: list[str],
    p: int,
    play: _PlayRules,
) -> tuple[int, list[str], int, bool, int, int, int]:
    """Fast path: a legal split of a pair; the first hand receives its second card (played on, or
    again from the start when it is a split ace). Returns state, cards, hard total, ace, the cards
    out, the box's hands, the value of the hand's first card."""
    if len(hc) != 2:
        raise _Bail
    val, identical, maxh = _VAL52, play[2], play[3]
    c0, c1 = hc
    fv = val[c0]
    if (
        fv != val[c1]
        or (identical and CARD_RANK[c0] != CARD_RANK[c1])
        or (maxh is not None and created >= maxh)
    ):
        raise _Bail
    stack.append((created, c1, fv, _split_stakes(st, declined)))
    c = cards[p]
    v = val[c]
    return (_AGAIN if fv == 1 else OPEN), [c0, c], fv + v, fv == 1 or v == 1, p + 1, created + 1, fv


def _fast_split_ace(
    acts: Any,
    ai: int,
    hc: list[str],
    hard: int,
    st: Any,
    stack: list[tuple[int, str, int, Any]],
    created: int,
    cards: list[str],
    p: int,
    play: _PlayRules,
) -> tuple[int, list[str], int, int, int, int]:
    """Fast path: a split ace takes one card (a stand); with resplit_aces an ace may split again
    (_AGAIN: the ace's new hand is played again). Returns state, cards, hard total, the next
    decision, the cards out, the box's hands."""
    val = _VAL52
    if not (play[4] and val[hc[1]] == 1):
        return STAND, hc, hard, ai, p, created
    a = acts[ai]
    ai += 1
    declined = None
    if type(a) is not str:
        a, declined = _act(a)
    if a == "stand":
        return STAND, hc, hard, ai, p, created
    maxh = play[3]
    if a != "split" or (maxh is not None and created >= maxh):
        raise _Bail
    stack.append((created, hc[1], 1, _split_stakes(st, declined)))
    c = cards[p]
    return _AGAIN, [hc[0], c], 1 + val[c], ai, p + 1, created + 1


def _fast_blackjack(acts: Any, res: list[_HandRow], box: int, hc: list[str], st: Any) -> int:
    """Fast path: a blackjack, which reads no decision: its hand is played; 1 when its box has no
    actions key, else 0 (an empty list), or it raises."""
    if acts is not NO_ACTS and (type(acts) is not list or acts):
        raise _Bail
    res.append((box, 0, hc, 11, True, BLACKJACK, False, st))
    return 1 if acts is NO_ACTS else 0


def _fast_settle(
    number: int,
    res: list[_HandRow],
    d_cards: list[str],
    d_hard: int,
    d_ace: bool,
    val: dict[str, int],
    rows: Any,
    legal: Any,
) -> dict[str, Any]:
    """Fast path: the round's report, each net (stake * num2 / 2, stakes in units of 0.10) the next
    recorded row's, in report order (3.6)."""
    d_soft = d_ace and d_hard <= 11
    dt = d_hard + 10 if d_soft else d_hard
    d_bj = d_soft and d_hard == 11 and len(d_cards) == 2
    rows_left = iter(rows)
    next_row = rows_left.__next__  # fewer rows than settlements: StopIteration
    fget, fmt, hands = _FMT.get, _fmt, []
    for box, num, hc, hard, ace, state, doubled, st in res:
        soft = ace and hard <= 11
        total = hard + 10 if soft else hard
        if state == STAND:
            outcome, num2 = (
                ("lose", -2)
                if d_bj
                else ("win", 2)
                if dt > 21 or total > dt
                else ("push", 0)
                if total == dt
                else ("lose", -2)
            )
        elif state == BUST:
            outcome, num2 = "bust", -2
        elif state == BLACKJACK:
            outcome, num2 = ("push", 0) if d_bj else ("blackjack", 3)
        else:
            outcome, num2 = "surrender", -1
        if len(st) == 1:  # the box holder's stake alone
            pl, c = st[0]
            net = c * num2 >> 1
            ns = fget(net) or fmt(net)
            row = next_row()
            if row["box"] is not box or row["hand"] is not num or row["player"] != pl or len(row) != 4:
                raise _Bail
            if (rn := row["net"]) != ns and cents(rn) != net:
                raise _Bail
            st_out = [{"player": pl, "amount": fget(c) or fmt(c), "net": ns}]
        else:  # players behind
            st_out = []
            for pl, c in st:
                net = c * num2 >> 1
                ns = fget(net) or fmt(net)
                row = next_row()
                if row["box"] is not box or row["hand"] is not num or row["player"] != pl or len(row) != 4:
                    raise _Bail
                if (rn := row["net"]) != ns and cents(rn) != net:
                    raise _Bail
                st_out.append({"player": pl, "amount": fget(c) or fmt(c), "net": ns})
        hands.append(
            {
                "box": box,
                "hand": num,
                "cards": hc,
                "total": total,
                "soft": soft,
                "blackjack": state is BLACKJACK,  # a state is one of the constants above
                "doubled": doubled,
                "outcome": outcome,
                "stakes": st_out,
            }
        )
    ins_out = _fast_insurance_settled(legal, next_row, val[d_cards[1]] == 10) if legal else []
    if next(rows_left, _END) is not _END:  # more rows than settlements
        raise _Bail
    dealer = {"cards": d_cards, "total": dt, "soft": d_soft, "blackjack": d_bj}
    return {"number": number, "replayed": True, "dealer": dealer, "hands": hands, "insurance": ins_out}


def _fast_insurance_settled(legal: Any, next_row: Any, ten: bool) -> list[dict[str, Any]]:
    """Fast path: each insurance bet's net (2:1 when the dealer's second card is a ten) against
    the next recorded row."""
    ins_out = []
    for b, pl, a in legal:
        net = 2 * a if ten else -a
        ns = _fmt(net)
        row = next_row()
        rn = row["insurance_net"]
        if row["box"] is not b or row["player"] != pl or len(row) != 3 or (rn != ns and cents(rn) != net):
            raise _Bail
        ins_out.append({"box": b, "player": pl, "amount": _fmt(a), "net": ns})
    return ins_out


def _amount(a: Any) -> int:
    """Cents of an amount missing from the cache; _Bail when it is not an amount."""
    c = cents(a)
    if c is None:
        raise _Bail
    return c


def _player(pl: Any) -> None:
    """A player id not met before: a non-empty string joins ``_PLAYERS``, anything else _Bail."""
    if type(pl) is not str or not pl:
        raise _Bail
    if len(_PLAYERS) > 100_000:
        _PLAYERS.clear()
    _PLAYERS.add(pl)


def _stake_cents(a: Any, min_c: int, max_c: int, known: dict[str, int]) -> int:
    """Cents of a stake amount not yet met in this shoe; _Bail unless it is an amount
    within the limits and in units of 0.10 (the shoe's ``known`` amounts are all such)."""
    c = cents(a)
    if c is None or c < min_c or c > max_c or c % 10:
        raise _Bail
    if len(known) < 1024:
        known[a] = c
    return c


def _per_player_fault(rules: Rules, boxes: list[dict[str, Any]]) -> bool:
    """Fast path: would TOO_MANY_BOXES or SINGLE_PLAYER_ONE_BOX be reported?"""
    held: dict[str, int] = {}
    behind = False  # a stake behind a box: its player takes part (but holds no box)
    for b in boxes:
        stakes = b["stakes"]
        holder = stakes[0]["player"]
        held[holder] = held.get(holder, 0) + 1
        if len(stakes) > 1:
            behind = True
    mx = rules.max_boxes_per_player
    if mx is not None and max(held.values()) > mx and (len(held) > 1 or behind):
        return True
    return rules.single_player_two_boxes and len(boxes) == 1


def _fast_insurance(
    insurance: list[Any], dealer_ace: bool, boxes: list[dict[str, Any]]
) -> list[tuple[int, str, int]]:
    """Fast path: the insurance bets, each legal (exactly half a stake, dealer ace), or _Bail."""
    if not dealer_ace:
        raise _Bail
    legal: list[tuple[int, str, int]] = []
    for ins in insurance:
        if type(ins) is not dict:
            raise _Bail
        box = ins["box"]
        player = ins["player"]
        a = ins["amount"]
        if type(box) is not int or type(player) is not str or not player or type(a) is not str:
            raise _Bail
        amount = _CENTS.get(a)
        if amount is None:
            amount = _amount(a)
        stake = None
        for b in boxes:
            if b["box"] == box:
                for s in b["stakes"]:
                    if s["player"] == player:
                        stake = cents(s["amount"])
                break
        if stake is None or 2 * amount != stake:
            raise _Bail
        for b_, pl, _a in legal:
            if b_ == box and pl == player:
                raise _Bail
        legal.append((box, player, amount))
    return legal


def _act(a: Any) -> tuple[str, Any]:
    """Fast path: an action object's act and declined list, or _Bail when malformed."""
    if type(a) is not dict:
        raise _Bail
    act = a.get("act")
    if type(act) is not str or act not in ACTIONS:
        raise _Bail
    if "declined" not in a:
        return act, None
    declined = a["declined"]
    if type(declined) is not list:
        raise _Bail
    for name in declined:
        if type(name) is not str:
            raise _Bail
    return act, declined


def _double_stakes(st: list[tuple[str, int]], declined: Any) -> list[tuple[str, int]]:
    """Each stake doubles: the holder's, and those of players behind who did not decline."""
    holder, c0 = st[0]
    out = [(holder, 2 * c0)]
    for pl, c in st[1:]:
        out.append((pl, c) if declined and pl in declined else (pl, 2 * c))
    return out


def _split_stakes(st: list[tuple[str, int]], declined: Any) -> list[tuple[str, int]]:
    """The new hand's stakes: the holder's, and those of players behind who did not decline."""
    if len(st) == 1 or not declined:
        return st
    return [st[0], *(s for s in st[1:] if s[0] not in declined)]


def _num_of_row(row: _HandRow) -> int:
    return row[1]


class _Shoe(NamedTuple):
    """What the general replay of a round reads and adds to: the shoe's rules, limits and state."""

    rules: Rules
    min_c: int
    max_c: int
    cut: int
    decks: int
    counts: dict[str, int]
    exceeded: set[str]
    per_player: bool
    disc: list[dict[str, Any]]
    reports: list[dict[str, Any]]
    each_round: bool


def _round_general(number_pos: int, rd: dict[str, Any], out: int, shoe: _Shoe) -> int:
    """Replay one well-formed round with every check; return the cards out after it."""
    rules, min_c, max_c, cut, decks, counts, exceeded, per_player, disc, reports, each_round = shoe
    arts = rules.articles
    number = rd["number"]
    _round_place(number, number_pos, out, cut, arts, disc)
    cards: list[str] = rd["cards"]
    playing = _stakes(rd["boxes"], number, min_c, max_c, arts, disc)
    if per_player:
        _boxes_per_player(rules, number, playing, disc)
    # cards: foreign codes, and counts over the shoe (FR art. 40 / LU art. 7)
    vals = _card_values(number, cards, counts, arts, disc)
    if each_round and max(counts.values(), default=0) > decks:
        _card_counts(number, cards, counts, exceeded, decks, arts, disc)
    if vals is None:
        reports.append({"number": number, "replayed": False, "dealer": None, "hands": [], "insurance": []})
    else:
        reports.append(_play(rd, number, rules, disc, cards, vals, playing))
    return out + len(cards)


def _round_place(
    number: int, pos: int, out: int, cut: int, arts: dict[str, str], disc: list[dict[str, Any]]
) -> None:
    """The round's place in the shoe: its number (ROUND_NUMBERING), dealt before the cut card."""
    if number != pos:
        disc.append(_d("ROUND_NUMBERING", number, None, None, None, arts["ROUND_NUMBERING"], expected=pos))
    if out >= cut:
        disc.append(
            _d(
                "CUT_CARD_OVERRUN",
                number,
                None,
                None,
                None,
                arts["CUT_CARD_OVERRUN"],
                cards_out=out,
                cut_card_after=cut,
            )
        )


def _stakes(
    boxes: list[dict[str, Any]],
    number: int,
    min_c: int,
    max_c: int,
    arts: dict[str, str],
    disc: list[dict[str, Any]],
) -> list[tuple[int, list[list[Any]]]]:
    """Stakes against the limits (FR art. 55-5 / LU art. 33): the boxes holding stakes, in
    increasing box number, each with its ``[player, cents]`` stakes."""
    playing: list[tuple[int, list[list[Any]]]] = []
    for b in boxes:
        stakes = b["stakes"]
        if not stakes:
            continue
        box = b["box"]
        sl = []
        total = 0
        for s in stakes:
            c = cents(s["amount"])
            assert c is not None
            if c < min_c:
                disc.append(
                    _d(
                        "BET_BELOW_MIN",
                        number,
                        box,
                        None,
                        s["player"],
                        arts["BET_BELOW_MIN"],
                        recorded=_fmt(c),
                        min=_fmt(min_c),
                    )
                )
            if c % 10:
                disc.append(_d("BET_UNIT", number, box, None, s["player"], arts["BET_UNIT"], amount=_fmt(c)))
            total += c
            sl.append([s["player"], c])
        if total > max_c:
            disc.append(
                _d(
                    "BET_ABOVE_MAX",
                    number,
                    box,
                    None,
                    None,
                    arts["BET_ABOVE_MAX"],
                    recorded=_fmt(total),
                    max=_fmt(max_c),
                )
            )
        playing.append((box, sl))
    if len(playing) > 1:
        playing.sort(key=_box_of)
    return playing


def _card_values(
    number: int, cards: list[str], counts: dict[str, int], arts: dict[str, str], disc: list[dict[str, Any]]
) -> list[int] | None:
    """The round's cards counted over the shoe, and their values; None when a code is no card
    (INVALID_CARD for each: the round is not replayed)."""
    canon = _CANON
    try:
        vals = [CARD_VALUE[c] for c in cards]
    except KeyError:
        _invalid_cards(number, cards, arts, disc)
        _count_elements(counts, [canon[c] for c in cards if c in canon])
        return None
    _count_elements(counts, [canon[c] for c in cards])
    return vals


def _invalid_cards(number: int, cards: list[str], arts: dict[str, str], disc: list[dict[str, Any]]) -> None:
    """INVALID_CARD for each code that is not a card."""
    for i, code in enumerate(cards):
        if code not in CARD_VALUE:
            disc.append(
                _d("INVALID_CARD", number, None, None, None, arts["INVALID_CARD"], card=code, index=i)
            )


def _card_counts(
    number: int,
    cards: list[str],
    counts: dict[str, int],
    exceeded: set[str],
    decks: int,
    arts: dict[str, str],
    disc: list[dict[str, Any]],
) -> None:
    """CARD_COUNT_EXCEEDED once per card, in the round where it first goes over ``decks``.

    ``counts`` already includes this round; walk the round's cards from the
    counts before it to report the cards in the order they crossed.
    """
    canon = [_CANON[c] for c in cards if c in _CANON]
    before = dict(counts)
    for k in canon:
        before[k] -= 1
    fresh = []
    for k in canon:
        before[k] += 1
        if before[k] > decks and k not in exceeded:
            exceeded.add(k)
            fresh.append(k)
    for k in fresh:
        disc.append(
            _d(
                "CARD_COUNT_EXCEEDED",
                number,
                None,
                None,
                None,
                arts["CARD_COUNT_EXCEEDED"],
                card=k,
                count=counts[k],
                decks=decks,
            )
        )


def _box_of(item: tuple[int, Any]) -> int:
    return item[0]


def _boxes_per_player(
    rules: Rules, number: int, playing: list[tuple[int, list[list[Any]]]], disc: list[dict[str, Any]]
) -> None:
    """House rules on boxes per player (FR art. 55-4 (house rules)).

    Only box holders (the first stake of a box) hold boxes. ``max_boxes_per_player``
    holds only when another player takes part in the round, holding a box or
    betting behind (FR art. 55-4 1°: "dès lors que d'autres joueurs souhaitent
    participer au jeu"): a lone player may hold any number.
    """
    held: dict[str, list[int]] = {}
    for box, sl in playing:
        holder = sl[0][0]
        if holder in held:
            held[holder].append(box)
        else:
            held[holder] = [box]
    mx = rules.max_boxes_per_player
    if mx is not None and _others_take_part(held, playing):
        for player, boxes in held.items():
            if len(boxes) > mx:
                disc.append(
                    _d(
                        "TOO_MANY_BOXES",
                        number,
                        None,
                        None,
                        player,
                        rules.articles["TOO_MANY_BOXES"],
                        boxes=boxes,
                        max_boxes=mx,
                    )
                )
    if rules.single_player_two_boxes and len(held) == 1:
        for player, boxes in held.items():
            if len(boxes) == 1:
                disc.append(
                    _d(
                        "SINGLE_PLAYER_ONE_BOX",
                        number,
                        None,
                        None,
                        player,
                        rules.articles["SINGLE_PLAYER_ONE_BOX"],
                    )
                )


def _others_take_part(held: dict[str, Any], playing: list[tuple[int, list[list[Any]]]]) -> bool:
    """More than one player in the round: two box holders, or anyone betting behind another."""
    if len(held) != 1:
        return len(held) > 1
    (holder,) = held
    return any(st[0] != holder for _box, sl in playing for st in sl)


def _dealer_dict(d_cards: list[str], d_hard: int, d_ace: bool) -> dict[str, Any]:
    soft = d_ace and d_hard <= 11
    return {
        "cards": d_cards,
        "total": d_hard + 10 if soft else d_hard,
        "soft": soft,
        "blackjack": len(d_cards) == 2 and soft and d_hard == 11,
    }


def _stopped(
    number: int,
    d_cards: list[str],
    d_hard: int,
    d_ace: bool,
    boxes: list[list[Hand]],
    legal: list[tuple[int, str, int]],
) -> dict[str, Any]:
    """Report of a round whose replay stopped: what was known, nets null (§6)."""
    hands = []
    for bh in boxes:
        for h in bh:
            soft = h.ace and h.hard <= 11
            hands.append(
                {
                    "box": h.box,
                    "hand": h.num,
                    "cards": h.cards,
                    "total": h.hard + 10 if soft else h.hard,
                    "soft": soft,
                    "blackjack": False,
                    "doubled": h.doubled,
                    "outcome": None,
                    "stakes": [{"player": p, "amount": _fmt(c), "net": None} for p, c in h.stakes],
                }
            )
    return {
        "number": number,
        "replayed": False,
        "dealer": _dealer_dict(d_cards, d_hard, d_ace),
        "hands": hands,
        "insurance": [{"box": b, "player": p, "amount": _fmt(a), "net": None} for b, p, a in legal],
    }


class _Stop(Exception):
    """The replay of a round stops (cards short, a decision missing): its report has null nets (§6)."""


class _Round:
    """The general replay of one round: the cards left in the shoe, the boxes, the dealer (§3.1–§3.5).

    Where the replay cannot go on, the discrepancy is noted and :class:`_Stop` raised.
    """

    __slots__ = (
        "number",
        "rules",
        "arts",
        "disc",
        "cards",
        "vals",
        "n",
        "p",
        "dealt",
        "boxes",
        "d_cards",
        "d_hard",
        "d_ace",
        "legal",
        "holder",
        "acts",
        "ai",
    )

    def __init__(
        self,
        number: int,
        rules: Rules,
        disc: list[dict[str, Any]],
        cards: list[str],
        vals: list[int],
        playing: list[tuple[int, list[list[Any]]]],
    ) -> None:
        self.number = number
        self.rules = rules
        self.arts = rules.articles
        self.disc = disc
        self.cards = cards
        self.vals = vals
        self.n = len(cards)
        self.p = 0  # cards drawn so far
        self.dealt = 0  # cards of the first deal: a card drawn after these is a draw at the table
        self.boxes: list[list[Hand]] = [[Hand(box, 0, sl)] for box, sl in playing]
        self.d_cards: list[str] = []
        self.d_hard = 0
        self.d_ace = False
        self.legal: list[tuple[int, str, int]] = []
        # the box being played: its holder, its decisions, the next one
        self.holder = ""
        self.acts: Any = NO_ACTS
        self.ai = 0

    def short(self) -> _Stop:
        """CARDS_SHORT: the shoe gave no more cards; the stop to raise."""
        self.disc.append(_d("CARDS_SHORT", self.number, None, None, None, self.arts["CARDS_SHORT"]))
        return _Stop()

    def draw(self, h: Hand) -> None:
        """The next card to hand ``h`` (the one call per card of the general path)."""
        p = self.p
        if p >= self.n:
            raise self.short()
        self.p = p + 1
        v = self.vals[p]
        h.cards.append(self.cards[p])
        h.hard += v
        if v == 1:
            h.ace = True

    def draw_dealer(self) -> None:
        """The next card to the dealer."""
        p = self.p
        if p >= self.n:
            raise self.short()
        self.p = p + 1
        v = self.vals[p]
        self.d_cards.append(self.cards[p])
        self.d_hard += v
        if v == 1:
            self.d_ace = True

    def deal(self) -> None:
        """3.1 dealing order: a card to each box, one to the dealer, a second to each box."""
        for bh in self.boxes:
            self.draw(bh[0])
        self.draw_dealer()
        for bh in self.boxes:
            self.draw(bh[0])
        self.dealt = self.p

    def flag(self, code: str, h: Hand, art: str, **extra: Any) -> None:
        """A discrepancy of hand ``h`` of the box being played."""
        self.disc.append(_d(code, self.number, h.box, h.num, self.holder, art, **extra))

    def play(self, actions: dict[str, Any]) -> int:
        """3.3 playing the boxes, in increasing box number; the action keys of boxes holding stakes."""
        matched = 0
        for bh in self.boxes:
            h0 = bh[0]
            self.holder = h0.stakes[0][0]
            acts = actions.get(BOX_KEY[h0.box])
            if acts is None:
                acts = NO_ACTS
            else:
                matched += 1
            self.acts = acts
            self.ai = 0
            stack = [h0]
            while stack:
                self.play_hand(stack.pop(), bh, stack)
            if self.ai < len(acts):
                self.disc.append(
                    _d(
                        "EXTRA_DECISION",
                        self.number,
                        h0.box,
                        None,
                        self.holder,
                        self.arts["EXTRA_DECISION"],
                        count=len(acts) - self.ai,
                    )
                )
        return matched

    def decision(self, h: Hand) -> tuple[str, Any]:
        """The box's next decision for ``h`` and the players behind who decline it."""
        if self.ai >= len(self.acts):
            self.flag("MISSING_DECISION", h, self.arts["MISSING_DECISION"])
            raise _Stop
        a = self.acts[self.ai]
        self.ai += 1
        if type(a) is dict:
            return a["act"], a.get("declined")
        return a, None

    def play_hand(self, h: Hand, bh: list[Hand], stack: list[Hand]) -> None:
        """Play hand ``h`` of box ``bh`` to its end (a split hand first takes its second card)."""
        while True:
            if len(h.cards) == 1:
                self.draw(h)
            nc = len(h.cards)
            hard = h.hard
            if hard > 21:
                h.state = BUST
                return
            if h.doubled:
                h.state = STAND
                return
            if h.split_aces:
                if not self.split_ace(h, bh, stack):
                    h.state = STAND
                    return
                continue
            if nc == 2 and hard == 11 and h.ace and not h.split:
                h.state = BLACKJACK
                return
            a, declined = self.decision(h)
            if a == "hit":
                if self.rules.hit_on_21_forbidden and (hard == 21 or (hard == 11 and h.ace)):
                    self.flag("ILLEGAL_HIT", h, self.arts["ILLEGAL_HIT"], reason="hit_on_21_forbidden")
            elif a == "stand":
                h.state = STAND
                return
            elif a == "double":
                self.double(h, nc, declined)
            elif a == "split":
                if not self.split(h, bh, stack, nc, declined):
                    h.state = STAND
                    return
                continue
            else:
                h.state = self.surrender(h, bh, nc)
                return
            # hit, or a double (possible form or replayed as a hit): one card
            self.draw(h)

    def split_ace(self, h: Hand, bh: list[Hand], stack: list[Hand]) -> bool:
        """A split ace takes one card; with resplit_aces an ace may split again (True if it does)."""
        if not (self.rules.resplit_aces and CARD_VALUE[h.cards[1]] == 1):
            return False
        a, declined = self.decision(h)
        if a == "split":
            self.split_hand(h, bh, stack, declined)
            return True
        if a != "stand":
            code = _ILLEGAL_CODE[a]
            if a == "surrender":
                self.flag(code, h, self.arts[code], reason="after a split", replayed_as="stand")
            else:
                self.flag(code, h, self.rules.texts["pairs"], reason=SPLIT_ACES_REASON, replayed_as="stand")
        return False

    def double(self, h: Hand, nc: int, declined: Any) -> None:
        """A double: of impossible form replayed as a hit; else the stakes doubled (one card follows)."""
        if nc != 2:
            self.flag(
                "ILLEGAL_DOUBLE",
                h,
                self.arts["ILLEGAL_DOUBLE"],
                reason="more than two cards",
                replayed_as="hit",
            )
            return
        rules = self.rules
        reason = None
        if h.split and not rules.double_after_split:
            reason = "double_after_split"
        elif rules.double_totals is not None and (h.ace or h.hard not in rules.double_totals):
            reason = "double_totals"
        if reason is not None:
            self.flag("ILLEGAL_DOUBLE", h, self.arts["ILLEGAL_DOUBLE"], reason=reason)
        first = True
        for st in h.stakes:
            # the holder decides; players behind follow unless they declined
            if first or not declined or st[0] not in declined:
                st[1] *= 2
            first = False
        h.doubled = True

    def split(self, h: Hand, bh: list[Hand], stack: list[Hand], nc: int, declined: Any) -> bool:
        """A split; False when its form is impossible (replayed as a stand)."""
        hc = h.cards
        reason = None
        if nc != 2:
            reason = "more than two cards"
        elif CARD_VALUE[hc[0]] != CARD_VALUE[hc[1]]:
            reason = "cards of different values"
        if reason is not None:
            self.flag("ILLEGAL_SPLIT", h, self.arts["ILLEGAL_SPLIT"], reason=reason, replayed_as="stand")
            return False
        if self.rules.split_identical_only and CARD_RANK[hc[0]] != CARD_RANK[hc[1]]:
            self.flag("ILLEGAL_SPLIT", h, self.arts["ILLEGAL_SPLIT"], reason="split_identical_only")
        self.split_hand(h, bh, stack, declined)
        return True

    def split_hand(self, h: Hand, bh: list[Hand], stack: list[Hand], declined: Any) -> None:
        """The hand split in two, under the séance's rules (see ``_split``)."""
        _split(
            h,
            bh,
            stack,
            declined,
            self.rules.max_hands_after_split,
            self.number,
            self.holder,
            self.disc,
            self.arts,
        )

    def surrender(self, h: Hand, bh: list[Hand], nc: int) -> int:
        """A surrender: the hand's state (a stand when its form is impossible)."""
        reason = None
        if len(bh) > 1:
            reason = "after a split"
        elif nc != 2:
            reason = "after a hit"
        if reason is not None:
            self.flag(
                "ILLEGAL_SURRENDER", h, self.arts["ILLEGAL_SURRENDER"], reason=reason, replayed_as="stand"
            )
            return STAND
        # replayed as a surrender: not offered, or after a card was drawn at
        # the table (FR art. 55-4 1°: "avant tout tirage supplémentaire"); one reason
        reason = (
            "not offered" if not self.rules.surrender else LATE_SURRENDER if self.p != self.dealt else None
        )
        if reason is not None:
            self.flag("ILLEGAL_SURRENDER", h, self.arts["ILLEGAL_SURRENDER"], reason=reason)
        return SURRENDER

    def dealer_plays(self) -> None:
        """3.5 the dealer draws to 17 if a hand is on the layout or an insurance bet is open."""
        if not self.legal and all(h.state == BUST or h.state == SURRENDER for bh in self.boxes for h in bh):
            return
        while (self.d_hard + 10 if self.d_ace and self.d_hard <= 11 else self.d_hard) < 17:
            self.draw_dealer()


def _play(
    rd: dict[str, Any],
    number: int,
    rules: Rules,
    disc: list[dict[str, Any]],
    cards: list[str],
    vals: list[int],
    playing: list[tuple[int, list[list[Any]]]],
) -> dict[str, Any]:
    """Deal, insurance, play, dealer and settlement of one round (§3.1–§3.6)."""
    arts = rules.articles
    r = _Round(number, rules, disc, cards, vals, playing)
    actions = rd["actions"]
    try:
        r.deal()
        # 3.2 insurance, checked once the first deal is complete
        if rd["insurance"]:
            r.legal = _insurance(rd["insurance"], number, r.d_ace, playing, disc, arts)
        matched = r.play(actions)
        r.dealer_plays()
    except _Stop:
        return _stopped(number, r.d_cards, r.d_hard, r.d_ace, r.boxes, r.legal)
    # actions for boxes that hold no stakes: checked once all boxes have played
    if len(actions) != matched:
        _stakeless(actions, r.boxes, number, disc, arts)
    if r.p < r.n:
        disc.append(_d("CARDS_UNUSED", number, None, None, None, arts["CARDS_UNUSED"], count=r.n - r.p))
    return _settle(rd, number, arts, rules.texts, disc, r.boxes, r.d_cards, r.d_hard, r.d_ace, legal=r.legal)


_ILLEGAL_CODE = {"hit": "ILLEGAL_HIT", "double": "ILLEGAL_DOUBLE", "surrender": "ILLEGAL_SURRENDER"}


def _stakeless(
    actions: dict[str, Any],
    boxes: list[list[Hand]],
    number: int,
    disc: list[dict[str, Any]],
    arts: dict[str, str],
) -> None:
    """EXTRA_DECISION for actions of boxes that take no part (§6)."""
    staked = {bh[0].box for bh in boxes}
    for b in sorted(int(k) for k in actions):
        if b not in staked and actions[BOX_KEY[b]]:
            disc.append(
                _d(
                    "EXTRA_DECISION",
                    number,
                    b,
                    None,
                    None,
                    arts["EXTRA_DECISION"],
                    count=len(actions[BOX_KEY[b]]),
                )
            )


def _split(
    h: Hand,
    bh: list[Hand],
    stack: list[Hand],
    declined: Any,
    maxh: int | None,
    number: int,
    holder: str,
    disc: list[dict[str, Any]],
    arts: dict[str, str],
) -> None:
    """Split ``h`` (of possible form) into itself and a new hand (§3.3, pairs article).

    The new hand takes the next free number and is played right after ``h``
    (it goes on top of the box's stack of hands waiting for their second card).
    """
    if maxh is not None and len(bh) + 1 > maxh:
        disc.append(
            _d("TOO_MANY_SPLITS", number, h.box, h.num, holder, arts["TOO_MANY_SPLITS"], max_hands=maxh)
        )
    c0, c1 = h.cards
    stakes = h.stakes
    new_stakes = [[stakes[0][0], stakes[0][1]]]
    for st in stakes[1:]:
        # a player behind who declines keeps his stake on the first hand only
        if not declined or st[0] not in declined:
            new_stakes.append([st[0], st[1]])
    new = Hand(h.box, len(bh), new_stakes)
    v0 = CARD_VALUE[c0]
    v1 = CARD_VALUE[c1]
    new.cards.append(c1)
    new.hard = v1
    new.ace = v1 == 1
    new.split = True
    new.split_aces = v1 == 1
    del h.cards[1:]  # in place: the caller holds this list
    h.hard = v0
    h.ace = v0 == 1
    h.split = True
    h.split_aces = v0 == 1
    bh.append(new)
    stack.append(new)


def _insurance(
    insurance: list[dict[str, Any]],
    number: int,
    dealer_ace: bool,
    playing: list[tuple[int, list[list[Any]]]],
    disc: list[dict[str, Any]],
    arts: dict[str, str],
) -> list[tuple[int, str, int]]:
    """Insurance bets (FR art. 55-4 2° / LU art. 32 2.): exactly half a stake, dealer ace."""
    legal: list[tuple[int, str, int]] = []
    insured: set[tuple[int, str]] = set()
    for ins in insurance:
        box = ins["box"]
        player = ins["player"]
        amount = cents(ins["amount"])
        assert amount is not None
        reason = None
        if not dealer_ace:
            reason = "dealer's first card is not an ace"
        else:
            stake = None
            for b, sl in playing:
                if b == box:
                    for pl, c in sl:
                        if pl == player:
                            stake = c
                    break
            if stake is None:
                reason = "no such stake"
            elif 2 * amount != stake:
                reason = "not half the stake"
            elif (box, player) in insured:
                reason = "stake already insured"
        if reason is None:
            insured.add((box, player))
            legal.append((box, player, amount))
        else:
            disc.append(
                _d(
                    "ILLEGAL_INSURANCE",
                    number,
                    box,
                    None,
                    player,
                    arts["ILLEGAL_INSURANCE"],
                    amount=_fmt(amount),
                    reason=reason,
                )
            )
    return legal


def _outcome(state: Any, bj: bool, total: int, d_bj: bool, dt: int) -> tuple[str, int]:
    """A hand's outcome against the dealer's (``d_bj``: blackjack; ``dt``: total), and the net
    per unit of stake as a fraction over 2 (so 3:2 and halves stay exact)."""
    if state == BUST:
        return "bust", -2
    if state == SURRENDER:
        return "surrender", -1
    if bj:
        return ("push", 0) if d_bj else ("blackjack", 3)
    if d_bj:
        return "lose", -2
    if dt > 21 or total > dt:
        return "win", 2
    if total == dt:
        return "push", 0
    return "lose", -2


def _settle(
    rd: dict[str, Any],
    number: int,
    arts: dict[str, str],
    texts: dict[str, str],
    disc: list[dict[str, Any]],
    boxes: list[list[Hand]],
    d_cards: list[str],
    d_hard: int,
    d_ace: bool,
    legal: list[tuple[int, str, int]],
) -> dict[str, Any]:
    """Settlement of each stake on each hand (§3.6) and the check of the recorded rows."""
    d_soft = d_ace and d_hard <= 11
    dt = d_hard + 10 if d_soft else d_hard
    d_bj = d_soft and d_hard == 11 and len(d_cards) == 2
    hands, flat = _settled_hands(boxes, d_bj, dt)
    ins_out: list[dict[str, Any]] = []
    ins_computed: dict[tuple[int, str], int] = {}
    if legal:
        ten = CARD_VALUE[d_cards[1]] == 10
        for b, pl, a in legal:
            net = 2 * a if ten else -a
            ins_computed[(b, pl)] = net
            ins_out.append({"box": b, "player": pl, "amount": _fmt(a), "net": _fmt(net)})
    # recorded rows against computed ones: first the common case of rows in
    # report order that all agree, without building any lookup table
    rows = rd["settlements"]
    if len(rows) * 4 != len(flat) + 4 * len(legal) or not _in_order(rows, flat, ins_computed):
        _check_rows(rows, number, flat, ins_computed, arts["SETTLEMENT_MISMATCH"], texts["insurance"], disc)
    return {
        "number": number,
        "replayed": True,
        "dealer": {"cards": d_cards, "total": dt, "soft": d_soft, "blackjack": d_bj},
        "hands": hands,
        "insurance": ins_out,
    }


def _settled_hands(boxes: list[list[Hand]], d_bj: bool, dt: int) -> tuple[list[dict[str, Any]], list[Any]]:
    """Each hand's outcome and each stake's net, in report order; and the computed settlements
    as flat (box, hand, player, net) runs."""
    flat: list[Any] = []
    push = flat.append
    hands = []
    fget = _FMT.get
    fmt = _fmt
    for bh in boxes:
        if len(bh) > 1:
            bh = sorted(bh, key=_num_of)
        for h in bh:
            state = h.state
            hard = h.hard
            soft = h.ace and hard <= 11
            total = hard + 10 if soft else hard
            bj = state == BLACKJACK
            outcome, num2 = _outcome(state, bj, total, d_bj, dt)
            box = h.box
            num = h.num
            st_out = []
            for player, c in h.stakes:
                net = c * (num2 >> 1) if num2 & 1 == 0 else _half(c * num2)
                push(box)
                push(num)
                push(player)
                push(net)
                st_out.append({"player": player, "amount": fget(c) or fmt(c), "net": fget(net) or fmt(net)})
            hands.append(
                {
                    "box": box,
                    "hand": num,
                    "cards": h.cards,
                    "total": total,
                    "soft": soft,
                    "blackjack": bj,
                    "doubled": h.doubled,
                    "outcome": outcome,
                    "stakes": st_out,
                }
            )
    return hands, flat


def _check_rows(
    rows: list[dict[str, Any]],
    number: int,
    flat: list[Any],
    ins_computed: dict[tuple[int, str], int],
    play_art: str,
    ins_art: str,
    disc: list[dict[str, Any]],
) -> None:
    """Each recorded row against the settlement the rules owe (SETTLEMENT_UNKNOWN,
    SETTLEMENT_MISMATCH), then the settlements no row records (SETTLEMENT_MISSING)."""
    computed: dict[tuple[int, int, str], int] = {}
    for i in range(0, len(flat), 4):
        computed[(flat[i], flat[i + 1], flat[i + 2])] = flat[i + 3]
    seen: set[Any] = set()
    fmt = _fmt
    for row in rows:
        box = row["box"]
        player = row["player"]
        if "net" in row:
            key: Any = (box, row["hand"], player)
            hand = row["hand"]
            rec = cents(row["net"])
            exp = computed.get(key)
            art = play_art
        else:
            key = (box, player)
            hand = None
            rec = cents(row["insurance_net"])
            exp = ins_computed.get(key)
            art = ins_art
        assert rec is not None
        if exp is None or key in seen:
            # a row for nothing the rules owe: a payment (1°), an insurance row flagged as such
            extra: dict[str, Any] = {} if hand is not None else {"insurance": True}
            extra["recorded"] = fmt(rec)
            if exp is not None:
                extra["duplicate"] = True
            disc.append(_d("SETTLEMENT_UNKNOWN", number, box, hand, player, play_art, **extra))
            continue
        seen.add(key)
        if exp != rec:
            disc.append(
                _d(
                    "SETTLEMENT_MISMATCH",
                    number,
                    box,
                    hand,
                    player,
                    art,
                    expected=fmt(exp),
                    recorded=fmt(rec),
                )
            )
    if len(seen) != len(computed) + len(ins_computed):
        _missing_rows(number, computed, ins_computed, seen, disc, play_art, ins_art)


def _missing_rows(
    number: int,
    computed: dict[tuple[int, int, str], int],
    ins_computed: dict[tuple[int, str], int],
    seen: set[Any],
    disc: list[dict[str, Any]],
    play_art: str,
    ins_art: str,
) -> None:
    """SETTLEMENT_MISSING for each settlement the rules owe and no row records (hands, then insurance)."""
    fmt = _fmt
    for key, exp in computed.items():
        if key not in seen:
            disc.append(_d("SETTLEMENT_MISSING", number, key[0], key[1], key[2], play_art, expected=fmt(exp)))
    for ins_key, exp in ins_computed.items():
        if ins_key not in seen:
            disc.append(
                _d("SETTLEMENT_MISSING", number, ins_key[0], None, ins_key[1], ins_art, expected=fmt(exp))
            )


def _in_order(rows: list[dict[str, Any]], flat: list[Any], ins_computed: dict[tuple[int, str], int]) -> bool:
    """True when the rows are exactly the computed settlements, in report order
    (hand rows, then insurance rows in log order)."""
    cget = _CENTS.get
    i = 0
    n = len(flat)
    ins = iter(ins_computed.items())
    for row in rows:
        if i < n:
            net = row.get("net")
            if (
                net is None
                or row["box"] != flat[i]
                or row["hand"] != flat[i + 1]
                or row["player"] != flat[i + 2]
                or cget(net) != flat[i + 3]
            ):
                return False
            i += 4
        else:
            (b, pl), exp = next(ins)
            net = row.get("insurance_net")
            if net is None or row["box"] != b or row["player"] != pl or cget(net) != exp:
                return False
    return True


def _num_of(h: Hand) -> int:
    return h.num
