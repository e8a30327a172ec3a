"""Hand logs as received: their size, their values, and what the engine makes of them (FR art. 55-4, 55-5; LU art. 32, 33)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from decimal import Decimal
from itertools import accumulate
from typing import Any, cast

from django.utils.translation import gettext as _

from casino_ops import dates
from casino_ops.refusals import Refusal
from casino_ops.regulations import RegulationError, cite

from ..blackjack import Rejected, replay_valid, validate
from ..blackjack.parse import cents
from ..blackjack.rules import HOUSE_RULE_DEFAULTS, Rules
from ..blackjack.summary import wrong_payments


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _rejected_article(field: str, profile: str) -> str:
    if field.startswith("house_rules"):
        return cite("game.house_rules", profile)
    if field.startswith("limits"):
        return cite("game.limits", profile)
    return ""


# The limits of a hand log as received (API, admin, command alike), documented in the README:
# a 5,700-round shoe weighs about 4 MB.
MAX_HAND_LOG_BYTES = 16 * 1024 * 1024


MAX_HAND_LOG_DEPTH = 32


# the strings of a log are stored in fields of these lengths (shoe label, table code, player)
MAX_STRING_LENGTHS = {"shoe_id": 64, "table": 16, "player": 64}


MAX_STRING_LENGTH = 200


# The engine accepts any JSON integer (hand-log.md §6); the integers it reports are stored in
# columns of a fixed range, so a log whose integer no column holds is refused before anything is
# stored (a stored log must always be replayable). PostgreSQL's ranges, as Django gives them
# (``connection.ops.integer_field_range``): a round's number goes to ``Discrepancy.round``
# (positive integer), a box and a hand to ``Discrepancy.box`` and ``.hand`` (positive small
# integers), the shoe's counts and the house rules to the discrepancies' details, read back as
# integers (``decks``, ``burned``, ``cut_card_after``: any 32-bit integer, a wrong one being a
# discrepancy; the house rules' counts: positive small integers).
INTEGER = (-(2**31), 2**31 - 1)
POSITIVE_INTEGER = (0, 2**31 - 1)
POSITIVE_SMALL_INTEGER = (0, 2**15 - 1)
SHOE_INTEGER_RANGES = {"decks": INTEGER, "burned": INTEGER, "cut_card_after": INTEGER}
ROUND_INTEGER_RANGES = {
    "number": POSITIVE_INTEGER,
    "box": POSITIVE_SMALL_INTEGER,
    "hand": POSITIVE_SMALL_INTEGER,
}
HOUSE_RULE_INTEGER_RANGE = POSITIVE_SMALL_INTEGER

# The amounts the replay stores (a discrepancy's expected and recorded amounts and their
# difference, the totals over- and underpaid) go to columns of 14 digits, 2 after the point.
MAX_STORED_CENTS = 10**14 - 1


def _too_large(size: int) -> RegulationError:
    return Refusal.HAND_LOG_TOO_LARGE.error(n=size, m=MAX_HAND_LOG_BYTES)


def check_hand_log_size(size: int) -> None:
    if size > MAX_HAND_LOG_BYTES:
        raise _too_large(size)


#: The largest body of a batch of hand logs: a log of the largest size, in base64, fits in it.
MAX_HAND_LOG_BATCH_BYTES = 2 * MAX_HAND_LOG_BYTES


def check_hand_log_batch_size(size: int) -> None:
    if size > MAX_HAND_LOG_BATCH_BYTES:
        raise Refusal.HAND_LOG_TOO_LARGE.error(n=size, m=MAX_HAND_LOG_BATCH_BYTES)


# Fast prefilters on the raw text (C speed); the walk below, which names the path, runs only when
# one of them finds something: an escaped control character or surrogate, a raw DEL, a string of
# more than 64 characters (counted on the text, never fewer than once decoded), or nesting too deep.
_SUSPECT_ESCAPE = re.compile(rb"\\u(?:00[01][0-9a-fA-F]|007[fF]|[dD][89a-fA-F][0-9a-fA-F]{2})")


_LONG_STRING = re.compile(rb'"(?:[^"\\]|\\.){65,}"')


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')


# without any backslash in the text, a string is a plain run between two quotes
_LONG_PLAIN = re.compile(rb'"[^"]{65,}"')


_PLAIN_STRING = re.compile(rb'"[^"]*"')


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def _needs_walk(raw: bytes) -> bool:
    if b"\x7f" in raw:
        return True
    if b"\\" in raw:
        if _SUSPECT_ESCAPE.search(raw) or _LONG_STRING.search(raw):
            return True
        stripped = _STRING.sub(b"", raw)
    else:
        if _LONG_PLAIN.search(raw):
            return True
        stripped = _PLAIN_STRING.sub(b"", raw)
    skeleton = stripped.translate(None, _NOT_BRACKETS)
    return max(accumulate(1 if c in b"[{" else -1 for c in skeleton), default=0) > MAX_HAND_LOG_DEPTH


def _check_log_values(doc: Any) -> None:
    """No string with a control character (NUL included), none longer than its field, no nesting
    deeper than :data:`MAX_HAND_LOG_DEPTH`; the error names the path of the value."""
    stack: list[tuple[Any, str, int]] = [(doc, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_HAND_LOG_DEPTH:
            raise Refusal.HAND_LOG_REJECTED.error(
                field=path or "document",
                message=_("Journal refusé : %(f)s : imbrication au-delà de %(n)s niveaux."),
                f=path or "document",
                n=MAX_HAND_LOG_DEPTH,
            )
        if isinstance(value, dict):
            for key, item in value.items():
                _check_string(key, f"{path}.{key}" if path else key, "")
                stack.append((item, f"{path}.{key}" if path else key, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str):
            _check_string(value, path, path.rsplit(".", 1)[-1])


def _check_string(value: str, path: str, name: str) -> None:
    if any(ord(c) < 32 or ord(c) == 127 or 0xD800 <= ord(c) <= 0xDFFF for c in value):
        raise Refusal.HAND_LOG_REJECTED.error(
            field=path,
            message=_("Journal refusé : %(f)s : caractère de contrôle (NUL ou autre) interdit."),
            f=path,
        )
    limit = MAX_STRING_LENGTHS.get(name, MAX_STRING_LENGTH)
    if len(value) > limit:
        raise Refusal.HAND_LOG_REJECTED.error(field=path, f=path, n=len(value), m=limit)


def _out_of_range(field: str, value: int, bounds: tuple[int, int], profile: str) -> RegulationError:
    return Refusal.HAND_LOG_REJECTED_GIVEN.error(
        article=_rejected_article(field, profile),
        field=field,
        message=_(
            "Journal refusé : %(f)s : %(v)s hors de l'intervalle de %(a)s à %(b)s que sa colonne contient."
        ),
        f=field,
        v=value,
        a=bounds[0],
        b=bounds[1],
    )


def _check_integer_ranges(doc: dict[str, Any], profile: str) -> None:
    """Every integer of a validated log within the range of the column that stores it (the first
    outside is named by its path)."""
    for name, bounds in SHOE_INTEGER_RANGES.items():
        if not bounds[0] <= doc[name] <= bounds[1]:
            raise _out_of_range(name, doc[name], bounds, profile)
    low, high = HOUSE_RULE_INTEGER_RANGE
    for key, value in doc["house_rules"].items():
        if type(value) is int and not low <= value <= high:
            raise _out_of_range(f"house_rules.{key}", value, HOUSE_RULE_INTEGER_RANGE, profile)
    number_low, number_high = ROUND_INTEGER_RANGES["number"]
    box_low, box_high = ROUND_INTEGER_RANGES["box"]
    hand_low, hand_high = ROUND_INTEGER_RANGES["hand"]
    for i, rd in enumerate(doc["rounds"]):
        if not number_low <= rd["number"] <= number_high:
            raise _out_of_range(f"rounds[{i}].number", rd["number"], ROUND_INTEGER_RANGES["number"], profile)
        for key in ("insurance", "settlements"):
            for k, row in enumerate(rd[key]):
                if not box_low <= row["box"] <= box_high:
                    raise _out_of_range(
                        f"rounds[{i}].{key}[{k}].box", row["box"], ROUND_INTEGER_RANGES["box"], profile
                    )
                hand = row.get("hand")
                if type(hand) is int and not hand_low <= hand <= hand_high:
                    raise _out_of_range(
                        f"rounds[{i}].{key}[{k}].hand", hand, ROUND_INTEGER_RANGES["hand"], profile
                    )


#: The least each shoe count may be at the door: a shoe holds at least one deck; nothing is
#: burned or cut before the first card (the engine takes any integer, hand-log.md §6).
SHOE_MINIMUMS = {"decks": 1, "burned": 0, "cut_card_after": 0}

#: A bidirectional control (override, embedding, isolate, mark) in a player's id would print it
#: as another; so would digits other than 0-9 (Arabic-Indic, Devanagari, full-width…).
_MISLEADING_ID = re.compile(r"[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|(?![0-9])\d")


def _refused_value(field: str, reason: str, profile: str) -> RegulationError:
    """A value out of range: its article is the shoe's (its counts), the limits' (a limit, a
    stake, an insurance) or the game's (a player)."""
    rule = (
        "game.shoe" if field in SHOE_MINIMUMS else "game.play" if field.endswith("player") else "game.limits"
    )
    if field.startswith("rounds") and "declined" in field:
        rule = "game.play"
    return Refusal.HAND_LOG_REJECTED_GIVEN.error(article=cite(rule, profile), field=field, f=field, r=reason)


