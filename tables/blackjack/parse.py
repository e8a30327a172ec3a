"""Shape checks of a hand log: what makes a log *rejected* (hand-log.md §1, §6).

A rejected log is not replayed at all (§5, exit status 2). The check stops at
the first fault and names it with a field path such as
``rounds[3].boxes[0].stakes[1].amount`` and what was expected.

Everything else that is wrong with a well-formed log is a discrepancy, found
by the replay (:mod:`tables.blackjack.replay`), not here.

The checks run on every round of every log, so they are written for speed:
exact type tests (``type(x) is int`` also refuses booleans), and a cache from
amount string to cents so that the amount grammar
``-?[0-9]{1,12}(\\.[0-9]{1,2})?`` is matched once per distinct string.
"""

from __future__ import annotations

import re
from typing import Any, NoReturn

from .rules import BOOLEAN_RULES, CHANGEABLE, DEFAULTS, INTEGER_RULE_MINIMUM, PROFILES, Rules, rules_for

FORMAT = "casino-hand-log/1"
ACTIONS = frozenset(("hit", "stand", "double", "split", "surrender"))
ACTION_KEYS = frozenset(("1", "2", "3", "4", "5", "6", "7"))
TOP_FIELDS = (
    "format",
    "shoe_id",
    "table",
    "profile",
    "house_rules",
    "limits",
    "decks",
    "burned",
    "cut_card_after",
    "rounds",
)
ROUND_FIELDS = ("number", "boxes", "cards", "insurance", "actions", "settlements")

_AMOUNT = re.compile(r"-?[0-9]{1,12}(?:\.[0-9]{1,2})?")
_amount_match = _AMOUNT.fullmatch
AMOUNT_REASON = 'expected an amount string like "12.50"'

_CENTS: dict[str, int] = {}


