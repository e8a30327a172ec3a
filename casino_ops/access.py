"""Who may perform each regulated act — the one place it is decided.

Every entry point asks here: the services (:func:`require`, before anything is
checked or saved), the admin (``has_*_permission`` and the acts' buttons through
:func:`may`), the API's permission classes, and the officers' portal
(``inspection.portal.access``, which adds the login's second factor). The roles are
those of :mod:`casino_ops.roles`; the table :data:`ACTS` says, per act, which roles
may perform it and the article that names who acts, where the regulation names
one (FR: arrêté du 14 mai 2007; LU: règlement grand-ducal du 12 février 1979).

A user without the role meets one refusal, :class:`RoleRequired`: a
:class:`~casino_ops.regulations.RegulationError` (the admin and the commands
show it as any refusal, with its article), answered 403 by the API with the
usual refusal JSON. A superuser holds no role: he performs no regulated act.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import act_checks, clock, roles
from .plugins import Registry, declare_member, declared_member
from .refusals import Refusal
from .regulations import RegulationError, cite
from .services import get_casino

M = TypeVar("M", bound=Model)


class Act(StrEnum):
    """The regulated acts, by who may perform them."""

    # The casino's and the depot's settings
    CASINO_SETTINGS = "casino.settings"
    DEPOT_SETTINGS = "depot.settings"
    # The card depot (FR art. 39, LU art. 6: the cabinet's single key is held by the
    # director or a committee member, who keep the books of the depot)
    DEPOT = "depot.act"
    HOLD_KEY = "depot.hold_key"
    CHECK_AT_TABLE = "depot.check_at_table"
    REPORT_INCIDENT = "depot.report_incident"
    RECORD_INCIDENT_NOTICE = "depot.record_incident_notice"
    APPROVE_DEPOT_CORRECTION = "depot.approve_correction"
    # The tables
    PUT_ON_FLOOR = "tables.put_on_floor"
    SIGN_ADVANCE = "tables.sign_advance"
    COUNT = "tables.count"
    HOLD_BOX_KEY = "tables.hold_box_key"
    BE_PRESENT_AS_CASHIER = "tables.cashier_present"
    FIX_MAXIMUM = "tables.fix_maximum"
    FIX_MAXIMUM_AS_DELEGATE = "tables.fix_maximum_as_delegate"
    GRANT_DELEGATION = "tables.grant_delegation"
    BE_DELEGATE = "tables.be_delegate"
    RECORD_AUTHORISED_MINIMUM = "tables.record_authorised_minimum"
    STAMP_AUTHORISED_MINIMUM = "tables.stamp_authorised_minimum"
    RECORD_MINISTRY_NOTICE = "tables.record_ministry_notice"
    CONTROL_REGISTER = "tables.control_register"
    STAMP_CONTROL_REGISTER = "tables.stamp_control_register"
    UPLOAD_HAND_LOG = "tables.upload_hand_log"
    ACKNOWLEDGE_DISCREPANCIES = "tables.acknowledge_discrepancies"
    # The house books
    HOUSE_BOOKS = "house.books"
    TRANSFER_ORPHANS = "house.transfer_orphans"
    APPROVALS = "house.approvals"
    COUNT_TIPS = "house.count_tips"
    ASSIGN_DEVICE = "house.assign_device"
    CLOSE_DOWN = "house.close_down"
    REFUSE_ENTRY = "house.refuse_entry"
    GRANT_ROLES = "house.grant_roles"
    # Registers (PDF) asked from the admin
    REQUEST_REGISTER = "registers.request"
    # The officers' portal and API (inspection.portal.access): their values are the portal's
    # action names.
    READ = "read"
    VISA = "visa"
    CLOSE_INCIDENT = "close_incident"
    PRINT = "print"  # a register's signed PDF: a print request, which changes no book
    DEMAND_OPENING = "demand_opening"  # the officer's demand to open the cabinet (FR 39, LU 6)

    @classmethod
    def _missing_(cls, value: object) -> Act | None:
        return declared_member(DECLARED_ACTS, value)


@dataclass(frozen=True)
class Rule:
    """Who may perform an act; ``code``, ``message`` and ``rule`` (the key of the
    article in casino_ops.regulations, ``""`` when the text names nobody) make its refusal."""

    roles: tuple[str, ...]
    code: str
    message: Any
    rule: str = ""


_M = roles.MANAGEMENT
_D = (roles.DIRECTOR,)
_O = (roles.OFFICER,)

ACTS: dict[Act, Rule] = {
    Act.CASINO_SETTINGS: Rule(
        _D, "ROLE_REQUIRED", gettext_lazy("Seul le directeur responsable modifie les paramètres du casino.")
    ),
    Act.DEPOT_SETTINGS: Rule(
        _D, "ROLE_REQUIRED", gettext_lazy("Seul le directeur responsable modifie les paramètres du dépôt.")
    ),
    Act.DEPOT: Rule(
        _M,
        "ROLE_REQUIRED",
        gettext_lazy("Seuls le directeur et les membres du comité de direction tiennent le dépôt."),
        "depot.cabinet_key",
    ),
    Act.HOLD_KEY: Rule(
        _M,
        Refusal.KEY_HOLDER_ROLE.code,
        gettext_lazy(
            "La clé unique du dépôt est détenue par le directeur ou un membre du comité de direction."
        ),
        "depot.cabinet_key",
    ),
    Act.CHECK_AT_TABLE: Rule(
        (roles.CROUPIER, *_M),
        "ROLE_REQUIRED",
        gettext_lazy("Le contrôle d'un jeu à la table revient au chef de table."),
        "depot.issue_and_unseal",
    ),
    Act.REPORT_INCIDENT: Rule(
        (roles.CROUPIER, *_M),
        "ROLE_REQUIRED",
        gettext_lazy("Un incident est signalé par le chef de table ou la direction."),
        "depot.incident",
    ),
    Act.RECORD_INCIDENT_NOTICE: Rule(
        (roles.OFFICER, *_M),
        "ROLE_REQUIRED",
        gettext_lazy("L'avis d'un incident est enregistré par l'officier ou la direction."),
        "depot.incident",
    ),
    Act.APPROVE_DEPOT_CORRECTION: Rule(
        _D,
        "CORRECTION_BY_DIRECTOR",
        gettext_lazy("Une correction est approuvée par le directeur responsable."),
        "depot.correction",
    ),
    Act.PUT_ON_FLOOR: Rule(
        _M,
        "MANAGEMENT_REQUIRED",
        gettext_lazy("Seul le directeur responsable ou un membre du comité de direction accomplit cet acte."),
    ),
    Act.SIGN_ADVANCE: Rule(
        _M,
        "SIGNATURE_REQUIRED",
        gettext_lazy(
            "Seul le directeur responsable ou un membre du comité de direction signe le carnet d'avances."
        ),
        "advance.count_and_sign",
    ),
    Act.COUNT: Rule(
        (roles.CROUPIER, *_M),
        "COUNTED_BY_STAFF",
        gettext_lazy("Le comptage est fait par le chef de table (croupier)."),
        "advance.count_and_sign",
    ),
    Act.HOLD_BOX_KEY: Rule(
        (roles.CROUPIER, *_M),
        Refusal.KEY_HOLDER.code,
        gettext_lazy(
            "La clé de la caisse reste au directeur, à un membre du comité de direction ou au chef de partie."
        ),
        "session.interruption",
    ),
    Act.BE_PRESENT_AS_CASHIER: Rule(
        (roles.CASHIER,),
        Refusal.CASHIER_ABSENT.code,
        gettext_lazy("La personne indiquée comme caissier n'a pas ce rôle."),
        "advance.count_and_sign",
    ),
    Act.FIX_MAXIMUM: Rule(
        _D,
        Refusal.MAXIMUM_BY_DIRECTOR.code,
        gettext_lazy(
            "Le maximum est fixé par le directeur responsable, ou par un membre du comité de direction "
            "inscrit comme son délégué agréé pour la direction des jeux à cette date."
        ),
        "limits.maximum_by_director",
    ),
    Act.FIX_MAXIMUM_AS_DELEGATE: Rule(
        (roles.COMMITTEE,),
        Refusal.MAXIMUM_BY_DIRECTOR.code,
        gettext_lazy(
            "Le maximum est fixé par le directeur responsable, ou par un membre du comité de direction "
            "inscrit comme son délégué agréé pour la direction des jeux à cette date."
        ),
        "limits.maximum_by_director",
    ),
    Act.GRANT_DELEGATION: Rule(
        _D,
        "DIRECTOR_REQUIRED",
        gettext_lazy("Seul le directeur responsable désigne son délégué."),
        "limits.maximum_by_director",
    ),
    Act.BE_DELEGATE: Rule(
        (roles.COMMITTEE,),
        Refusal.DELEGATE_NOT_COMMITTEE.code,
        gettext_lazy("Le délégué est un membre du comité de direction."),
        "limits.maximum_by_director",
    ),
    Act.RECORD_AUTHORISED_MINIMUM: Rule(
        _D,
        "DIRECTOR_REQUIRED",
        gettext_lazy("Seul le directeur responsable inscrit le minimum d'un arrêté d'autorisation."),
        "limits.authorised_minimum",
    ),
    Act.RECORD_MINISTRY_NOTICE: Rule(
        _D,
        "DIRECTOR_REQUIRED",
        gettext_lazy("Seul le directeur responsable informe le ministre d'un relèvement du minimum."),
        "limits.ministry_notice",
    ),
    Act.STAMP_AUTHORISED_MINIMUM: Rule(
        _O,
        "OFFICER_REQUIRED",
        gettext_lazy("Seul un fonctionnaire vise le minimum autorisé."),
        "limits.authorised_minimum",
    ),
    Act.CONTROL_REGISTER: Rule(
        _D,
        "DIRECTOR_REQUIRED",
        gettext_lazy("Seul le directeur responsable approuve une correction ou arrête la journée."),
        "books.no_erasure",
    ),
    Act.STAMP_CONTROL_REGISTER: Rule(
        _O,
        "OFFICER_REQUIRED",
        gettext_lazy("Seul un fonctionnaire vise la journée arrêtée au registre de contrôle."),
        "control_register",
    ),
    Act.UPLOAD_HAND_LOG: Rule(
        (roles.MACHINE, roles.CROUPIER, *_M),
        "ROLE_REQUIRED",
        gettext_lazy("Vous ne pouvez pas déposer de journal de mains."),
    ),
    Act.ACKNOWLEDGE_DISCREPANCIES: Rule(
        _D,
        "DIRECTOR_REQUIRED",
        gettext_lazy("Seul le directeur responsable prend connaissance des écarts."),
        "books.no_erasure",
    ),
    Act.HOUSE_BOOKS: Rule(
        _M,
        "ROLE_REQUIRED",
        gettext_lazy("Seuls le directeur et les membres du comité de direction tiennent ces livres."),
    ),
    Act.TRANSFER_ORPHANS: Rule(
        _D,
        "ORPHANS_TRANSFER_BY_DIRECTOR",
        gettext_lazy(
            "Le versement des orphelins et l'avis au Ministre des Finances sont faits par le directeur responsable."
        ),
        "house.orphans",
    ),
    Act.APPROVALS: Rule(
        _D,
        "APPROVALS_BY_DIRECTOR",
        gettext_lazy("Les agréments sont tenus par le directeur responsable."),
        "house.approvals",
    ),
    Act.COUNT_TIPS: Rule(
        (*_M, roles.CASHIER),
        "TIPS_COUNT_ROLE",
        gettext_lazy("Les pourboires sont comptés par la direction ou la caisse."),
        "house.tips",
    ),
    Act.ASSIGN_DEVICE: Rule(
        _D,
        "DEVICE_BY_DIRECTOR",
        gettext_lazy("Le directeur affecte les sabots aux tables."),
        "house.devices",
    ),
    Act.CLOSE_DOWN: Rule(
        _D,
        "CLOSING_BY_DIRECTOR",
        gettext_lazy("La cessation de l'exploitation est inscrite par le directeur responsable."),
        "house.closing",
    ),
    Act.REFUSE_ENTRY: Rule(
        _M,
        "ROLE_REQUIRED",
        gettext_lazy("Les entrées refusées aux exclus sont inscrites par la direction."),
        "house.exclusions.entrance",
    ),
    Act.GRANT_ROLES: Rule(
        _D,
        "ROLES_BY_DIRECTOR",
        gettext_lazy("Seul le directeur responsable attribue ou retire les rôles et inscrit les noms."),
        "people.roles",
    ),
    Act.REQUEST_REGISTER: Rule(
        _M, "ROLE_REQUIRED", gettext_lazy("Les registres sont demandés par la direction ou un officier.")
    ),
    Act.READ: Rule(_O, "ROLE_REQUIRED", gettext_lazy("Réservé aux officiers de police ou de contrôle.")),
    Act.VISA: Rule(
        _O,
        "VISA_OFFICER_ONLY",
        gettext_lazy("Seul un officier de police ou de contrôle vise les registres du dépôt."),
        "depot.order_book",
    ),
    Act.CLOSE_INCIDENT: Rule(
        _O,
        "CLOSURE_OFFICER_ONLY",
        gettext_lazy("Seul un officier de police ou de contrôle clôt un incident."),
        "depot.incident",
    ),
    Act.PRINT: Rule(_O, "ROLE_REQUIRED", gettext_lazy("Réservé aux officiers de police ou de contrôle.")),
    Act.DEMAND_OPENING: Rule(
        _O,
        "DEMAND_BY_OFFICER",
        gettext_lazy("Seul un officier de police ou de contrôle exige l'ouverture du dépôt."),
        "depot.cabinet_key",
    ),
}


#: The acts declared beside their services (:func:`declare`), by name: members of :class:`Act`
#: made at start-up, not among those its class writes (``list(Act)``).
DECLARED_ACTS: Registry[Act] = Registry("casino_ops.access.DECLARED_ACTS")
#: Who may perform each declared act, by the act's value (the declared acts' rows of the table).
DECLARED_RULES: Registry[Rule] = Registry("casino_ops.access.DECLARED_RULES")


def declare(name: str, value: str, *, roles: tuple[str, ...], code: str, message: Any, rule: str = "") -> Act:
    """A new act, declared beside its service rather than in :class:`Act` and :data:`ACTS`: its
    member ``Act.<name>`` (value ``value``) and its row of the table, who may perform it
    (``roles``), the refusal of anyone else (``code``, ``message``) and the article naming who
    acts (``rule``, a key of :mod:`casino_ops.regulations`; ``""`` when the text names nobody)."""
    act = declare_member(Act, DECLARED_ACTS, name, value)
    DECLARED_RULES.register(value, Rule(tuple(roles), code, message, rule))
    return act


def declared_acts() -> list[Act]:
    """The acts declared beside their services (:func:`declare`), in the order declared."""
    return list(DECLARED_ACTS)


def rule_of(act: Act | str) -> Rule:
    """Who may perform ``act``: its row of :data:`ACTS`, or of a declared act's."""
    act = Act(act)
    found = ACTS.get(act) or DECLARED_RULES.get(act.value)
    if found is None:
        raise KeyError(act)
    return found


