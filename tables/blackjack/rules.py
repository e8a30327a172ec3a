"""Regulation profiles, house rules and the articles each check cites.

docs/hand-log.md §4 (profiles and house rules) and §6 ("Articles"):

* FR — arrêté du 14 mai 2007, art. 55-4 (game) and 55-5 (limits), art. 40
  (extra or foreign card);
* LU — règlement grand-ducal du 12 février 1979, art. 32 (game), art. 33
  (limits), art. 7 (extra or foreign card).

Both profiles: six decks, five burned cards, dealer stands on all 17s,
blackjack pays 3 to 2, insurance 2 to 1, a blackjack is never doubled, split
aces take one card each and 21 on a split hand is paid even money.

This module is the one place where the house-rule keys, their defaults, which
of them a house may change under each profile, and the game's articles are
written; the casino's settings, their checks, admin and services, and the
regulation citations of the project derive from it.
"""

from __future__ import annotations

from typing import Any

#: The shoe every log should declare (FR art. 55-4, LU art. 32 (shoe)).
STANDARD_DECKS = 6
STANDARD_BURNED = 5
CARDS_PER_DECK = 52

PROFILES = ("FR", "LU")

#: Boxes of a layout, numbered 1 to MAX_BOXES from the dealer's left (hand-log.md §2).
MAX_BOXES = 7

#: The house rules a house may set, with their defaults (the same under both
#: profiles), in the order of hand-log.md §4.
HOUSE_RULE_DEFAULTS: dict[str, bool | int | None] = {
    "double_after_split": True,
    "split_identical_only": False,
    "max_hands_after_split": None,
    "resplit_aces": False,
    "surrender": False,
    "hit_on_21_forbidden": False,
    "single_player_two_boxes": False,
    "max_boxes_per_player": None,
}
HOUSE_RULE_KEYS: tuple[str, ...] = tuple(HOUSE_RULE_DEFAULTS)

#: The integer house rules (null: no limit) and their smallest value (§6).
INTEGER_RULE_MINIMUM: dict[str, int] = {"max_hands_after_split": 2, "max_boxes_per_player": 1}

BOOLEAN_RULES = frozenset(k for k in HOUSE_RULE_KEYS if k not in INTEGER_RULE_MINIMUM)

#: Defaults of each profile (hand-log.md §4): ``double_totals``, which no
#: house may change (None = "any"), then the house rules.
DEFAULTS: dict[str, dict[str, Any]] = {
    "FR": {"double_totals": None, **HOUSE_RULE_DEFAULTS},
    "LU": {"double_totals": frozenset((9, 10, 11)), **HOUSE_RULE_DEFAULTS},
}

#: Keys a house may set, per profile (hand-log.md §4, last column): the game
#: rules under both, the surrender and the boxes per player under FR only.
CHANGEABLE: dict[str, frozenset[str]] = {
    "FR": frozenset(HOUSE_RULE_KEYS),
    "LU": frozenset(("double_after_split", "split_identical_only", "max_hands_after_split", "resplit_aces")),
}

#: House-rule key -> the profiles under which a house may change it.
HOUSE_RULE_PROFILES: dict[str, frozenset[str]] = {
    key: frozenset(p for p in PROFILES if key in CHANGEABLE[p]) for key in HOUSE_RULE_KEYS
}

#: Article strings per profile and subject (hand-log.md §6 "Articles").
GAME_ARTICLES: dict[str, dict[str, str]] = {
    "FR": {
        "play": "FR art. 55-4 1°",
        "insurance": "FR art. 55-4 2°",
        "pairs": "FR art. 55-4 3°",
        "doubles": "FR art. 55-4 4°",
        "house": "FR art. 55-4 (house rules)",
        "shoe": "FR art. 55-4 (shoe)",
        "limits": "FR art. 55-5",
        "cards": "FR art. 40",
    },
    "LU": {
        "play": "LU art. 32 1.",
        "insurance": "LU art. 32 2.",
        "pairs": "LU art. 32 3.",
        "doubles": "LU art. 32 4.",
        # LU has no house-rule article: a house-rule code cites the game's 1.
        "house": "LU art. 32 1.",
        "shoe": "LU art. 32 (shoe)",
        "limits": "LU art. 33",
        "cards": "LU art. 7",
    },
}