class Rejected(Exception):
    """A log that cannot be replayed: ``field`` is its path, ``reason`` why."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


def cents(value: Any) -> int | None:
    """Cents of an amount string, or None when it is not one (§6, exact grammar).

    ``str`` subclasses and non-strings are refused; amounts are never floats.
    """
    c = _CENTS.get(value) if type(value) is str else None
    if c is not None:
        return c
    if type(value) is not str or _amount_match(value) is None:
        return None
    neg = value[0] == "-"
    whole, _, frac = value.lstrip("-").partition(".")
    c = int(whole) * 100 + (int(frac.ljust(2, "0")) if frac else 0)
    if neg:
        c = -c
    if len(_CENTS) > 100_000:  # bounded: a hostile log cannot grow it forever
        _CENTS.clear()
    _CENTS[value] = c
    return c


def format_cents(c: int) -> str:
    """``1250`` -> ``"12.50"``: report amounts have exactly two decimals (§5)."""
    whole, frac = divmod(-c if c < 0 else c, 100)
    return f"{'-' if c < 0 else ''}{whole}.{frac:02d}"


def _is_int(v: Any) -> bool:
    return type(v) is int


def _nonempty_str(v: Any) -> bool:
    return type(v) is str and v != ""


def validate(doc: Any) -> Rules:
    """Check the whole log's shape; return the rules in force.

    Raises :class:`Rejected` naming the first bad field.
    """
    rules = validate_header(doc)
    for i, rd in enumerate(doc["rounds"]):
        check_round(i, rd)
    return rules


def validate_header(doc: Any) -> Rules:
    """Check everything but the rounds themselves (``rounds`` must be a list).

    The replay checks each round as it reaches it (:func:`check_round`), so
    that a log is read once; the first fault found is the same.
    """
    if type(doc) is not dict:
        raise Rejected("document", "expected a JSON object")
    for f in TOP_FIELDS:
        if f not in doc:
            raise Rejected(f, "missing")
    if doc["format"] != FORMAT or type(doc["format"]) is not str:
        raise Rejected("format", f'expected "{FORMAT}"')
    for f in ("shoe_id", "table"):
        if not _nonempty_str(doc[f]):
            raise Rejected(f, "expected a non-empty string")
    profile = doc["profile"]
    if type(profile) is not str or profile not in PROFILES:
        raise Rejected("profile", 'expected "FR" or "LU"')
    rules = _house_rules(profile, doc["house_rules"])
    limits = doc["limits"]
    if type(limits) is not dict:
        raise Rejected("limits", "expected an object with min and max")
    for f in ("min", "max"):
        if f not in limits:
            raise Rejected(f"limits.{f}", "missing")
        if cents(limits[f]) is None:
            raise Rejected(f"limits.{f}", AMOUNT_REASON)
    for f in ("decks", "burned", "cut_card_after"):
        if type(doc[f]) is not int:
            raise Rejected(f, "expected an integer")
    if type(doc["rounds"]) is not list:
        raise Rejected("rounds", "expected a list")
    return rules


def _house_rules(profile: str, hr: Any) -> Rules:
    """House rules are checked by key (§6): unknown or not changeable -> rejected."""
    if type(hr) is not dict:
        raise Rejected("house_rules", "expected an object")
    allowed = CHANGEABLE[profile]
    for key, value in hr.items():
        field = f"house_rules.{key}"
        if key not in DEFAULTS[profile]:
            raise Rejected(field, "unknown house rule")
        if key not in allowed:
            raise Rejected(field, f"a house may not change it under profile {profile}")
        if key in BOOLEAN_RULES:
            if type(value) is not bool:
                raise Rejected(field, "expected true or false")
        else:
            minimum = INTEGER_RULE_MINIMUM[key]
            if value is not None and (type(value) is not int or value < minimum):
                raise Rejected(field, f"expected null or an integer of at least {minimum}")
    return rules_for(profile, hr)


def check_round(i: int, rd: Any) -> None:
    """Check round ``i`` (0-based) (§2, §6). Paths are built only when raising."""
    p = f"rounds[{i}]"
    if type(rd) is not dict:
        raise Rejected(p, "expected an object")
    try:
        number = rd["number"]
        boxes = rd["boxes"]
        cards = rd["cards"]
        insurance = rd["insurance"]
        actions = rd["actions"]
        settlements = rd["settlements"]
    except KeyError as exc:
        raise Rejected(f"{p}.{exc.args[0]}", "missing") from None
    if type(number) is not int:
        raise Rejected(f"{p}.number", "expected an integer")
    _check_boxes(p, boxes)
    _check_cards(p, cards)
    _check_insurance(p, insurance)
    _check_actions(p, actions)
    _check_settlements(p, settlements)


def _check_boxes(p: str, boxes: Any) -> None:
    """The round's boxes: numbers 1 to 7 listed once, their stakes, at least one stake."""
    if type(boxes) is not list:
        raise Rejected(f"{p}.boxes", "expected a list")
    seen_boxes = 0  # bit mask of box numbers seen
    staked = False
    for j, b in enumerate(boxes):
        if type(b) is not dict:
            raise Rejected(f"{p}.boxes[{j}]", "expected an object")
        box = b.get("box")
        if type(box) is not int or not 1 <= box <= 7:
            raise Rejected(f"{p}.boxes[{j}].box", _missing_or(b, "box", "expected an integer from 1 to 7"))
        bit = 1 << box
        if seen_boxes & bit:
            raise Rejected(f"{p}.boxes[{j}].box", f"box {box} listed twice in the round")
        seen_boxes |= bit
        stakes = b.get("stakes")
        if type(stakes) is not list:
            raise Rejected(f"{p}.boxes[{j}].stakes", _missing_or(b, "stakes", "expected a list"))
        if stakes:
            staked = True
        _check_stakes(p, j, stakes)
    if not staked:
        raise Rejected(f"{p}.boxes", "expected at least one box holding a stake")


def _check_stakes(p: str, j: int, stakes: list[Any]) -> None:
    """The stakes of box ``j``: well-formed, each player once."""
    if len(stakes) == 1:
        # the common case of a lone stake, without a set of players
        s = stakes[0]
        if type(s) is not dict or not _good_stake(s):
            _stake(p, j, 0, s)
        return
    players = set()
    for k, s in enumerate(stakes):
        if type(s) is not dict or not _good_stake(s):
            _stake(p, j, k, s)
        if s.get("player") in players:
            raise Rejected(f"{p}.boxes[{j}].stakes[{k}].player", "player listed twice on this box")
        players.add(s["player"])


def _good_stake(s: dict[str, Any]) -> bool:
    """A stake object with a non-empty player and an amount string."""
    pl = s.get("player")
    a = s.get("amount")
    return type(pl) is str and bool(pl) and type(a) is str and (a in _CENTS or cents(a) is not None)


def _check_cards(p: str, cards: Any) -> None:
    if type(cards) is not list:
        raise Rejected(f"{p}.cards", "expected a list")
    try:
        "".join(cards)  # C speed: fails on the first element that is not a str
    except TypeError:
        for k, c in enumerate(cards):
            if type(c) is not str:
                raise Rejected(f"{p}.cards[{k}]", "expected a card code string") from None