class RoleRequired(RegulationError, PermissionDenied):
    """The acting user lacks the role the act needs (403 in the API).

    Also a ``PermissionDenied``, so that a plain Django view left unguarded answers 403
    rather than a server error."""

    def __init__(self, act: Act, code: str, message: str, article: str = "", *, field: str | None = "actor"):
        super().__init__(code, message, article, field=field)
        self.act = act


def roles_for(act: Act) -> tuple[str, ...]:
    return rule_of(act).roles


def acting_user(request: HttpRequest) -> User:
    """The signed-in user who performs an act through ``request`` (the views' gate has
    already sent anonymous visitors away: one here is refused, never passed to a service)."""
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise PermissionDenied
    return user


def may(user: Any, act: Act | str) -> bool:
    """May ``user`` (an active user holding one of the act's roles) perform ``act``?"""
    if user is None or not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
        return False
    return roles.has_role(user, *rule_of(act).roles)


def _refusal(act: Act, profile: str | None, article: str | None) -> tuple[Rule, str]:
    rule = rule_of(act)
    if article is None:
        article = ""
        if rule.rule:
            if profile is None:
                profile = get_casino().profile
            article = cite(rule.rule, profile)
    return rule, article


def require(
    user: Any,
    act: Act,
    *,
    profile: str | None = None,
    field: str = "actor",
    article: str | None = None,
    code: str | None = None,
    message: str | None = None,
    gate: bool = True,
) -> None:
    """Refuse with :class:`RoleRequired` unless ``user`` may perform ``act``. ``article``,
    ``code`` and ``message`` override the table's where a book words its refusal itself.
    Holding the role, the person also passes the checks the books above bind every act by a
    person with (:func:`require_approved`); ``gate=False`` only where the act's service makes
    that check itself (the director recording his own approval)."""
    if may(user, act):
        if gate:
            require_approved(user, act, profile=profile, field=field)
        return
    rule, cited = _refusal(act, profile, article)
    raise RoleRequired(act, code or rule.code, message or _(str(rule.message)), cited, field=field)


