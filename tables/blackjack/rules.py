"""Regulation profiles, house rules and the articles each check cites.

hand-log.md §4 (profiles and house rules) and regulations.md:

* FR — arrêté du 14 mai 2007, art. 55-4 (game) and 55-5 (limits), art. 40
  (extra or foreign card);
* LU — règlement grand-ducal du 12 février 1979, art. 32 (game), art. 33
  (limits), art. 7 (extra or foreign card).

Both profiles: six decks, five burned cards, dealer stands on all 17s,
blackjack pays 3 to 2, insurance 2 to 1, a blackjack is never doubled, split
aces take one card each and 21 on a split hand is paid even money.
"""

from __future__ import annotations

from typing import Any

#: The shoe every log should declare (FR art. 55-4, LU art. 32 (shoe)).
STANDARD_DECKS = 6
STANDARD_BURNED = 5
CARDS_PER_DECK = 52

PROFILES = ("FR", "LU")

#: Defaults of each profile (hand-log.md §4). ``double_totals`` None = "any".
DEFAULTS: dict[str, dict[str, Any]] = {
    "FR": {
        "double_totals": None,
        "double_after_split": True,
        "split_identical_only": False,
        "max_hands_after_split": None,
        "resplit_aces": False,
        "surrender": False,
        "hit_on_21_forbidden": False,
        "single_player_two_boxes": False,
        "max_boxes_per_player": None,
    },
    "LU": {
        "double_totals": frozenset((9, 10, 11)),
        "double_after_split": True,
        "split_identical_only": False,
        "max_hands_after_split": None,
        "resplit_aces": False,
        "surrender": False,
        "hit_on_21_forbidden": False,
        "single_player_two_boxes": False,
        "max_boxes_per_player": None,
    },
}

#: Keys a house may set, per profile (hand-log.md §4, last column).
CHANGEABLE: dict[str, frozenset[str]] = {
    "FR": frozenset(
        (
            "double_after_split",
            "split_identical_only",
            "max_hands_after_split",
            "resplit_aces",
            "surrender",
            "hit_on_21_forbidden",
            "single_player_two_boxes",
            "max_boxes_per_player",
        )
    ),
    "LU": frozenset(("double_after_split", "split_identical_only", "max_hands_after_split", "resplit_aces")),
}

BOOLEAN_RULES = frozenset(
    (
        "double_after_split",
        "split_identical_only",
        "resplit_aces",
        "surrender",
        "hit_on_21_forbidden",
        "single_player_two_boxes",
    )
)

#: Article strings per profile and subject (hand-log.md §6 "Articles").
_ARTICLE_TEXT: dict[str, dict[str, str]] = {
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
    return _ARTICLE_TEXT[profile][subject]


def articles_for(profile: str) -> dict[str, str]:
    """Code -> article for one profile (the replay's lookup table)."""
    texts = _ARTICLE_TEXT[profile]
    return {code: texts[subject] for code, subject in CODE_SUBJECT.items()}


class Rules:
    """The rules in force for one shoe: a profile and its house rules."""

    __slots__ = (
        "profile",
        "double_totals",
        "double_after_split",
        "split_identical_only",
        "max_hands_after_split",
        "resplit_aces",
        "surrender",
        "hit_on_21_forbidden",
        "single_player_two_boxes",
        "max_boxes_per_player",
        "articles",
        "texts",
    )

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
        self.texts = _ARTICLE_TEXT[profile]

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