#: Subject of each discrepancy code (hand-log.md §3.6, §3.7, §6).
CODE_SUBJECT: dict[str, str] = {
    "BET_BELOW_MIN": "limits",
    "BET_ABOVE_MAX": "limits",
    "BET_UNIT": "limits",
    "TOO_MANY_BOXES": "house",
    "SINGLE_PLAYER_ONE_BOX": "house",
    "CARD_COUNT_EXCEEDED": "cards",
    "INVALID_CARD": "cards",
    "CUT_CARD_OVERRUN": "shoe",
    "CUT_CARD_TOO_DEEP": "shoe",
    "DECK_COUNT": "shoe",
    "BURN_COUNT": "shoe",
    "ROUND_NUMBERING": "shoe",
    "ILLEGAL_INSURANCE": "insurance",
    "ILLEGAL_DOUBLE": "doubles",
    "ILLEGAL_SPLIT": "pairs",
    "TOO_MANY_SPLITS": "pairs",
    "ILLEGAL_SURRENDER": "house",
    "ILLEGAL_HIT": "house",
    "MISSING_DECISION": "play",
    "EXTRA_DECISION": "play",
    "CARDS_UNUSED": "play",
    "CARDS_SHORT": "play",
    "SETTLEMENT_MISMATCH": "play",
    "SETTLEMENT_MISSING": "play",
    "SETTLEMENT_UNKNOWN": "play",
}

DISCREPANCY_CODES: tuple[str, ...] = tuple(CODE_SUBJECT)


def article(profile: str, subject: str) -> str:
    """The article string a check on ``subject`` cites under ``profile``."""
    return GAME_ARTICLES[profile][subject]


def articles_for(profile: str) -> dict[str, str]:
    """Code -> article for one profile (the replay's lookup table)."""
    texts = GAME_ARTICLES[profile]
    return {code: texts[subject] for code, subject in CODE_SUBJECT.items()}


class Rules:
    """The rules in force for one shoe: a profile and its house rules."""

    __slots__ = ("profile", "double_totals", *HOUSE_RULE_KEYS, "articles", "texts")

    profile: str
    double_totals: frozenset[int] | None
    double_after_split: bool
    split_identical_only: bool
    max_hands_after_split: int | None
    resplit_aces: bool
    surrender: bool
    hit_on_21_forbidden: bool
    single_player_two_boxes: bool
    max_boxes_per_player: int | None
    articles: dict[str, str]
    texts: dict[str, str]

    def __init__(self, profile: str, house_rules: dict[str, Any] | None = None) -> None:
        values = dict(DEFAULTS[profile])
        if house_rules:
            values.update(house_rules)
        self.profile = profile
        for key, value in values.items():
            setattr(self, key, value)
        self.articles = articles_for(profile)
        self.texts = GAME_ARTICLES[profile]

    def as_dict(self) -> dict[str, Any]:
        """The rules as plain data (``double_totals`` as "any" or a list)."""
        out: dict[str, Any] = {"profile": self.profile}
        for key in DEFAULTS[self.profile]:
            out[key] = getattr(self, key)
        dt = out["double_totals"]
        out["double_totals"] = "any" if dt is None else sorted(dt)
        return out


_RULES_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...]], Rules] = {}


def rules_for(profile: str, house_rules: dict[str, Any]) -> Rules:
    """Shared, cached :class:`Rules` (logs of one table repeat the same rules)."""
    key = (profile, tuple(sorted(house_rules.items())))
    rules = _RULES_CACHE.get(key)
    if rules is None:
        if len(_RULES_CACHE) > 1024:
            _RULES_CACHE.clear()
        rules = _RULES_CACHE[key] = Rules(profile, house_rules)
    return rules