def require_approved(user: Any, act: Act, *, profile: str | None = None, field: str = "actor") -> None:
    """The gate every act by a person of the casino passes, whatever its book: the checks the
    apps above register for :attr:`casino_ops.act_checks.Hook.PERFORM` (LU art. 51, 54, 63: the
    person holds an approval in force on the gaming day the act is done; a revoked person does
    nothing more). An officer of the State and the hand-log machine are not the casino's
    people: nothing is added for them."""
    if user is None or roles.has_role(user, roles.OFFICER, roles.MACHINE):
        return
    act_checks.run(
        act_checks.Hook.PERFORM,
        day=clock.gaming_date(clock.now()),
        profile=profile or "",
        people={field: user},
        at=clock.now(),
        subject=act,
    )


def require_named(
    person: Any, act: Act, *, field: str, profile: str | None = None, article: str | None = None
) -> None:
    """A person named in the act (the croupier who counted, the cashier present, the key's
    receiver) must hold the act's role: otherwise the input is wrong (a RegulationError
    naming ``field``, 400 in the API), not the actor's right."""
    if may(person, act):
        return
    rule, cited = _refusal(act, profile, article)
    raise RegulationError(rule.code, _(str(rule.message)), cited, field=field)


def restrict(user: Any, queryset: QuerySet[M], act: Act | str = Act.READ) -> QuerySet[M]:
    """``queryset`` as ``user`` may see it for ``act``: all of it, or nothing (an object one
    may not see is a 404, never a 403 that would confirm it exists)."""
    return queryset if may(user, act) else queryset.none()
