"""Checks on the casino's own settings (hand-log §4; FR art. 55-4, LU art. 32), and the one
rule every book's correction obeys (FR art. 68)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from tables.blackjack.rules import HOUSE_RULE_DEFAULTS, INTEGER_RULE_MINIMUM

from .models import HOUSE_RULE_KEYS
from .regulations import Profile, RegulationError, cite


def check_casino_settings(values: dict[str, Any]) -> None:
    """Refuse settings the profile does not allow; the error names the field."""
    profile = values.get("profile")
    if profile not in Profile.values:
        raise RegulationError(
            "UNKNOWN_PROFILE",
            _("Réglementation inconnue : %(p)s (FR ou LU).") % {"p": profile},
            field="profile",
        )
    minimum = values.get("authorised_min_stake")
    if minimum is None or Decimal(minimum) <= 0 or Decimal(minimum) % Decimal("0.10"):
        raise RegulationError(
            "AUTHORISED_MINIMUM_INVALID",
            _("La mise minimale autorisée doit être positive et un multiple de 0,10 €."),
            cite("limits.minimum_maximum", profile),
            field="authorised_min_stake",
        )
    for key, profiles in HOUSE_RULE_KEYS.items():
        value = values.get(key, HOUSE_RULE_DEFAULTS[key])
        if profile not in profiles and value != HOUSE_RULE_DEFAULTS[key]:
            raise RegulationError(
                "HOUSE_RULE_NOT_ALLOWED",
                _(
                    "La règle « %(key)s » ne peut pas être modifiée par le règlement intérieur "
                    "sous la réglementation %(profile)s."
                )
                % {"key": key, "profile": profile},
                cite("game.house_rules", profile),
                field=key,
            )
    hands = values.get("max_hands_after_split")
    if hands is not None and int(hands) < INTEGER_RULE_MINIMUM["max_hands_after_split"]:
        raise RegulationError(
            "HOUSE_RULE_INVALID",
            _("Le nombre maximal de mains après séparation est au moins 2."),
            cite("game.pairs", profile),
            field="max_hands_after_split",
        )
    boxes = values.get("max_boxes_per_player")
    if boxes is not None and int(boxes) < INTEGER_RULE_MINIMUM["max_boxes_per_player"]:
        raise RegulationError(
            "HOUSE_RULE_INVALID",
            _("Le nombre maximal de cases par joueur est au moins 1."),
            cite("game.house_rules", profile),
            field="max_boxes_per_player",
        )


def check_approval_in_words(approval: str, profile: str, rule: str = "books.no_erasure") -> None:
    """A correction of any book is approved in words by the director (FR art. 68): the
    depot's and the tables' corrections alike (``rule``: the book's own, cited under LU)."""
    if not str(approval or "").strip():
        raise RegulationError(
            "APPROVAL_IN_WORDS",
            _("La correction est approuvée en toutes lettres par le directeur."),
            cite(rule, profile),
            field="approval",
        )


def check_counter_not_signer(counter: Any, signer: Any, profile: str, *, field: str) -> None:
    """The same person never both counts and signs one advance, refill or closing (FR art. 69;
    LU art. 10: the croupier counts, the director or a committee member signs)."""
    if counter is None or signer is None:
        return
    if getattr(counter, "pk", counter) == getattr(signer, "pk", signer):
        raise RegulationError(
            "COUNTER_IS_SIGNER",
            _(
                "Celui qui compte ne signe pas : le croupier compte, le directeur ou un membre du "
                "comité de direction signe."
            ),
            cite("people.incompatible", profile),
            field=field,
        )