def _check_shoe_in_range(doc: dict[str, Any], profile: str) -> None:
    """What no shoe can hold, refused at the door with the field's path: ``decks`` under 1, a
    negative ``burned`` or ``cut_card_after``, a negative limit, stake or insurance, a player id
    with a bidirectional control or digits other than 0-9."""
    for name, least in SHOE_MINIMUMS.items():
        if doc[name] < least:
            raise _refused_value(
                name, _("%(v)s, au moins %(m)s attendu") % {"v": doc[name], "m": least}, profile
            )
    for bound in ("min", "max"):
        if (cents(doc["limits"][bound]) or 0) < 0:
            raise _refused_value(f"limits.{bound}", _("montant négatif"), profile)
    players: dict[str, str] = {}  # a player id -> the path it is first read at
    for i, rd in enumerate(doc["rounds"]):
        for j, box in enumerate(rd["boxes"]):
            for k, stake in enumerate(box["stakes"]):
                if (cents(stake["amount"]) or 0) < 0:
                    raise _refused_value(
                        f"rounds[{i}].boxes[{j}].stakes[{k}].amount", _("mise négative"), profile
                    )
                _note(players, stake["player"], f"rounds[{i}].boxes[{j}].stakes[{k}].player")
        for k, bet in enumerate(rd["insurance"]):
            if (cents(bet.get("amount")) or 0) < 0:
                raise _refused_value(f"rounds[{i}].insurance[{k}].amount", _("assurance négative"), profile)
            _note(players, bet.get("player"), f"rounds[{i}].insurance[{k}].player")
        for k, row in enumerate(rd["settlements"]):
            _note(players, row.get("player"), f"rounds[{i}].settlements[{k}].player")
        for path, name in _declined(i, rd["actions"]):
            _note(players, name, path)
    for name, path in players.items():
        if _MISLEADING_ID.search(name):
            raise _refused_value(
                path,
                _("identifiant de joueur avec un caractère bidirectionnel ou des chiffres autres que 0-9"),
                profile,
            )