def _check_insurance(p: str, insurance: Any) -> None:
    if type(insurance) is not list:
        raise Rejected(f"{p}.insurance", "expected a list")
    for k, ins in enumerate(insurance):
        q = f"{p}.insurance[{k}]"
        if type(ins) is not dict:
            raise Rejected(q, "expected an object")
        if type(ins.get("box")) is not int:
            raise Rejected(f"{q}.box", _missing_or(ins, "box", "expected an integer"))
        if not _nonempty_str(ins.get("player")):
            raise Rejected(f"{q}.player", _missing_or(ins, "player", _NONEMPTY))
        if cents(ins.get("amount")) is None:
            raise Rejected(f"{q}.amount", _missing_or(ins, "amount", AMOUNT_REASON))


def _check_actions(p: str, actions: Any) -> None:
    if type(actions) is not dict:
        raise Rejected(f"{p}.actions", "expected an object")
    for key, acts in actions.items():
        if key not in ACTION_KEYS:
            raise Rejected(f"{p}.actions.{key}", 'expected a box number key "1" to "7"')
        if type(acts) is not list:
            raise Rejected(f"{p}.actions.{key}", "expected a list")
        for k, a in enumerate(acts):
            if type(a) is str:
                if a not in ACTIONS:
                    raise Rejected(f"{p}.actions.{key}[{k}]", _ACTION_REASON)
            else:
                _action_object(f"{p}.actions.{key}[{k}]", a)


def _check_settlements(p: str, settlements: Any) -> None:
    if type(settlements) is not list:
        raise Rejected(f"{p}.settlements", "expected a list")
    for k, row in enumerate(settlements):
        if type(row) is not dict:
            raise Rejected(f"{p}.settlements[{k}]", "expected an object")
        if not _plain_net_row(row):
            _check_settlement(f"{p}.settlements[{k}]", row)


def _plain_net_row(row: dict[str, Any]) -> bool:
    """Fast path of a well-formed net row (its amount already seen)."""
    pl = row.get("player")
    net = row.get("net")
    return (
        type(row.get("box")) is int
        and type(pl) is str
        and bool(pl)
        and type(net) is str
        and net in _CENTS
        and type(row.get("hand")) is int
        and "insurance_net" not in row
    )


def _check_settlement(q: str, row: dict[str, Any]) -> None:
    """Raise the precise error of a settlement row, if any."""
    if type(row.get("box")) is not int:
        raise Rejected(f"{q}.box", _missing_or(row, "box", "expected an integer"))
    if not _nonempty_str(row.get("player")):
        raise Rejected(f"{q}.player", _missing_or(row, "player", _NONEMPTY))
    has_net = "net" in row
    if has_net == ("insurance_net" in row):
        raise Rejected(q, "expected exactly one of net and insurance_net")
    if has_net:
        if cents(row["net"]) is None:
            raise Rejected(f"{q}.net", AMOUNT_REASON)
        if type(row.get("hand")) is not int:
            raise Rejected(f"{q}.hand", "expected an integer (required with net)")
    elif cents(row["insurance_net"]) is None:
        raise Rejected(f"{q}.insurance_net", AMOUNT_REASON)


_NONEMPTY = "expected a non-empty string"
_ACTION_REASON = 'expected one of "hit", "stand", "double", "split", "surrender"'


def _missing_or(obj: dict[str, Any], key: str, reason: str) -> str:
    return "missing" if key not in obj else reason


def _stake(p: str, j: int, k: int, s: Any) -> NoReturn:
    """Raise the precise error of a bad stake."""
    q = f"{p}.boxes[{j}].stakes[{k}]"
    if type(s) is not dict:
        raise Rejected(q, "expected an object")
    if not _nonempty_str(s.get("player")):
        raise Rejected(f"{q}.player", _missing_or(s, "player", "expected a non-empty string"))
    raise Rejected(f"{q}.amount", _missing_or(s, "amount", AMOUNT_REASON))


def _action_object(q: str, a: Any) -> None:
    if type(a) is not dict:
        raise Rejected(q, "expected an action string or an object with act")
    act = a.get("act")
    if type(act) is not str or act not in ACTIONS:
        raise Rejected(f"{q}.act", _ACTION_REASON)
    if "declined" in a:
        declined = a["declined"]
        if type(declined) is not list:
            raise Rejected(f"{q}.declined", "expected a list of player ids")
        for m, name in enumerate(declined):
            if type(name) is not str:
                raise Rejected(f"{q}.declined[{m}]", "expected a string")
