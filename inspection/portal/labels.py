"""What the portal shows for a code: an audited act, a discrepancy, an object type.

The codes are the record's (``audit.record(action=...)``, the replay's
discrepancy codes): they never change and stay visible in a small caption; the
officer reads their French or English label. One map per kind, here, for every
page of the portal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy as _

from audit.actions import DECLARED_LABELS, Action
from casino_ops.admin_display import object_model
from tables.selectors import DISCREPANCY_LABELS
from tables.selectors import discrepancy_label as tables_discrepancy_label

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: The label of every act the record knows (each member of :class:`audit.actions.Action`).
ACTIONS: dict[str, StrOrPromise] = {
    Action.CASINO_SETTINGS_CHANGED: _("Paramètres du casino modifiés"),
    Action.BOOK_AMENDED: _("Registre modifié par une migration : lignes liées de nouveau"),
    Action.TABLE_CREATED: _("Table créée"),
    Action.DEPOT_MANUFACTURER_REGISTERED: _("Fabricant enregistré"),
    Action.DEPOT_SETTINGS_CHANGED: _("Paramètres du dépôt modifiés"),
    Action.DEPOT_MAKER_APPROVAL_STAMPED: _("Agrément d'un fabricant visé"),
    Action.DEPOT_SIXAIN_CAP_STAMPED: _("Nombre de sixains fixé par le ministère visé"),
    Action.DEPOT_ORDER_CREATED: _("Bon de commande établi"),
    Action.DEPOT_ORDER_STAMPED: _("Bon de commande visé"),
    Action.DEPOT_ORDER_SENT: _("Bon de commande envoyé"),
    Action.DEPOT_RECEPTION_RECORDED: _("Prise en charge inscrite"),
    Action.DEPOT_RECEPTION_STAMPED: _("Prise en charge visée"),
    Action.DEPOT_KEY_HANDED_OVER: _("Clé du dépôt remise"),
    Action.DEPOT_CABINET_OPENED: _("Armoire du dépôt ouverte"),
    Action.DEPOT_DECKS_ISSUED: _("Jeux remis à une table"),
    Action.DEPOT_DECK_CHECKED: _("Jeu contrôlé à la table"),
    Action.DEPOT_DECKS_RETURNED: _("Jeux rendus au dépôt"),
    Action.DEPOT_INCIDENT_REPORTED: _("Incident signalé"),
    Action.DEPOT_INCIDENT_CLOSED: _("Incident clos"),
    Action.DEPOT_DESTRUCTION_RECORDED: _("Destruction inscrite"),
    Action.DEPOT_DESTRUCTION_STAMPED: _("Destruction visée"),
    Action.DEPOT_CORRECTION_RECORDED: _("Correction inscrite"),
    Action.SESSION_OPENED: _("Séance ouverte"),
    Action.SESSION_ADVANCE_ADDED: _("Avance inscrite"),
    Action.SESSION_MAXIMUM_CHANGED: _("Maximum de la table modifié"),
    Action.SESSION_INTERRUPTED: _("Séance interrompue"),
    Action.SESSION_RESUMED: _("Séance reprise"),
    Action.SESSION_CLOSED: _("Séance clôturée"),
    Action.CONTROL_REGISTER_DAY_CLOSED: _("Journée du registre de contrôle arrêtée"),
    Action.CONTROL_REGISTER_DAY_STAMPED: _("Journée du registre de contrôle visée"),
    Action.CONTROL_REGISTER_CORRECTED: _("Registre de contrôle corrigé"),
    Action.ADVANCE_BOOK_CORRECTED: _("Carnet d'avances corrigé"),
    Action.SHOE_FILLED: _("Sabot garni"),
    Action.HAND_LOG_RECEIVED: _("Journal de mains reçu"),
    Action.HAND_LOG_REPLAYED: _("Journal de mains rejoué"),
    Action.DEPOT_OPENING_DEMANDED: _("Ouverture de l'armoire du dépôt demandée"),
    Action.DEPOT_INVENTORY_RECORDED: _("Inventaire du dépôt inscrit"),
    Action.DEPOT_DECKS_DECLARED_OUT_OF_USE: _("Jeux déclarés hors d'usage"),
    Action.DEPOT_INCIDENT_REPORT_RECORDED: _("Rapport d'incident inscrit"),
    Action.TABLE_IN_SERVICE: _("Table mise en service"),
    Action.TABLE_OUT_OF_SERVICE: _("Table retirée du service"),
    Action.DELEGATION_GRANTED: _("Délégation accordée"),
    Action.AUTHORISED_MINIMUM_RECORDED: _("Mise minimale autorisée inscrite"),
    Action.AUTHORISED_MINIMUM_STAMPED: _("Mise minimale autorisée visée"),
    Action.MINISTRY_NOTICE_RECORDED: _("Information du ministre d'un relèvement du minimum inscrite"),
    Action.DISCREPANCY_ACKNOWLEDGED: _("Anomalie prise en compte"),
    Action.HOUSE_TIPS_COUNTED: _("Pourboires comptés"),
    Action.HOUSE_ORPHAN_RECORDED: _("Orphelin inscrit"),
    Action.HOUSE_ORPHAN_REPAID: _("Orphelin remboursé"),
    Action.HOUSE_ORPHANS_TRANSFERRED: _("Orphelins versés"),
    Action.HOUSE_APPROVAL_RECORDED: _("Agrément inscrit"),
    Action.HOUSE_APPROVAL_ENDED: _("Agrément terminé"),
    Action.HOUSE_HOURS_NOTIFIED: _("Heures des séances notifiées"),
    Action.HOUSE_EARLY_STOP_RECORDED: _("Arrêt anticipé de séance inscrit"),
    Action.HOUSE_BANK_FAILURE_RECORDED: _("Défaillance de la contrepartie inscrite"),
    Action.HOUSE_NEW_AUTHORISATION_RECORDED: _("Nouvelle autorisation inscrite"),
    Action.HOUSE_DEVICE_REGISTERED: _("Sabot inscrit"),
    Action.HOUSE_DEVICE_ASSIGNED: _("Sabot affecté à une table"),
    Action.HOUSE_DEVICE_RETURNED: _("Sabot rentré à l'armoire"),
    Action.HOUSE_EXCLUSION_RECORDED: _("Exclusion ministérielle inscrite"),
    Action.HOUSE_OWN_EXCLUSION_RECORDED: _("Exclusion par la direction inscrite"),
    Action.HOUSE_EXCLUSION_NOTIFIED: _("Exclusion notifiée au ministre"),
    Action.HOUSE_EXCLUSION_LIFTED: _("Exclusion levée (radiation)"),
    Action.HOUSE_ENTRY_REFUSED: _("Entrée refusée à un exclu"),
    Action.HOUSE_CLOSING_RECORDED: _("Cessation de l'exploitation inscrite"),
    Action.HOUSE_CLOSING_STAMPED: _("Cessation de l'exploitation visée par le fonctionnaire"),
    Action.HOUSE_TABLE_NOTICE_POSTED: _("Avis de table apposé"),
    Action.HOUSE_ROLE_GRANTED: _("Rôle attribué"),
    Action.HOUSE_ROLE_WITHDRAWN: _("Rôle retiré"),
    Action.HOUSE_PERSON_RENAMED: _("Nom d'une personne changé"),
    Action.OFFICER_ENROLLED: _("Habilitation d'un officier par l'autorité enregistrée"),
    Action.OFFICER_REVOKED: _("Révocation d'un officier par l'autorité enregistrée"),
    Action.HOUSE_SUPERUSER_CREATED: _("Superutilisateur créé sur une base en service"),
    Action.INSPECTION_RUN: _("Inspection des livres faite"),
    Action.REGISTER_ISSUED: _("Registre émis (avant sa mise en page)"),
    Action.REGISTER_PRINTED: _("Registre imprimé et signé"),
    Action.FORGED_EVENT: _("Événement falsifié (jamais scellé)"),
    Action.CHECKPOINT_REFUSED: _("Point de contrôle refusé : registres différents de la chaîne"),
    Action.CLOCK_BACKWARDS: _("Horloge du serveur revenue en arrière"),
    Action.WITNESS_REFUSED: _("Point de contrôle refusé par un témoin de l'autorité"),
    Action.WITNESS_UNREACHABLE: _("Témoin de l'autorité injoignable"),
    Action.WITNESS_RETIRED: _("Témoin de l'autorité retiré (il a perdu son état)"),
    Action.SEALING_INTERRUPTED: _("Scellement du journal interrompu"),
}

#: Every discrepancy code of the replay and of a log against its session (the tables' own).
DISCREPANCIES: dict[str, Any] = DISCREPANCY_LABELS


def action_label(code: str) -> str:
    """The label of an audited act (one of :data:`ACTIONS`, or the label an act declared beside
    its service gave its event); an unknown act reads as its code."""
    label = ACTIONS.get(code) or DECLARED_LABELS.get(str(code))
    return str(label) if label is not None else code


def discrepancy_label(code: str) -> str:
    return tables_discrepancy_label(code)


def object_label(object_type: str) -> str:
    """``cards_registry.cabinetopening`` -> the model's verbose name in the active language."""
    model = object_model(object_type)
    return object_type if model is None else str(model._meta.verbose_name)
