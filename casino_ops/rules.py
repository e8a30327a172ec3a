"""Checks on the casino's own settings (hand-log §4; FR art. 55-4, LU art. 32), and the one
rule every book's correction obeys (FR art. 68)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from casino_ops.refusals import Refusal
from tables.blackjack.rules import HOUSE_RULE_DEFAULTS, INTEGER_RULE_MINIMUM

from .models import HOUSE_RULE_KEYS
from .regulations import Profile, cite


def check_casino_settings(values: dict[str, Any]) -> None:
    """Refuse settings the profile does not allow; the error names the field."""
    profile = values.get("profile")
    if profile not in Profile.values:
        raise Refusal.UNKNOWN_PROFILE.error(p=profile)
    minimum = values.get("authorised_min_stake")
    if minimum is None or Decimal(minimum) <= 0 or Decimal(minimum) % Decimal("0.10"):
        raise Refusal.AUTHORISED_MINIMUM_INVALID.error(profile, field="authorised_min_stake")
    for key, profiles in HOUSE_RULE_KEYS.items():
        value = values.get(key, HOUSE_RULE_DEFAULTS[key])
        if profile not in profiles and value != HOUSE_RULE_DEFAULTS[key]:
            raise Refusal.HOUSE_RULE_NOT_ALLOWED.error(
                profile, field=key, values={"key": key, "profile": profile}
            )
    hands = values.get("max_hands_after_split")
    if hands is not None and int(hands) < INTEGER_RULE_MINIMUM["max_hands_after_split"]:
        raise Refusal.HOUSE_RULE_INVALID.error(profile)
    boxes = values.get("max_boxes_per_player")
    if boxes is not None and int(boxes) < INTEGER_RULE_MINIMUM["max_boxes_per_player"]:
        raise Refusal.HOUSE_RULE_INVALID_GAME_HOUSE_RULES.error(profile)


def check_approval_in_words(approval: str, profile: str, rule: str = "books.no_erasure") -> None:
    """A correction of any book is approved in words by the director (FR art. 68): the
    depot's and the tables' corrections alike (``rule``: the book's own, cited under LU)."""
    if not str(approval or "").strip():
        raise Refusal.APPROVAL_IN_WORDS.error(article=cite(rule, profile))


def check_counter_not_signer(counter: Any, signer: Any, profile: str, *, field: str) -> None:
    """The same person never both counts and signs one advance, refill or closing (FR art. 69;
    LU art. 10: the croupier counts, the director or a committee member signs)."""
    if counter is None or signer is None:
        return
    if getattr(counter, "pk", counter) == getattr(signer, "pk", signer):
        raise Refusal.COUNTER_IS_SIGNER.error(profile, field=field)
