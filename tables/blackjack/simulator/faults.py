"""The simulator's faults: which can be injected, in which forms, and those written
into a finished round of the log (see the package docstring)."""

from __future__ import annotations

import random
from typing import Any

from ..parse import cents, format_cents
from ..rules import CHANGEABLE, DISCREPANCY_CODES

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
