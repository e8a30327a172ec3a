"""What the portal shows for a code: an audited act, a discrepancy, an object type.

The codes are the record's (``audit.record(action=...)``, the replay's
discrepancy codes): they never change and stay visible in a small caption; the
officer reads their French or English label. One map per kind, here, for every
page of the portal.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

#: Every act the services record in the audit chain (``action=`` of audit.record).
ACTIONS: dict[str, Any] = {
    "casino.settings_changed": _("Paramètres du casino modifiés"),
    "table.created": _("Table créée"),
    "depot.manufacturer_registered": _("Fabricant enregistré"),
    "depot.settings_changed": _("Paramètres du dépôt modifiés"),
    "depot.order_created": _("Bon de commande établi"),
    "depot.order_stamped": _("Bon de commande visé"),
    "depot.order_sent": _("Bon de commande envoyé"),
    "depot.reception_recorded": _("Prise en charge inscrite"),
    "depot.reception_stamped": _("Prise en charge visée"),
    "depot.key_handed_over": _("Clé du dépôt remise"),
    "depot.cabinet_opened": _("Armoire du dépôt ouverte"),
    "depot.decks_issued": _("Jeux remis à une table"),
    "depot.deck_checked": _("Jeu contrôlé à la table"),
    "depot.decks_returned": _("Jeux rendus au dépôt"),
    "depot.incident_reported": _("Incident signalé"),
    "depot.incident_closed": _("Incident clos"),
    "depot.destruction_recorded": _("Destruction inscrite"),
    "depot.destruction_stamped": _("Destruction visée"),
    "depot.correction_recorded": _("Correction inscrite"),
    "session.opened": _("Séance ouverte"),
    "session.advance_added": _("Avance inscrite"),
    "session.maximum_changed": _("Maximum de la table modifié"),
    "session.interrupted": _("Séance interrompue"),
    "session.resumed": _("Séance reprise"),
    "session.closed": _("Séance clôturée"),
    "control_register.day_closed": _("Journée du registre de contrôle arrêtée"),
    "control_register.corrected": _("Registre de contrôle corrigé"),
    "advance_book.corrected": _("Carnet d'avances corrigé"),
    "shoe.filled": _("Sabot garni"),
    "hand_log.received": _("Journal de mains reçu"),
    "hand_log.replayed": _("Journal de mains rejoué"),
}

#: Every discrepancy code of the replay (tables.blackjack) and of a log against its session.
DISCREPANCIES: dict[str, Any] = {
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


def action_label(code: str) -> str:
    """The label of an audited act; an unknown act reads as its code."""
    label = ACTIONS.get(code)
    return str(label) if label is not None else code


def discrepancy_label(code: str) -> str:
    label = DISCREPANCIES.get(code)
    return str(label) if label is not None else code


def object_label(object_type: str) -> str:
    """``cards_registry.cabinetopening`` -> the model's verbose name in the active language."""
    from django.apps import apps

    try:
        model = apps.get_model(object_type)
    except (LookupError, ValueError):
        return object_type
    return str(model._meta.verbose_name)
