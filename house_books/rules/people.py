"""Who may hold which role (FR art. 39, 68, 69; LU art. 6, 10, 51, 54): pure checks.

An officer is never casino staff, and his role comes from the authority's enrolment alone; the
hand-log machine is no person; the direction (director, committee) signs what the table staff
(croupier, cashier) count, so no one holds both sides, and the croupier who counts is never the
cashier who witnesses the count.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from casino_ops import roles
from casino_ops.regulations import RegulationError, cite

#: Pairs of roles no person holds together.
INCOMPATIBLE: frozenset[frozenset[str]] = frozenset(
    {
        *(frozenset({roles.OFFICER, other}) for other in roles.ALL_ROLES if other != roles.OFFICER),
        *(
            frozenset({roles.MACHINE, other})
            for other in roles.ALL_ROLES
            if other not in (roles.MACHINE, roles.OFFICER)
        ),
        *(
            frozenset({signer, counter})
            for signer in roles.MANAGEMENT
            for counter in (roles.CROUPIER, roles.CASHIER)
        ),
        frozenset({roles.CROUPIER, roles.CASHIER}),
    }
)


def incompatible_with(role: str, held: Iterable[str]) -> list[str]:
    """The roles of ``held`` that no one holds together with ``role``, in the roles' order."""
    held = set(held)
    return [other for other in roles.ALL_ROLES if other in held and frozenset({role, other}) in INCOMPATIBLE]


def label(role: str) -> str:
    return str(roles.LABELS.get(role, role))


def check_grant(*, role: str, held: Iterable[str], self_grant: bool, profile: str) -> None:
    """Refuse a grant the casino may not make: an unknown role, the officer's (the authority's),
    one the person already holds, one incompatible with a role held, or one given to oneself."""
    held = set(held)
    if role not in roles.ALL_ROLES:
        raise RegulationError(
            "ROLE_UNKNOWN",
            _("Rôle inconnu : %(r)s.") % {"r": role},
            cite("people.roles", profile),
            field="role",
        )
    if role == roles.OFFICER:
        raise RegulationError(
            "OFFICER_BY_AUTHORITY_ONLY",
            _(
                "Le rôle d'officier de police ou de contrôle vient seulement de l'habilitation donnée "
                "par l'autorité : le casino ne l'attribue pas."
            ),
            cite("people.officer", profile),
            field="role",
        )
    if self_grant:
        raise RegulationError(
            "ROLE_SELF_GRANT",
            _("Personne ne s'attribue ni ne se retire un rôle à lui-même."),
            cite("people.roles", profile),
            field="person",
        )
    if role in held:
        raise RegulationError(
            "ROLE_ALREADY_HELD",
            _("Cette personne a déjà le rôle « %(r)s ».") % {"r": label(role)},
            cite("people.roles", profile),
            field="role",
        )
    clash = incompatible_with(role, held)
    if clash:
        officer = roles.OFFICER in clash
        raise RegulationError(
            "ROLES_INCOMPATIBLE",
            _(
                "Le rôle « %(r)s » est incompatible avec celui de « %(o)s » que cette personne détient : "
                "un officier n'est jamais du personnel du casino, et qui compte ne signe pas."
            )
            % {"r": label(role), "o": ", ".join(label(c) for c in clash)},
            cite("people.officer" if officer else "people.incompatible", profile),
            field="role",
        )


def check_withdrawal(*, role: str, held: Iterable[str], self_grant: bool, profile: str) -> None:
    """Refuse taking back a role not held, the officer's (the authority ends his enrolment), or
    one's own."""
    if role == roles.OFFICER:
        raise RegulationError(
            "OFFICER_BY_AUTHORITY_ONLY",
            _(
                "Le rôle d'officier de police ou de contrôle vient seulement de l'habilitation donnée "
                "par l'autorité : le casino ne le retire pas."
            ),
            cite("people.officer", profile),
            field="role",
        )
    if self_grant:
        raise RegulationError(
            "ROLE_SELF_GRANT",
            _("Personne ne s'attribue ni ne se retire un rôle à lui-même."),
            cite("people.roles", profile),
            field="person",
        )
    if role not in set(held):
        raise RegulationError(
            "ROLE_NOT_HELD",
            _("Cette personne n'a pas le rôle « %(r)s ».") % {"r": label(role)},
            cite("people.roles", profile),
            field="role",
        )


def check_first_director(*, book_kept: bool, profile: str) -> None:
    """The installation names the first director only while the book of roles is empty and no
    one holds a role the book gave: afterwards the director gives the roles (FR art. 68, 69;
    LU art. 10, 51, 54)."""
    if book_kept:
        raise RegulationError(
            "FIRST_DIRECTOR_ALREADY_NAMED",
            _("Le premier directeur est déjà nommé : les rôles sont attribués par le directeur."),
            cite("people.roles", profile),
            field="person",
        )