def _note(players: dict[str, str], name: Any, path: str) -> None:
    if type(name) is str and name not in players:
        players[name] = path


def _declined(i: int, actions: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """``(path, player)`` of every player named as declining in round ``i``'s actions."""
    for key, acts in actions.items():
        for m, act in enumerate(acts if type(acts) is list else []):
            if type(act) is dict:
                for n, name in enumerate(act.get("declined") or []):
                    yield f"rounds[{i}].actions.{key}[{m}].declined[{n}]", name


def _check_amounts_fit(doc: dict[str, Any], rules: Rules, profile: str) -> None:
    """What the replay makes of the log's amounts (a box's total, a payout, a difference, the
    totals) fits the amounts' columns. A bound is computed first: any figure the replay stores is
    at most three times the sum of the log's amounts per hand, and a round has fewer hands than
    cards; only a log beyond it (amounts of ten digits and more) is replayed here to know."""
    total = most_cards = 0
    for rd in doc["rounds"]:
        most_cards = max(most_cards, len(rd["cards"]))
        for box in rd["boxes"]:
            total += sum(abs(cents(stake["amount"]) or 0) for stake in box["stakes"])
        total += sum(abs(cents(ins["amount"]) or 0) for ins in rd["insurance"])
        for row in rd["settlements"]:
            total += abs(cents(row["net"] if "net" in row else row["insurance_net"]) or 0)
    if 3 * total * (most_cards + 1) <= MAX_STORED_CENTS:
        return
    report = replay_valid(doc, rules)
    over, under = wrong_payments(report)
    for d in report["discrepancies"]:
        amounts = {
            key: int(Decimal(d[key]) * 100)  # the report's amounts may exceed the log's grammar
            for key in ("expected", "recorded", "amount")
            if isinstance(d.get(key), str)
        }
        if "expected" in amounts or "recorded" in amounts:  # the difference is stored too
            amounts["delta"] = amounts.get("recorded", 0) - amounts.get("expected", 0)
        if any(abs(value) > MAX_STORED_CENTS for value in amounts.values()):
            raise _too_large_amount(f"rounds (round {d['round']}, box {d['box']})", profile)
    if max(over, under) > MAX_STORED_CENTS:
        raise _too_large_amount("rounds", profile)


def _too_large_amount(where: str, profile: str) -> RegulationError:
    return Refusal.HAND_LOG_REJECTED_GAME_LIMITS.error(
        profile, f=where, m=dates.amount(Decimal("999999999999.99"))
    )


def parse_hand_log(raw: bytes, profile: str) -> dict[str, Any]:
    """Parse and validate a log with the engine; a rejection names the field (hand-log.md §1, §6).
    Refused before anything is stored: over :data:`MAX_HAND_LOG_BYTES`, nested deeper than
    :data:`MAX_HAND_LOG_DEPTH`, a control character in a string, a string longer than its field, an
    integer its column does not hold."""
    check_hand_log_size(len(raw))
    try:
        doc = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except RecursionError:
        raise Refusal.HAND_LOG_REJECTED.error(
            field="document",
            message=_("Journal refusé : %(f)s : imbrication au-delà de %(n)s niveaux."),
            f="document",
            n=MAX_HAND_LOG_DEPTH,
        ) from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise Refusal.HAND_LOG_REJECTED.error(
            field="document",
            message=_("Journal refusé : ce n'est pas un document JSON en UTF-8 (%(e)s)."),
            e=exc,
        ) from None
    if isinstance(doc, dict):  # the short top-level strings, checked at once
        for name in ("table", "shoe_id"):
            if isinstance(doc.get(name), str):
                _check_string(doc[name], name, name)
    if _needs_walk(raw):
        _check_log_values(doc)
    try:
        rules = validate(doc)
    except Rejected as rej:
        raise Refusal.HAND_LOG_REJECTED_GIVEN.error(
            article=_rejected_article(rej.field, profile), field=rej.field, f=rej.field, r=rej.reason
        ) from None
    # validate() refused anything but a JSON object
    doc = cast("dict[str, Any]", doc)
    _check_integer_ranges(doc, profile)
    _check_shoe_in_range(doc, profile)
    _check_amounts_fit(doc, rules, profile)
    return doc


def boxes_used(doc: dict[str, Any]) -> set[int]:
    """The boxes a log's rounds use (stakes, insurance, hands, settlements)."""
    used: set[int] = set()
    for rnd in doc.get("rounds", []):
        for key in ("boxes", "insurance", "actions", "settlements"):
            for item in rnd.get(key) or []:
                if isinstance(item, dict) and isinstance(item.get("box"), int):
                    used.add(item["box"])
    return used


def session_differences(
    log: Any, session: Any, maxima: Iterable[Decimal], boxes: Iterable[int] = ()
) -> list[dict[str, Any]]:
    """A log's limits, profile and house rules must be those in force at its session, and its
    boxes those marked on the table's layout; each difference is a discrepancy (FR art. 55-4,
    55-5; LU art. 32, 33)."""
    profile = session.profile
    out: list[dict[str, Any]] = []
    allowed_max = sorted({session.maximum, *maxima})
    if log.limits_min != session.minimum or log.limits_max not in allowed_max:
        out.append(
            {
                "code": "LIMITS_MISMATCH",
                "article": cite("game.limits", profile),
                "detail": {
                    "log": {"min": f"{log.limits_min:.2f}", "max": f"{log.limits_max:.2f}"},
                    "session": {"min": f"{session.minimum:.2f}", "max": [f"{m:.2f}" for m in allowed_max]},
                },
            }
        )
    if log.profile != profile:
        out.append(
            {
                "code": "PROFILE_MISMATCH",
                "article": cite("game.play", profile),
                "detail": {"log": log.profile, "session": profile},
            }
        )
    differing = {
        key: {"log": log.house_rules.get(key, default), "session": session.house_rules.get(key, default)}
        for key, default in HOUSE_RULE_DEFAULTS.items()
        if log.house_rules.get(key, default) != session.house_rules.get(key, default)
    }
    if differing:
        out.append(
            {
                "code": "HOUSE_RULES_MISMATCH",
                "article": cite("game.house_rules", profile),
                "detail": differing,
            }
        )
    if getattr(log, "shoe_id", None) is None:
        # the log names a shoe the session never filled: its cards come from no recorded decks
        out.append(
            {
                "code": "SHOE_UNKNOWN",
                "article": cite("depot.issue_and_unseal", profile),
                "detail": {"shoe_id": log.shoe_label, "session": session.pk},
            }
        )
    layout = session.table.boxes
    outside = sorted(b for b in set(boxes) if not 1 <= b <= layout)
    if outside:
        out.append(
            {
                "code": "BOX_NOT_ON_LAYOUT",
                "article": cite("table.layout", profile),
                "detail": {"boxes": outside, "layout": layout},
            }
        )
    return out
