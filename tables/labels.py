"""What each discrepancy code means, in the active language: the replay's (``tables.blackjack``)
and those found when a hand log is received against its session. One map for the admin, the
portal and the printed session report; the code itself never changes and stays shown small."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

DISCREPANCY_LABELS: dict[str, StrPromise] = {
    "BET_BELOW_MIN": _("Mise inférieure au minimum de la table"),
    "BET_ABOVE_MAX": _("Mises d'une case au-delà du maximum"),
    "BET_UNIT": _("Mise qui n'est pas un multiple de 0,10"),
    "TOO_MANY_BOXES": _("Joueur tenant trop de cases"),
    "SINGLE_PLAYER_ONE_BOX": _("Joueur seul sur une seule case"),
    "CARD_COUNT_EXCEEDED": _("Carte sortie plus de fois que le sabot n'en contient"),
    "INVALID_CARD": _("Code de carte invalide (manche non rejouée)"),
    "CUT_CARD_OVERRUN": _("Manche commencée après la carte d'arrêt"),
    "CUT_CARD_TOO_DEEP": _("Carte d'arrêt laissant moins d'un jeu"),
    "DECK_COUNT": _("Nombre de jeux différent de six"),
    "BURN_COUNT": _("Nombre de cartes brûlées différent de cinq"),
    "ROUND_NUMBERING": _("Numérotation des manches"),
    "ILLEGAL_INSURANCE": _("Assurance irrégulière"),
    "ILLEGAL_DOUBLE": _("Doublement irrégulier"),
    "ILLEGAL_SPLIT": _("Séparation irrégulière"),
    "TOO_MANY_SPLITS": _("Trop de séparations"),
    "ILLEGAL_SURRENDER": _("Abandon irrégulier"),
    "ILLEGAL_HIT": _("Carte tirée irrégulièrement"),
    "MISSING_DECISION": _("Décision manquante (manche interrompue)"),
    "EXTRA_DECISION": _("Décisions en trop"),
    "CARDS_UNUSED": _("Cartes sorties non utilisées"),
    "CARDS_SHORT": _("Cartes manquantes (manche interrompue)"),
    "SETTLEMENT_MISMATCH": _("Paiement différent du montant dû"),
    "SETTLEMENT_MISSING": _("Paiement non enregistré"),
    "SETTLEMENT_UNKNOWN": _("Paiement sans main, joueur ou pari correspondant"),
    "LIMITS_MISMATCH": _("Limites du journal différentes de celles de la séance"),
    "PROFILE_MISMATCH": _("Réglementation du journal différente de celle de la séance"),
    "HOUSE_RULES_MISMATCH": _("Règles de la maison du journal différentes de celles de la séance"),
    "SHOE_UNKNOWN": _("Sabot du journal inconnu de la séance"),
    "BOX_NOT_ON_LAYOUT": _("Case absente du tapis de la table"),
}


def discrepancy_label(code: str) -> str:
    """The label of ``code`` in the active language; an unknown code reads as itself."""
    label = DISCREPANCY_LABELS.get(code)
    return str(label) if label is not None else code
