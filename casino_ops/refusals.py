"""Every refusal of a regulated act, declared: its code, the rule whose article it cites, its
message and the field it is about.

A rule or a service refuses with ``raise Refusal.X.error(profile, field=…, **values)``: the
article is ``cite(rule, profile)`` of the member's first rule (``rule=`` names another of its
rules), the message its French template filled in with ``values`` (``values={…}`` for a name
that is a keyword of ``error`` or of Python), in the user's language, and the field the
member's unless ``field=`` names another. Where a rule function is given its article by its
caller (the book it checks for), it passes it on: ``article=article``; the member lists the
rules its callers cite, ``GIVEN`` when the article is whatever rule the refusal is about. A
message said differently at one place (the same code, another sentence) is given there:
``message=_("…")``, filled in with the same values; the member's template is the one the
table shows.

A code raised under different articles in different places has one member per place's
articles, named after the code and the rule (``ALREADY_STAMPED_CONTROL_REGISTER``); its
``code`` is the code. ``docs/refusals.md`` is made from this registry
(:mod:`casino_ops.refusal_table`), and no module of the apps writes a refusal's code
itself (``tests/casino_ops/test_refusal_registry.py``).

A new act's refusal may be declared beside the rule that raises it instead (:func:`declare`,
in the rule's module): a member of :class:`Refusal` all the same, made at start-up and kept in
:data:`DECLARED_REFUSALS`; the table lists it under that module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .plugins import Registry, declare_member
from .regulations import ARTICLES, RegulationError, cite

#: the article is the one of the rule the refusal is about, given by the rule's caller
GIVEN = None
#: cites no article (a refusal of the tooling, not of the regulation)
UNCITED = ""

_SAME: Any = object()


@dataclass(frozen=True, eq=False)
class Said:
    """How a refusal is said: its message, the rules whose article it cites, its field."""

    message: Promise | str
    rules: tuple[str | None, ...]
    field: str | None = None
    #: the code, when the member's name is not the code itself
    code: str = ""
    #: the module that declares it, for a refusal declared beside its rules (:func:`declare`)
    declared_in: str = ""

    def __post_init__(self) -> None:
        unknown = [r for r in self.rules if r not in (GIVEN, UNCITED) and r not in ARTICLES]
        if unknown or not self.rules:
            raise ValueError(f"a refusal cites rules without an article: {unknown or self.rules}")


class Refusal(Enum):
    """Every refusal the apps raise (see the module's docstring)."""

    ADVANCE_FIXED_FOR_YEAR = Said(
        _(
            "L'avance est fixée pour l'exercice (%(y)s pour un minimum de %(ym)s) ; avec un "
            "minimum de %(m)s elle est de %(e)s."
        ),
        ("advance.fixed_for_year",),
        field="advance_amount",
    )
    ADVANCE_NOT_EQUAL = Said(
        _("Chaque nouvelle avance est égale à l'avance initiale : %(a)s."),
        ("advance.book",),
        field="amount",
    )
    ADVANCE_NOT_PROPORTIONAL = Said(
        _("Le minimum passe de %(o)s à %(m)s dans la journée : l'avance suit en proportion, soit %(e)s."),
        ("limits.minimum_change",),
        field="advance_amount",
    )
    ADVANCE_TOO_SMALL = Said(
        _("L'avance au black-jack est d'au moins 3 000 fois le minimum des mises : %(e)s."),
        ("advance.amount",),
        field="advance_amount",
    )
    ADVANCE_VARIES_WITHIN_DAY = Said(
        _("L'avance d'une table ne varie pas au cours de la journée : %(e)s."),
        ("advance.book",),
        field="advance_amount",
    )
    ALREADY_STAMPED = Said(
        "",
        (GIVEN,),
    )
    ALREADY_STAMPED_CONTROL_REGISTER = Said(
        _("La journée du %(d)s est déjà visée."),
        ("control_register",),
        field="control_day",
        code="ALREADY_STAMPED",
    )
    ALREADY_STAMPED_HOUSE_CLOSING = Said(
        _("La cessation est déjà visée."),
        ("house.closing",),
        code="ALREADY_STAMPED",
    )
    ALREADY_STAMPED_LIMITS_AUTHORISED_MINIMUM = Said(
        _("Cet acte est déjà visé."),
        ("limits.authorised_minimum",),
        field="act",
        code="ALREADY_STAMPED",
    )
    AMOUNT_INVALID = Said(
        _("Le montant doit être positif (reçu : %(v)s)."),
        (GIVEN,),
    )
    AMOUNT_INVALID_BOOKS_NO_ERASURE = Said(
        _("Montant invalide."),
        ("books.no_erasure",),
        field="result",
        code="AMOUNT_INVALID",
    )
    AMOUNT_INVALID_SESSION_INTERRUPTION = Said(
        _("Le montant « %(value)s » n'est pas une somme positive en centimes."),
        (
            "session.interruption",
            "house.tips",
            "house.orphans",
        ),
        code="AMOUNT_INVALID",
    )
    AMOUNT_ZERO = Said(
        _("Le montant ne peut pas être nul."),
        (
            "session.interruption",
            "house.tips",
            "house.orphans",
        ),
    )
    APPROVAL_ALREADY_ENDED = Said(
        _("Cet agrément a déjà pris fin le %(day)s."),
        (GIVEN,),
        field="approval",
    )
    APPROVAL_ALREADY_IN_FORCE = Said(
        _("%(name)s a déjà un agrément en vigueur pour cette fonction (%(ref)s)."),
        (GIVEN,),
        field="person",
    )
    APPROVAL_BEFORE_REVOCATION = Said(
        _(
            "%(name)s a été révoqué le %(ended)s (%(ref)s) : un nouvel agrément ne peut être "
            "daté de ce jour ou d'avant, la révocation n'est jamais effacée."
        ),
        ("house.approvals",),
        field="approved_on",
    )
    APPROVAL_DATES = Said(
        _("La fin de validité de l'agrément précède son début."),
        ("depot.approved_manufacturer",),
        field="valid_until",
    )
    APPROVAL_END_BEFORE_START = Said(
        _("La fin ne peut précéder l'agrément (%(day)s)."),
        (GIVEN,),
        field="ended_on",
    )
    APPROVAL_END_NOT_NOTIFIED = Said(
        _("Une démission ou un renvoi est notifié au Ministre de la Justice : indiquez la date de l'avis."),
        (GIVEN,),
        field="minister_notified_on",
    )
    APPROVAL_END_UNKNOWN = Said(
        _("Fin inconnue « %(k)s »."),
        (GIVEN,),
        field="kind",
    )
    APPROVAL_FUNCTION_UNKNOWN = Said(
        _("Fonction inconnue « %(f)s »."),
        ("house.approvals",),
        field="function",
    )
    APPROVAL_IN_WORDS = Said(
        _("La correction est approuvée en toutes lettres par le directeur."),
        (GIVEN,),
        field="approval",
    )
    APPROVAL_JOB_REQUIRED = Said(
        _("Indiquez l'emploi précisé au contrat."),
        (GIVEN,),
        field="job",
    )
    APPROVAL_NOTIFIED_BEFORE_END = Said(
        _("L'avis au ministre suit la démission ou le renvoi."),
        (GIVEN,),
        field="minister_notified_on",
    )
    APPROVAL_REFERENCE_MISSING = Said(
        _("L'agrément se recopie avec la référence que le ministère lui a donnée, non « %(r)s »."),
        ("depot.approved_manufacturer",),
        field="approval_reference",
    )
    AUDIT_BOOKS_FORGED = Said(
        _(
            "Les registres diffèrent de ce que la chaîne d'audit a scellé "
            "(%(problems)s%(more)s) : aucun point de contrôle n'est signé par-dessus ; une "
            "alarme est scellée dans la chaîne."
        ),
        ("books.no_erasure",),
    )
    AUDIT_CHAIN_BROKEN = Said(
        _("La chaîne d'audit ne se vérifie pas (%(reason)s) : aucun point de contrôle n'est signé."),
        ("books.no_erasure",),
    )
    AUDIT_EVENT_UNKNOWN = Said(
        _("Aucun événement scellé n° %(seq)s."),
        ("books.no_erasure",),
        field="seq",
    )
    AUDIT_MERKLE_TAMPERED = Said(
        _(
            "Le nœud %(level)s/%(index)s de l'arbre de Merkle ne correspond plus aux "
            "événements : aucun point de contrôle n'est signé."
        ),
        ("books.no_erasure",),
    )
    AUTHORISATION_DATE = Said(
        _("La nouvelle autorisation est accordée après la défaillance, au plus tard aujourd'hui."),
        ("house.bank",),
        field="granted_on",
    )
    AUTHORISATION_RECORDED = Said(
        _("La nouvelle autorisation est déjà inscrite."),
        ("house.bank",),
        field="failure",
    )
    AUTHORISED_MINIMUM_BY_DECREE = Said(
        _(
            "La mise minimale autorisée est celle de l'arrêté d'autorisation : elle ne "
            "change que par un acte citant l'arrêté (référence, date d'entrée en vigueur), "
            "visé par un fonctionnaire."
        ),
        ("limits.minimum_maximum",),
        field="authorised_min_stake",
    )
    AUTHORISED_MINIMUM_INVALID = Said(
        _("La mise minimale autorisée doit être positive et un multiple de 0,10 €."),
        (
            "limits.minimum_maximum",
            "limits.authorised_minimum",
        ),
    )
    AUTHORITY_NOT_CONFIGURED = Said(
        _("Le certificat de l'autorité (OFFICER_AUTHORITY_CERTIFICATE) n'est pas configuré."),
        ("officers.signature",),
        field="document",
    )
    BAND_NOT_INTACT = Said(
        _("La bande de contrôle d'un jeu neuf doit être intacte : signalez l'incident à l'officier."),
        ("depot.incident",),
        field="band_intact",
    )
    BANK_FAILURE_COUNT_MISSING = Said(
        _(
            "Toutes les tables s'arrêtent : indiquez l'encaisse comptée à la table %(t)s, "
            "inscrite comme en fin de partie."
        ),
        ("session.interruption",),
        field="counts",
    )
    BANK_FAILURE_NO_AUTHORISATION = Said(
        _(
            "Depuis la défaillance de la contrepartie du %(at)s, aucune avance n'est versée "
            "avant l'inscription d'une nouvelle autorisation."
        ),
        ("house.bank",),
    )
    BANK_FAILURE_NO_SEANCE = Said(
        _("Aucune séance n'est ouverte à la table %(t)s."),
        ("session.interruption",),
        field="counts",
    )
    BANK_FAILURE_PENDING = Said(
        _("Une défaillance est déjà inscrite sans nouvelle autorisation."),
        ("house.bank",),
        field="occurred_at",
    )
    BOOK_COUNTER_OUT_OF_STEP = Said(
        _(
            "Le compteur du %(book)s ne suit plus ses entrées : il indique le n° "
            "%(counter)s, la dernière entrée écrite porte le n° %(written)s. Aucun numéro "
            "n'est attribué : la numérotation du carnet doit être vérifiée (verify_audit)."
        ),
        (GIVEN,),
    )
    CARD_COUNT = Said(
        _("Un jeu compte 52 cartes : %(count)s comptées. Signalez l'incident à l'officier."),
        (
            "depot.incident",
            "depot.issue_and_unseal",
        ),
    )
    CASHIER_ABSENT = Said(
        _("La clôture se fait en présence des employés de la table et d'un caissier."),
        ("advance.count_and_sign",),
        field="cashier",
    )
    CASHIER_ABSENT_SESSION_INTERRUPTION = Said(
        _("L'encaisse comptée à l'interruption l'est en présence d'un caissier, comme en fin de partie."),
        ("session.interruption",),
        field="cashier",
        code="CASHIER_ABSENT",
    )
    CASINO_CLOSED_DOWN = Said(
        _("L'exploitation a cessé le %(at)s : aucune séance n'ouvre plus."),
        ("house.closing",),
        field="table",
    )
    CHECKPOINT_EXPORT_INVALID = Said(
        _("Ce fichier n'est pas un export de points de contrôle."),
        ("books.no_erasure",),
        field="against",
    )
    CHECKPOINT_NONE = Said(
        _("Aucun point de contrôle ne couvre encore l'événement n° %(seq)s : attendez le prochain."),
        ("books.no_erasure",),
    )
    CHECKPOINT_ORDER = Said(
        _("Le point de contrôle n° %(b)s s'arrête à l'événement %(end)s, avant l'événement %(seq)s."),
        ("books.no_erasure",),
        field="second",
    )
    CHECKPOINT_TOO_EARLY = Said(
        _("Le point de contrôle n° %(n)s s'arrête à l'événement %(end)s, avant l'événement %(seq)s."),
        ("books.no_erasure",),
        field="checkpoint",
    )
    CHECKPOINT_UNKNOWN = Said(
        _("Aucun point de contrôle n° %(n)s signant un arbre de Merkle."),
        ("books.no_erasure",),
    )
    CIRCUMSTANCES_REQUIRED = Said(
        _("Décrivez les circonstances."),
        ("depot.incident",),
        field="circumstances",
    )
    CLOSING_RECORDED = Said(
        _("La cessation de l'exploitation est déjà inscrite."),
        ("house.closing",),
    )
    COLOUR_REQUIRED = Said(
        _("Jeu %(serial)s : indiquez la couleur du dos."),
        ("depot.approved_manufacturer",),
        field="decks",
    )
    CORRECTION_FIELD = Said(
        _("Cette rubrique ne se corrige pas (rubriques possibles : %(fields)s)."),
        ("depot.correction",),
        field="field",
    )
    CORRECTION_REASON = Said(
        _("Indiquez le motif de la correction."),
        ("depot.correction",),
        field="reason",
    )
    CORRECTION_REASON_BOOKS_NO_ERASURE = Said(
        _("Le motif de la correction est requis."),
        ("books.no_erasure",),
        field="reason",
        code="CORRECTION_REASON",
    )
    CORRECTION_SAME = Said(
        _("La nouvelle mention est identique à l'actuelle."),
        ("depot.correction",),
        field="new_value",
    )
    CORRECTION_VALUE = Said(
        _("Mention impossible pour « %(field)s » : %(value)s (%(allowed)s)."),
        ("depot.issue_and_unseal",),
        field="new_value",
    )
    COUNTER_IS_SIGNER = Said(
        _(
            "Celui qui compte ne signe pas : le croupier compte, le directeur ou un membre "
            "du comité de direction signe."
        ),
        ("people.incompatible",),
    )
    DATE_IN_FUTURE = Said(
        _("Ce moment est dans le futur."),
        (
            "house.bank",
            "house.hours",
        ),
    )
    DATE_IN_FUTURE_HOUSE_CLOSING = Said(
        _("Ce moment est dans le futur."),
        ("house.closing",),
        field="closed_at",
        code="DATE_IN_FUTURE",
    )
    DATE_IN_FUTURE_HOUSE_EXCLUSIONS_ENTRANCE = Said(
        _("Cette date est dans le futur."),
        (
            "house.exclusions.entrance",
            "house.exclusions.minister",
            "house.exclusions.own",
        ),
        code="DATE_IN_FUTURE",
    )
    DATE_IN_FUTURE_HOUSE_EXCLUSIONS_ENTRANCE_MOMENT = Said(
        _("Cette date est dans le futur."),
        ("house.exclusions.entrance",),
        code="DATE_IN_FUTURE",
    )
    DATE_IN_FUTURE_HOUSE_HOURS = Said(
        _("L'avis aux ministres est dans le futur."),
        ("house.hours",),
        field="notified_at",
        code="DATE_IN_FUTURE",
    )
    DATE_IN_FUTURE_HOUSE_TABLE_NOTICE = Said(
        _("Cette journée est dans le futur."),
        ("house.table_notice",),
        field="day",
        code="DATE_IN_FUTURE",
    )
    DAY_BEFORE_OPENING = Said(
        _("Le casino n'était pas ouvert le %(d)s (ouverture le %(o)s) : aucune journée à arrêter."),
        ("control_register",),
        field="day",
    )
    DAY_CLOSED = Said(
        _(
            "La journée du %(d)s est arrêtée au registre de contrôle : rien ne s'y ajoute ni "
            "ne s'y modifie, sauf par une correction approuvée par le directeur."
        ),
        ("books.no_erasure",),
        field="day",
    )
    DAY_NOT_CLOSED = Said(
        _("La journée du %(d)s n'est pas arrêtée : elle se vise une fois arrêtée par le directeur."),
        ("control_register",),
        field="control_day",
    )
    DAY_NOT_ENDED = Said(
        _("La journée du %(d)s n'est pas terminée : elle ne s'arrête qu'une fois finie."),
        ("control_register",),
        field="day",
    )
    DECKS_AT_TABLES = Said(
        _("Des jeux de cartes sont encore aux tables : rentrez-les au dépôt avant la cessation."),
        ("house.closing",),
        field="disposal",
    )
    DECKS_NOT_RETURNED = Said(
        _("Des jeux remis aux tables ne sont pas rendus au dépôt : %(serials)s."),
        ("depot.issue_and_unseal",),
    )
    DECKS_REQUIRED = Said(
        _("Indiquez les jeux."),
        ("depot.destruction",),
        field="decks",
    )
    DECK_AMBIGUOUS = Said(
        _("Plusieurs fabricants ont le jeu %(serial)s : écrivez FABRICANT:%(serial)s."),
        ("depot.receipt_book",),
        field="decks",
    )
    DECK_DESTROYED = Said(
        _("Le jeu %(serial)s est détruit : il ne peut plus revenir."),
        ("depot.destruction",),
        field="decks",
    )
    DECK_INCOMPLETE = Said(
        _("Le jeu %(serial)s doit rester complet jusqu'à sa destruction : signalez l'incident."),
        ("depot.destruction",),
        field="decks",
    )
    DECK_IN_ANOTHER_SHOE = Said(
        _("Jeu(x) déjà dans un autre sabot en jeu : %(serials)s."),
        ("depot.issue_and_unseal",),
        field="decks",
    )
    DECK_NOT_AT_TABLE = Said(
        _("Le jeu %(serial)s n'a pas été remis à la table %(table)s pour cette journée."),
        ("depot.issue_and_unseal",),
    )
    DECK_NOT_CHECKED = Said(
        _("Jeu(x) non descellé(s) ni contrôlé(s) à la table ce jour : %(serials)s."),
        ("depot.issue_and_unseal",),
        field="decks",
    )
    DECK_NOT_IN_INCIDENT = Said(
        _("Un jeu déclaré apte n'est pas concerné par l'incident."),
        ("depot.incident",),
        field="decks_fit",
    )
    DECK_NOT_ISSUED = Said(
        _("Des jeux ne sont pas remis à la table %(t)s pour le %(d)s (ou déjà rendus) : %(ids)s."),
        ("depot.issue_and_unseal",),
        field="decks",
    )
    DECK_QUARANTINED = Said(
        _("Le jeu %(serial)s est consigné par un incident ouvert : l'officier doit d'abord le clore."),
        ("depot.incident",),
        field="decks",
    )
    DECK_UNKNOWN = Said(
        # said as the API has said it, untranslated
        "Jeu sans numéro.",
        (GIVEN,),
        field="results",
    )
    DECK_UNKNOWN_DEPOT_RECEIPT_BOOK = Said(
        _("Jeu inconnu : %(serial)s."),
        ("depot.receipt_book",),
        field="decks",
        code="DECK_UNKNOWN",
    )
    DECREE_DATES = Said(
        _("L'arrêté n'entre pas en vigueur avant sa date."),
        ("limits.authorised_minimum",),
        field="in_force_on",
    )
    DECREE_REFERENCE = Said(
        _("La référence de l'arrêté est requise."),
        ("limits.authorised_minimum",),
        field="decree_reference",
    )
    DELEGATE_NOT_COMMITTEE = Said(
        _("Le délégué est un membre du comité de direction."),
        ("limits.maximum_by_director",),
        field="delegate",
    )
    DELEGATION_APPROVAL = Said(
        _("La référence de l'agrément du délégué par le ministre est requise."),
        ("limits.maximum_by_director",),
        field="approval_reference",
    )
    DELEGATION_DATES = Said(
        _("La délégation ne prend effet qu'après l'agrément du délégué."),
        ("limits.maximum_by_director",),
    )
    DEMAND_ANSWERED = Said(
        _("Cette demande d'ouverture a déjà été satisfaite."),
        ("depot.cabinet_key",),
        field="demand",
    )
    DEMO_IN_SERVICE = Said(
        _(
            "La base tient déjà %(n)s acte(s) : %(what)s de démonstration ne se fait que "
            "pour une base vide, jamais à côté de registres en service."
        ),
        ("books.no_erasure",),
    )
    DESTRUCTION_EMPTY = Said(
        _("Aucun jeu à détruire."),
        ("depot.destruction",),
        field="decks",
    )
    DESTRUCTION_WITNESS = Said(
        _("La destruction a lieu devant un officier de police ou de contrôle."),
        ("depot.destruction",),
        field="officer",
    )
    DEVICES_AT_TABLES = Said(
        _("Des sabots sont encore affectés à une table (n° %(numbers)s) : rentrez-les à l'armoire."),
        ("house.closing",),
        field="disposal",
    )
    DEVICE_ALREADY_ASSIGNED = Said(
        _("Le sabot n° %(n)s est déjà affecté pour cette séance."),
        ("house.devices",),
        field="device",
    )
    DEVICE_ALREADY_RETURNED = Said(
        _("Ce sabot est déjà rentré à l'armoire."),
        ("house.devices",),
        field="assignment",
    )
    DEVICE_NOT_USABLE = Said(
        _("Le sabot n° %(n)s n'est plus utilisable (détruit ou remis)."),
        ("house.devices",),
        field="device",
    )
    DISPLAY_NOT_CHANGED = Said(
        _(
            "Le maximum ne change en cours de séance que s'il est clairement indiqué sur "
            "l'affichage de la table."
        ),
        ("limits.maximum_change",),
        field="display_changed",
    )
    EARLY_STOP_NOT_EARLY = Said(
        _("L'heure de fermeture est atteinte : aucun motif n'est à inscrire."),
        ("house.hours",),
        field="stopped_at",
    )
    EARLY_STOP_NO_BANK_FAILURE = Said(
        _("Aucune défaillance de la contrepartie n'est inscrite pendant cette séance, avant l'arrêt."),
        ("house.bank",),
        field="reason",
    )
    EARLY_STOP_REASON = Said(
        _(
            "Une séance ne s'arrête avant l'heure de fermeture que si les joueurs se sont "
            "retirés ou après trois coups de suite sans mise."
        ),
        ("house.hours",),
        field="reason",
    )
    EARLY_STOP_RECORDED = Said(
        _("L'arrêt de cette séance est déjà inscrit."),
        ("house.hours",),
        field="session",
    )
    EARLY_STOP_TIME = Said(
        _("L'arrêt se situe pendant la séance, au plus tard maintenant."),
        ("house.hours",),
        field="stopped_at",
    )
    EARLY_STOP_WITHOUT_REASON = Said(
        _(
            "La séance ne s'arrête avant l'heure de fermeture (%(close)s) que si les joueurs "
            "se sont retirés ou après trois coups de suite sans mise : inscrivez d'abord ce "
            "motif."
        ),
        ("house.hours",),
        field="session",
    )
    ENROLMENT_NOT_SIGNED = Said(
        _("Document : %(why)s"),
        ("officers.signature",),
        field="document",
    )
    ENROLMENT_OTHER_CASINO = Said(
        _("Document : il vaut pour le casino « %(other)s », non pour celui-ci (« %(this)s »)."),
        ("officers.signature",),
        field="document",
    )
    ENROLMENT_UNKNOWN = Said(
        _("Document : aucune habilitation n° %(serial)s n'est enregistrée."),
        ("officers.signature",),
        field="document",
    )
    EXCLUSION_ALREADY_LIFTED = Said(
        _("Cette exclusion a déjà été radiée le %(d)s."),
        (GIVEN,),
        field="exclusion",
    )
    EXCLUSION_ALREADY_NOTIFIED = Said(
        _("Cette exclusion a déjà été notifiée au ministre le %(d)s."),
        ("house.exclusions.own",),
        field="exclusion",
    )
    EXCLUSION_GROUND_UNKNOWN = Said(
        _("Motif inconnu « %(g)s » : à sa demande, incapable, condamné, ou trouble de l'ordre ou du jeu."),
        ("house.exclusions.minister",),
        field="ground",
    )
    EXCLUSION_KIND_UNKNOWN = Said(
        _("Nature inconnue « %(k)s » : exclusion ou refus d'admission."),
        ("house.exclusions.own",),
        field="kind",
    )
    EXCLUSION_LIFTED_BEFORE_DECISION = Said(
        _("La radiation ne peut précéder l'exclusion (%(d)s)."),
        (GIVEN,),
        field="lifted_on",
    )
    EXCLUSION_NOTIFIED_BEFORE_DECISION = Said(
        _("La notification au directeur ne peut précéder la décision du ministre."),
        ("house.exclusions.minister",),
        field="director_notified_on",
    )
    EXCLUSION_NOTIFIED_BEFORE_DECISION_HOUSE_EXCLUSIONS_OWN = Said(
        _("L'avis au ministre ne peut précéder la décision."),
        ("house.exclusions.own",),
        field="notified_on",
        code="EXCLUSION_NOTIFIED_BEFORE_DECISION",
    )
    EXCLUSION_NOT_OWN = Said(
        _("Seules les exclusions prononcées par la direction sont notifiées au ministre."),
        ("house.exclusions.own",),
        field="exclusion",
    )
    EXPLANATION_REQUIRED = Said(
        _(
            "Un journal de mains d'un sabot inconnu de la séance (%(logs)s) ne se prend en "
            "compte qu'avec l'explication du directeur."
        ),
        ("depot.issue_and_unseal",),
        field="note",
    )
    FIELD_INVALID = Said(
        _("Indiquez une date et une heure."),
        ("house.closing",),
    )
    FIELD_INVALID_ADVANCE_BOOK = Said(
        _("Champ « %(field)s » : %(error)s"),
        (
            "advance.book",
            "game.shoe",
            "limits.minimum_maximum",
            "books.no_erasure",
            "control_register",
        ),
        code="FIELD_INVALID",
    )
    FIELD_INVALID_GIVEN = Said(
        "",
        (GIVEN,),
        code="FIELD_INVALID",
    )
    FIELD_INVALID_HOUSE_BANK = Said(
        _("Indiquez une date et une heure."),
        (
            "house.bank",
            "house.hours",
        ),
        code="FIELD_INVALID",
    )
    FIELD_INVALID_HOUSE_BANK_DAY = Said(
        _("Indiquez une date."),
        ("house.bank",),
        field="granted_on",
        code="FIELD_INVALID",
    )
    FIELD_INVALID_HOUSE_DEVICES = Said(
        _("Indiquez la table."),
        ("house.devices",),
        field="table_number",
        code="FIELD_INVALID",
    )
    FIELD_INVALID_HOUSE_EXCLUSIONS_ENTRANCE = Said(
        _("Indiquez une date."),
        (
            "house.exclusions.entrance",
            "house.exclusions.minister",
            "house.exclusions.own",
        ),
        code="FIELD_INVALID",
    )
    FIELD_INVALID_HOUSE_EXCLUSIONS_ENTRANCE_MOMENT = Said(
        _("Indiquez la date et l'heure."),
        ("house.exclusions.entrance",),
        code="FIELD_INVALID",
    )
    FIELD_INVALID_HOUSE_HOURS = Said(
        _("Indiquez une heure."),
        ("house.hours",),
        code="FIELD_INVALID",
    )
    FIELD_INVALID_HOUSE_ORPHANS = Said(
        _("Indiquez l'exercice (l'année)."),
        ("house.orphans",),
        code="FIELD_INVALID",
    )
    FIELD_INVALID_HOUSE_TABLE_NOTICE = Said(
        _("Indiquez le numéro de la table."),
        ("house.table_notice",),
        code="FIELD_INVALID",
    )
    FIELD_INVALID_HOUSE_TIPS = Said(
        _("Indiquez la journée."),
        ("house.tips",),
        field="day",
        code="FIELD_INVALID",
    )
    FIELD_REQUIRED = Said(
        _("Indiquez la personne agréée."),
        (GIVEN,),
    )
    FIELD_REQUIRED_DEPOT_APPROVED_MANUFACTURER = Said(
        _("Ce champ est obligatoire."),
        ("depot.approved_manufacturer",),
        code="FIELD_REQUIRED",
    )
    FIELD_REQUIRED_HOUSE_CLOSING = Said(
        _("Indiquez les documents laissés aux agents (un par ligne)."),
        ("house.closing",),
        field="documents",
        code="FIELD_REQUIRED",
    )
    FIELD_REQUIRED_HOUSE_EXCLUSIONS_ENTRANCE = Said(
        _("Indiquez l'exclusion appliquée."),
        ("house.exclusions.entrance",),
        field="exclusion",
        code="FIELD_REQUIRED",
    )
    FIELD_REQUIRED_HOUSE_ORPHANS = Said(
        _("Indiquez le montant trouvé."),
        ("house.orphans",),
        field="amount",
        code="FIELD_REQUIRED",
    )
    FIELD_REQUIRED_PEOPLE_ROLES = Said(
        _("Indiquez %(what)s."),
        (
            "people.roles",
            "house.bank",
            "house.devices",
            "house.closing",
            "house.tips",
            "house.exclusions.entrance",
            "house.exclusions.minister",
            "house.exclusions.own",
            "house.hours",
            "house.orphans",
        ),
        code="FIELD_REQUIRED",
    )
    FINDING_REQUIRED = Said(
        _("Indiquez vos constatations."),
        ("depot.incident",),
        field="finding",
    )
    FIRST_DIRECTOR_ALREADY_NAMED = Said(
        _("Le premier directeur est déjà nommé : les rôles sont attribués par le directeur."),
        ("people.roles",),
        field="person",
    )
    GAMING_DAY_OVER_24_HOURS = Said(
        _(
            "Passer l'heure de changement de journée de %(before)s à %(after)s ferait durer "
            "une journée de jeu %(hours)s h %(minutes)02d : une journée de jeu ne dure "
            "jamais plus de 24 heures."
        ),
        ("advance.gaming_day",),
        field="gaming_day_rollover",
    )
    GUARANTEE_FUND_MISSING = Said(
        _("Le fonds de garantie justifié en début de partie doit être indiqué."),
        ("advance.guarantee_fund",),
        field="guarantee_fund",
    )
    GUARANTEE_FUND_TOO_SMALL = Said(
        _("Le fonds de garantie (%(f)s) est inférieur à la plus forte avance du casino (%(a)s)."),
        ("advance.guarantee_fund",),
        field="guarantee_fund",
    )
    HAND_LOG_DUPLICATE = Said(
        _("Ce journal (SHA-256 %(h)s) a déjà été reçu ; il n'est ni stocké ni rejoué une seconde fois."),
        ("books.no_erasure",),
        field="sha256",
    )
    HAND_LOG_REJECTED = Said(
        _("Journal refusé : %(f)s : %(n)s caractères, au plus %(m)s."),
        (UNCITED,),
    )
    HAND_LOG_REJECTED_GAME_LIMITS = Said(
        _("Journal refusé : %(f)s : un montant du rejeu dépasse %(m)s, ce que sa colonne contient."),
        ("game.limits",),
        field="rounds",
        code="HAND_LOG_REJECTED",
    )
    HAND_LOG_REJECTED_GIVEN = Said(
        _("Journal refusé : %(f)s : %(r)s."),
        (GIVEN,),
        code="HAND_LOG_REJECTED",
    )
    HAND_LOG_SHOE_OF_ANOTHER_SESSION = Said(
        _(
            "Le sabot %(l)s du journal est celui d'une autre séance (%(o)s), pas de celle-ci (%(s)s) : "
            "ses jeux n'ont pas été remis à cette table pour cette journée."
        ),
        ("depot.issue_and_unseal",),
        field="shoe_id",
    )
    HAND_LOG_TABLE = Said(
        _("Le journal est celui de la table %(l)s, la séance celle de la table %(t)s."),
        ("hand_log.table",),
        field="table",
    )
    HAND_LOG_TOO_LARGE = Said(
        _("Journal refusé : %(n)s octets, au-delà de la limite de %(m)s octets."),
        (UNCITED,),
        field="document",
    )
    HOURS_BACKDATED = Said(
        _("Les heures notifiées valent pour l'avenir : le %(at)s est passé."),
        ("house.hours",),
        field="effective_from",
    )
    HOURS_EMPTY = Said(
        _("L'heure de fermeture ne peut être l'heure d'ouverture."),
        ("house.hours",),
        field="closing",
    )
    HOURS_NOTICE_BACKDATED = Said(
        _("L'avis aux ministres s'inscrit le jour où il est donné : le %(at)s est passé."),
        ("house.hours",),
        field="notified_at",
    )
    HOURS_NOTICE_TOO_SHORT = Said(
        _(
            "Un changement des heures d'ouverture est notifié aux ministres au moins "
            "vingt-quatre heures à l'avance (avis du %(at)s)."
        ),
        ("house.hours",),
        field="effective_from",
    )
    HOUSE_RULE_INVALID = Said(
        _("Le nombre maximal de mains après séparation est au moins 2."),
        ("game.pairs",),
        field="max_hands_after_split",
    )
    HOUSE_RULE_INVALID_GAME_HOUSE_RULES = Said(
        _("Le nombre maximal de cases par joueur est au moins 1."),
        ("game.house_rules",),
        field="max_boxes_per_player",
        code="HOUSE_RULE_INVALID",
    )
    HOUSE_RULE_NOT_ALLOWED = Said(
        _(
            "La règle « %(key)s » ne peut pas être modifiée par le règlement intérieur sous "
            "la réglementation %(profile)s."
        ),
        ("game.house_rules",),
    )
    ILLEGAL_TRANSITION = Said(
        _("Le jeu %(serial)s est « %(current)s » : il ne peut pas passer à « %(target)s » par cet acte."),
        (GIVEN,),
        field="decks",
    )
    INCIDENT_ALREADY_REPORTED = Said(
        _("Cet incident a déjà été signalé."),
        ("depot.incident",),
        field="incident",
    )
    INCIDENT_CARD = Said(
        _("Une carte étrangère à tout jeu est décrite (valeur, dos, fabricant)."),
        ("depot.incident",),
        field="card",
    )
    INCIDENT_CLOSED = Said(
        _("Cet incident est déjà clos."),
        ("depot.incident",),
        field="incident",
    )
    INCIDENT_DECKS = Said(
        _("Indiquez les jeux concernés."),
        ("depot.incident",),
        field="decks",
    )
    INCIDENT_IN_FUTURE = Said(
        _("Une heure dans le futur ne peut pas être enregistrée."),
        ("depot.incident",),
        field="occurred_at",
    )
    INCIDENT_KIND = Said(
        _("Nature d'incident inconnue."),
        ("depot.incident",),
        field="kind",
    )
    INSPECTION_BY_OFFICER = Said(
        _("Une inspection du dépôt est demandée par un officier de police ou de contrôle."),
        ("depot.cabinet_key",),
        field="demanded_by",
    )
    INTERRUPTION_AMOUNT = Said(
        _("L'encaisse comptée à l'interruption doit être inscrite."),
        ("session.interruption",),
        field="amount",
    )
    INTERRUPTION_MODE = Said(
        _("Une interruption se fait en comptant l'encaisse ou en la déposant sous clé."),
        ("session.interruption",),
        field="mode",
    )
    INTERRUPTION_MUST_BE_COUNTED = Said(
        _(
            "L'interruption porte sur toutes les tables ouvertes : l'encaisse est vérifiée, "
            "comptée et inscrite comme en fin de partie."
        ),
        ("session.interruption",),
        field="mode",
    )
    INVENTORY_DONE = Said(
        _("L'inventaire de cette ouverture est déjà fait."),
        ("depot.cabinet_key",),
    )
    INVENTORY_OPENING = Said(
        _("L'inventaire se fait à une ouverture demandée par un officier."),
        ("depot.cabinet_key",),
        field="opening",
    )
    ISSUE_DAY = Said(
        _("Les jeux ne sortent du dépôt que pour être utilisés : la journée doit être celle en cours."),
        ("depot.issue_and_unseal",),
        field="day",
    )
    ISSUE_DAY_CLOSED = Said(
        _("La journée du %(day)s est arrêtée au registre de contrôle : aucun jeu n'y sort plus."),
        ("depot.issue_and_unseal",),
        field="day",
    )
    ISSUE_EMPTY = Said(
        _("Aucun jeu à remettre."),
        ("depot.issue_and_unseal",),
        field="decks",
    )
    KEY_HOLDER = Said(
        _("La clé de la caisse reste au directeur, à un membre du comité de direction ou au chef de partie."),
        ("session.interruption",),
        field="key_holder",
    )
    KEY_HOLDER_ONLY = Said(
        _("La caisse est rouverte par le détenteur de la clé nommé à l'interruption : %(k)s."),
        ("session.interruption",),
        field="actor",
    )
    KEY_HOLDER_ROLE = Said(
        _("La clé unique du dépôt est détenue par le directeur ou un membre du comité de direction."),
        ("depot.cabinet_key",),
        field="receiver",
    )
    KEY_SAME_HOLDER = Said(
        _("Il détient déjà la clé."),
        ("depot.cabinet_key",),
        field="receiver",
    )
    MANUFACTURER_EXISTS = Said(
        _("Un fabricant porte déjà ce code."),
        ("depot.approved_manufacturer",),
        field="code",
    )
    MANUFACTURER_NOT_APPROVED = Said(
        _("Le fabricant %(name)s n'est pas agréé au %(day)s."),
        ("depot.approved_manufacturer",),
    )
    MAXIMUM_BY_DIRECTOR = Said(
        _(
            "Le maximum est fixé par le directeur responsable, ou par un membre du comité de "
            "direction inscrit comme son délégué agréé pour la direction des jeux à cette "
            "date."
        ),
        ("limits.maximum_by_director",),
    )
    MAXIMUM_FIXED_FOR_SEASON = Said(
        _("Le maximum de cette table est fixé pour la saison : %(e)s."),
        ("limits.maximum_change",),
        field="maximum",
    )
    MAXIMUM_NOT_MULTIPLE = Said(
        _(
            "Le maximum par case doit être 50, 100 ou 200 fois le minimum (%(a)s, %(b)s ou "
            "%(c)s) ; reçu %(m)s."
        ),
        ("limits.minimum_maximum",),
        field="maximum",
    )
    MAXIMUM_NOT_PROPORTIONAL = Said(
        _("Le minimum passe de %(o)s à %(m)s dans la journée : le maximum suit en proportion, soit %(e)s."),
        ("limits.minimum_change",),
        field="maximum",
    )
    MAX_SIXAINS = Said(
        _(
            "Le ministère autorise au plus %(limit)s sixains ; le dépôt en détient %(held)s, "
            "%(new)s de plus dépasseraient la limite."
        ),
        ("depot.max_sixains",),
        field="sixains",
    )
    MINIMUM_BELOW_AUTHORISED = Said(
        _("Le minimum de la table (%(m)s) est inférieur au minimum autorisé du casino (%(a)s)."),
        ("limits.minimum_maximum",),
        field="minimum",
    )
    MINIMUM_CHANGED_WITHIN_DAY = Said(
        _("Le minimum d'une table ne change pas au cours d'une même journée (%(p)s ce jour-là)."),
        ("limits.minimum_change",),
        field="minimum",
    )
    MINIMUM_FIXED_IN_SESSION = Said(
        "",
        ("limits.minimum_change",),
        field="minimum",
    )
    MINIMUM_LOWERED = Said(
        _("Le minimum, relevé à %(p)s pendant l'exercice, ne peut être ramené plus bas avant sa fin."),
        ("limits.minimum_change",),
        field="minimum",
    )
    MINIMUM_RAISE_NOT_NOTIFIED = Said(
        _(
            "L'information du ministre citée a été inscrite le %(r)s, moins de huit jours avant la "
            "journée du %(d)s : un minimum relevé est notifié huit jours à l'avance."
        ),
        ("limits.ministry_notice",),
        field="ministry_notice",
    )
    MINISTRY_NOTICE_MISSING = Said(
        _(
            "Un minimum (%(m)s) supérieur au minimum autorisé (%(a)s) ou relevé dans l'exercice est "
            "notifié au ministre huit jours à l'avance : citez l'information inscrite au livre des "
            "informations du ministre."
        ),
        ("limits.ministry_notice",),
        field="ministry_notice",
    )
    MINISTRY_NOTICE_NO_REFERENCE = Said(
        _("La référence de l'information du ministre (courrier, accusé de réception) est requise."),
        ("limits.ministry_notice",),
        field="reference",
    )
    MINISTRY_NOTICE_OTHER_MINIMUM = Said(
        _("L'information citée annonce un minimum de %(n)s, non celui de la séance (%(m)s)."),
        ("limits.ministry_notice",),
        field="ministry_notice",
    )
    MINISTRY_PROFILE = Said(
        _("Les fabricants sont agréés par le %(ministry)s."),
        ("depot.approved_manufacturer",),
        field="ministry",
    )
    NOTICE_BEFORE_FAILURE = Said(
        _("L'avis suit la défaillance."),
        ("house.bank",),
    )
    NOTICE_IN_FUTURE = Said(
        _("La date d'information du ministre ne peut pas être postérieure à aujourd'hui."),
        ("limits.ministry_notice",),
        field="sent_on",
    )
    NOT_APPROVED = Said(
        "",
        ("house.approvals",),
    )
    NOT_CERTIFIED_EXACT = Said(
        _("L'encaisse de clôture doit être certifiée « exacte » par le signataire."),
        ("advance.count_and_sign",),
        field="certified_exact",
    )
    NOT_CORRECTABLE = Said(
        _(
            "Seule une ligne portant un montant se corrige ; une correction se corrige en "
            "corrigeant la ligne d'origine."
        ),
        ("books.no_erasure",),
        field="entry",
    )
    NOT_KEY_HOLDER = Said(
        _("Le dépôt ne s'ouvre qu'avec son unique clé, détenue par %(holder)s."),
        ("depot.cabinet_key",),
        field="actor",
    )
    OFFICER_BY_AUTHORITY_ONLY = Said(
        _(
            "Le rôle d'officier de police ou de contrôle vient seulement de l'habilitation "
            "donnée par l'autorité : le casino ne l'attribue pas."
        ),
        ("people.officer",),
        field="role",
    )
    OFFICER_IS_STAFF = Said(
        _("Document : %(user)s est du personnel du casino ; un officier ne l'est jamais."),
        ("officers.signature",),
        field="document",
    )
    OFFICER_NOT_ENROLLED = Said(
        _("Aucune habilitation de l'autorité n'est en vigueur pour cet officier."),
        ("officers.signature",),
        field="officer_signature",
    )
    OFFICER_NOT_TOLD = Said(
        _("%(name)s n'est pas un officier de police ou de contrôle."),
        ("depot.incident",),
    )
    OFFICER_SIGNATURE_INVALID = Said(
        _("Signature de l'officier : elle ne vaut pas pour cet acte (%(why)s)."),
        ("officers.signature",),
        field="officer_signature",
    )
    OFFICER_SIGNATURE_REPLAYED = Said(
        _("Signature de l'officier : elle a déjà servi pour un autre acte."),
        ("officers.signature",),
        field="officer_signature",
    )
    OFFICER_SIGNATURE_REQUIRED = Said(
        _("Signature de l'officier : l'acte se signe avec votre clé d'accès (passkey)."),
        ("officers.signature",),
        field="officer_signature",
    )
    OFFICER_TOLD_BEFORE = Said(
        _("L'officier ne peut pas avoir été avisé avant l'incident."),
        ("depot.incident",),
        field="officer_informed_at",
    )
    ORDER_ALREADY_SENT = Said(
        _("Ce bon a déjà été envoyé."),
        ("depot.order_book",),
        field="order",
    )
    ORDER_COLOUR = Said(
        _("Ligne %(n)s : indiquez la couleur du dos."),
        ("depot.order_book",),
        field="lines",
    )
    ORDER_EMPTY = Said(
        _("Un bon de commande a au moins une ligne."),
        ("depot.order_book",),
        field="lines",
    )
    ORDER_NOT_CHECKED = Said(
        _("Les cartes sont étalées faces visibles pour vérifier l'ordre du fabricant."),
        ("depot.issue_and_unseal",),
        field="order_checked",
    )
    ORDER_NOT_RESTORED = Said(
        _("En fin de partie les cartes sont remises dans l'ordre du fabricant avant leur examen."),
        ("depot.issue_and_unseal",),
        field="order_restored",
    )
    ORDER_NOT_SENT = Said(
        _("Le bon n° %(n)s n'a pas été visé et envoyé : rien ne peut être pris en charge sur ce bon."),
        ("depot.order_book",),
        field="order",
    )
    ORDER_NOT_STAMPED = Said(
        _("Le bon n° %(n)s doit être visé par un officier avant d'être envoyé."),
        ("depot.order_book",),
        field="order",
    )
    ORDER_QUANTITY = Said(
        _("Ligne %(n)s : la quantité doit être positive."),
        ("depot.order_book",),
        field="lines",
    )
    ORDER_UNIT = Said(
        _("Ligne %(n)s : unité inconnue."),
        ("depot.order_book",),
        field="lines",
    )
    ORPHANS_BALANCE_NOT_ZERO = Said(
        _(
            "Le versement de %(amount)s laisserait le compte « orphelins » %(year)s à "
            "%(left)s : versez tout le solde (%(balance)s)."
        ),
        ("house.orphans",),
        field="amount",
    )
    ORPHANS_EXERCISE_CLOSED = Said(
        _("L'exercice %(year)s des orphelins est soldé : son solde a été versé au bureau de bienfaisance."),
        ("house.orphans",),
    )
    ORPHANS_MINISTER_NOT_NOTIFIED = Said(
        _("L'avis au Ministre des Finances suit le versement : indiquez sa date (le jour même ou après)."),
        ("house.orphans",),
        field="minister_notified_on",
    )
    ORPHANS_TRANSFER_BEFORE_END = Said(
        _("Le versement se fait en fin d'exercice : après le 31/12/%(year)s."),
        ("house.orphans",),
        field="transferred_on",
    )
    ORPHANS_TRANSFER_IN_FUTURE = Said(
        _("La date du versement est dans le futur."),
        ("house.orphans",),
        field="transferred_on",
    )
    ORPHAN_AMOUNT_MISMATCH = Said(
        _("Le montant d'une mise abandonnée est la mise oubliée plus ses gains cumulés : %(total)s."),
        ("house.orphans",),
        field="amount",
    )
    ORPHAN_IN_FUTURE = Said(
        _("Une somme ne peut pas être trouvée dans le futur."),
        ("house.orphans",),
        field="found_at",
    )
    ORPHAN_KIND_UNKNOWN = Said(
        _(
            "Nature inconnue « %(kind)s » : trouvé à terre, laissé sur une table ou "
            "abandonné en cours de partie."
        ),
        ("house.orphans",),
        field="kind",
    )
    ORPHAN_REPAID_BEFORE_FOUND = Said(
        _("Le remboursement ne peut pas précéder l'inscription primitive (n° %(n)s)."),
        ("house.orphans",),
        field="repaid_on",
    )
    ORPHAN_REPAID_IN_FUTURE = Said(
        _("La date du remboursement est dans le futur."),
        ("house.orphans",),
        field="repaid_on",
    )
    ORPHAN_REPAY_TOO_MUCH = Said(
        _("On ne peut rembourser plus que l'inscription n° %(n)s : il en reste %(left)s."),
        ("house.orphans",),
        field="amount",
    )
    ORPHAN_STAKE_NOT_IN_PLAY = Said(
        _("Mise et gains ne s'indiquent que pour une somme abandonnée en cours de partie."),
        ("house.orphans",),
        field="stake",
    )
    ORPHAN_STAKE_REQUIRED = Said(
        _("Pour une mise abandonnée en cours de partie, indiquez la mise initialement oubliée."),
        ("house.orphans",),
        field="stake",
    )
    ORPHAN_TABLE_REQUIRED = Said(
        _("Indiquez la table où la mise a été abandonnée."),
        ("house.orphans",),
        field="table_number",
    )
    OVER_DELIVERY = Said(
        _(
            "Livraison au-delà du bon de commande n° %(number)s (%(over)s de plus) : "
            "renvoyez le surplus au fabricant ou établissez un bon complémentaire visé par "
            "l'officier."
        ),
        ("depot.receipt_book",),
    )
    PROFILE_FIXED = Said(
        _(
            "La réglementation (%(p)s) est fixée depuis le premier acte inscrit aux "
            "registres : en changer, c'est ouvrir un autre casino, pas modifier un paramètre."
        ),
        ("casino.profile",),
        field="profile",
    )
    REASON_REQUIRED = Said(
        _("Indiquez le motif."),
        ("depot.destruction",),
        field="reason",
    )
    RECEPTION_DAY = Said(
        _(
            "La prise en charge s'inscrit le jour de la livraison : %(day)s n'est pas la "
            "journée en cours (%(today)s)."
        ),
        ("depot.receipt_book",),
        field="received_on",
    )
    RECEPTION_EMPTY = Said(
        _("Aucun jeu reçu."),
        ("depot.receipt_book",),
        field="decks",
    )
    REFUSED_ENTRY_EXCLUSION_NOT_IN_FORCE = Said(
        _("L'exclusion de %(name)s n'était pas en vigueur le %(d)s (décidée le %(from)s%(to)s)."),
        ("house.exclusions.entrance",),
        field="exclusion",
    )
    REFUSED_ENTRY_OTHER_PERSON = Said(
        _("La personne exclue est née le %(d)s : ce n'est pas la même personne."),
        ("house.exclusions.entrance",),
    )
    REGISTER_BAD_PERIOD = Said(
        _("La période est vide : la date de début (%(a)s) est après la date de fin (%(b)s)."),
        (UNCITED,),
        field="date_from",
    )
    REGISTER_TABLE_REQUIRED = Said(
        _("Le registre « %(name)s » se tient par table : indiquez le numéro de table (--table N)."),
        (UNCITED,),
        field="table",
    )
    REGISTER_UNKNOWN = Said(
        _("Registre inconnu « %(name)s ». Registres : %(names)s."),
        (UNCITED,),
        field="register",
    )
    REGISTER_UNKNOWN_TABLE = Said(
        _("Il n'y a pas de table n° %(n)s."),
        (UNCITED,),
        field="table",
    )
    RETURN_EMPTY = Said(
        _("Aucun jeu rendu."),
        ("depot.issue_and_unseal",),
        field="results",
    )
    RETURN_RESULT = Said(
        _("Résultat d'examen inconnu."),
        ("depot.issue_and_unseal",),
        field="results",
    )
    ROLES_INCOMPATIBLE = Said(
        _(
            "Le rôle « %(r)s » est incompatible avec celui de « %(o)s » que cette personne "
            "détient : un officier n'est jamais du personnel du casino, et qui compte ne "
            "signe pas."
        ),
        (GIVEN,),
        field="role",
    )
    ROLE_ALREADY_HELD = Said(
        _("Cette personne a déjà le rôle « %(r)s »."),
        ("people.roles",),
        field="role",
    )
    ROLE_NOT_HELD = Said(
        _("Cette personne n'a pas le rôle « %(r)s »."),
        ("people.roles",),
        field="role",
    )
    ROLE_SELF_GRANT = Said(
        _("Personne ne s'attribue ni ne se retire un rôle à lui-même."),
        ("people.roles",),
        field="person",
    )
    ROLE_UNKNOWN = Said(
        _("Rôle inconnu : %(r)s."),
        ("people.roles",),
        field="role",
    )
    SEED_DATABASE_IN_SERVICE = Said(
        _(
            "La base tient déjà %(n)s acte(s) : les données de démonstration ne s'écrivent "
            "que dans une base vide, jamais dans des registres en service."
        ),
        ("books.no_erasure",),
    )
    SERIAL_ALREADY_KNOWN = Said(
        _("Numéro(s) de série déjà connu(s) pour %(maker)s : %(serials)s."),
        ("depot.receipt_book",),
    )
    SERIAL_REQUIRED = Said(
        _("Jeu %(n)s : le numéro de série du jeu est obligatoire."),
        ("depot.receipt_book",),
    )
    SESSIONS_NOT_CLOSED = Said(
        _("Des séances de la journée ne sont pas clôturées : %(t)s."),
        ("control_register",),
        field="day",
    )
    SESSION_AFTER_CLOSING_HOUR = Said(
        _("L'heure de fermeture (%(close)s) est passée."),
        ("house.hours",),
        field="table",
    )
    SESSION_ALREADY_CLOSED = Said(
        _("La séance est déjà clôturée : le motif s'inscrit avant la clôture."),
        ("house.hours",),
        field="session",
    )
    SESSION_BEFORE_START_HOUR = Said(
        _("Les séances du %(day)s ne commencent pas avant %(start)s, heure notifiée aux ministres."),
        ("house.hours",),
        field="table",
    )
    SESSION_NOT_TODAY = Said(
        _("Une séance s'ouvre pour la journée de jeu en cours (%(c)s), pas pour le %(d)s."),
        ("advance.gaming_day",),
        field="day",
    )
    SESSION_STATE = Said(
        _("La séance %(s)s est « %(state)s » : cet acte n'est pas possible."),
        ("advance.book",),
    )
    SESSION_STILL_OPEN = Said(
        _(
            "La séance précédente de la table %(t)s n'est pas clôturée : aucune somme ne "
            "reste dans la caisse entre deux séances."
        ),
        ("session.no_money_between",),
        field="table",
    )
    SESSION_WITHOUT_DECKS = Said(
        _(
            "La séance %(s)s n'a aucun sabot garni de jeux remis par le dépôt à sa table "
            "pour sa journée : %(what)s refusé."
        ),
        ("depot.issue_and_unseal",),
    )
    SESSION_WITHOUT_DEVICE = Said(
        _(
            "Aucun sabot n'est affecté à la table %(t)s pour la séance du %(day)s : le "
            "directeur affecte d'abord un sabot numéroté de l'armoire."
        ),
        ("house.devices",),
        field="table",
    )
    SHOE_LABEL_TAKEN = Said(
        _("Un sabot porte déjà l'identifiant %(l)s."),
        ("game.shoe",),
        field="label",
    )
    SIXAINS_ONLY = Said(
        _("Au Luxembourg, les cartes ne sont obtenues que par sixains : %(n)s jeu(x) hors sixain."),
        ("depot.receipt_book",),
        field="decks",
    )
    SIXAIN_CAP_REFERENCE = Said(
        _("Le nombre de sixains fixé par le ministère s'inscrit avec la référence de sa décision."),
        ("depot.max_sixains",),
        field="reference",
    )
    SIXAIN_CAP_REQUIRED = Said(
        _("Le nombre de sixains que le casino peut détenir est fixé par le ministère : il ne se vide pas."),
        ("depot.max_sixains",),
        field="max_sixains",
    )
    SIXAIN_COMPOSITION = Said(
        _(
            "Un sixain de black-jack compte six jeux, trois d'une couleur de dos et trois de "
            "l'autre (reçu : %(described)s)."
        ),
        ("depot.sixain",),
        field="decks",
    )
    SIXAIN_UNKNOWN = Said(
        _("Sixain inconnu ou ambigu : %(serial)s."),
        ("depot.receipt_book",),
        field="sixains",
    )
    SUCCESSOR_NOT_EXPECTED = Said(
        _("Un successeur n'est nommé que si les cartes et les sabots lui sont remis."),
        ("house.closing",),
        field="successor",
    )
    SUPERUSER_IN_SERVICE = Said(
        _(
            "La base tient déjà des actes : aucun superutilisateur n'y est créé. Un "
            "superutilisateur n'accomplit aucun acte réglementé ; les rôles sont attribués "
            "par le directeur au livre des rôles."
        ),
        ("people.roles",),
        field="is_superuser",
    )
    TABLE_NOT_IN_SERVICE = Said(
        "",
        ("depot.issue_and_unseal",),
        field="table_number",
    )
    TABLE_NOT_IN_SERVICE_HOUSE_DEVICES = Said(
        _("La table n° %(t)s n'existe pas ou n'est pas en service : aucun sabot ne lui est affecté."),
        ("house.devices",),
        field="table_number",
        code="TABLE_NOT_IN_SERVICE",
    )
    TABLE_NOT_IN_SERVICE_HOUSE_TABLE_NOTICE = Said(
        _("La table n° %(n)s n'existe pas ou n'est pas en service."),
        ("house.table_notice",),
        field="table",
        code="TABLE_NOT_IN_SERVICE",
    )
    TABLE_NUMBER_TAKEN = Said(
        _("La table n° %(n)s existe déjà."),
        (UNCITED,),
        field="number",
    )
    TABLE_NUMBER_TAKEN_ADVANCE_BOOK = Said(
        _("La table n° %(n)s ou le code %(c)s existe déjà."),
        ("advance.book",),
        field="number",
        code="TABLE_NUMBER_TAKEN",
    )
    TABLE_OUT_OF_SERVICE = Said(
        _("La table %(t)s n'est pas en service."),
        ("table.in_service",),
        field="table",
    )
    TABLE_REQUIRED = Said(
        _("Indiquez la table."),
        ("depot.issue_and_unseal",),
        field="table_number",
    )
    TABLE_SERVICE_UNCHANGED = Said(
        _("La table %(t)s est déjà %(state)s."),
        ("advance.book",),
        field="in_service",
    )
    TABLE_WITHOUT_LIMITS = Said(
        _("La table n° %(n)s n'a encore tenu aucune séance : ses limites et son avance ne sont pas fixées."),
        ("house.table_notice",),
        field="table",
    )
    TIPS_ALREADY_COUNTED = Said(
        _("Les pourboires du %(day)s sont déjà comptés."),
        ("house.tips",),
        field="day",
    )
    TIPS_COUNTED_BEFORE_DAY = Said(
        _("Le comptage ne peut précéder la journée."),
        ("house.tips",),
        field="counted_at",
    )
    TIPS_IN_FUTURE = Said(
        _("On ne compte pas les pourboires d'un jour à venir."),
        ("house.tips",),
        field="day",
    )
    TIPS_WITNESS_REQUIRED = Said(
        _("Le comptage se fait devant un témoin, autre que celui qui compte."),
        ("house.tips",),
        field="witness",
    )
    TOO_MANY_BOXES = Said(
        _("Une table de black-jack a de 1 à 7 cases."),
        ("table.layout",),
        field="boxes",
    )
    UNKNOWN_DISCREPANCY = Said(
        "",
        (GIVEN,),
        field="discrepancies",
    )
    UNKNOWN_MINISTRY_NOTICE = Said(
        _("Il n'y a pas d'information du ministre n° %(n)s au livre des informations."),
        (GIVEN,),
        field="ministry_notice",
    )
    UNKNOWN_PROFILE = Said(
        _("Réglementation inconnue : %(p)s (FR ou LU)."),
        (UNCITED,),
        field="profile",
    )
    UNKNOWN_TABLE = Said(
        # said as the API has said it: the field's name
        "table",
        (GIVEN,),
        field="table",
    )
    UNKNOWN_USER = Said(
        # said as the API has said it: the field's name (or the field and the name given)
        "person",
        (GIVEN,),
    )
    VIDEO_REQUIRED = Said(
        _("Un jeu neuf est descellé à la table sous vidéo : indiquez la référence de l'enregistrement."),
        ("depot.issue_and_unseal",),
        field="video_reference",
    )
    VISA_NOT_WITNESS = Said(
        _("La destruction est visée par l'officier qui y a assisté."),
        (GIVEN,),
        field="officer",
    )
    WITNESS_REQUIRED = Said(
        _("Indiquez le témoin du contrôle."),
        ("depot.issue_and_unseal",),
        field="witness",
    )

    @property
    def code(self) -> str:
        return self.value.code or self.name

    @property
    def message(self) -> Promise | str:
        return self.value.message

    @property
    def rules(self) -> tuple[str | None, ...]:
        return self.value.rules

    @property
    def field(self) -> str | None:
        return self.value.field

    def error(
        self,
        profile: str | None = None,
        /,
        *,
        rule: str | None = _SAME,
        article: str | None = None,
        field: str | None = _SAME,
        message: Promise | str | None = None,
        values: Mapping[str, Any] | None = None,
        **params: Any,
    ) -> RegulationError:
        """The refusal, its article that of ``rule`` (the member's first) under ``profile``,
        or the ``article`` given; its message filled in with ``values`` and ``params``."""
        if article is None:
            rule = self.rules[0] if rule is _SAME else rule
            if rule not in self.rules:
                raise ValueError(f"{self.name} is not raised under the rule {rule!r}")
            if rule is GIVEN:
                raise ValueError(f"{self.name} cites the article its caller gives: pass article=")
            if rule == UNCITED:
                article = ""
            else:
                if profile is None:
                    raise ValueError(f"{self.name} cites {rule!r}: pass the profile")
                article = cite(rule, profile)
        text = str(self.message if message is None else message)
        filled = {**(values or {}), **params}
        if filled:
            text = text % filled
        return RegulationError(self.code, text, article, field=self.field if field is _SAME else field)


#: The refusals declared beside the rules that raise them (:func:`declare`), by name: members of
#: :class:`Refusal` made at start-up, not among those its class writes (``list(Refusal)``).
DECLARED_REFUSALS: Registry[Refusal] = Registry("casino_ops.refusals.DECLARED_REFUSALS")


def declare(
    module: str, name: str, message: Promise | str, rules: tuple[str | None, ...], *, field: str | None = None
) -> Refusal:
    """A refusal declared in ``module`` (the rules' module raising it: its ``__name__``) rather
    than in :class:`Refusal`: the member ``Refusal.<name>``, its code ``name``, its French
    ``message``, the ``rules`` whose article it cites and its ``field``, raised as every other
    with ``.error(profile, …)``."""
    return declare_member(
        Refusal, DECLARED_REFUSALS, name, Said(message, rules, field=field, declared_in=module)
    )


def every_refusal() -> list[Refusal]:
    """Every refusal: the class's own, then those declared beside their rules."""
    return [*Refusal, *DECLARED_REFUSALS]
