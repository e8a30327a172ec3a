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
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite

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
        raise Refusal.ROLE_UNKNOWN.error(profile, r=role)
    if role == roles.OFFICER:
        raise Refusal.OFFICER_BY_AUTHORITY_ONLY.error(profile)
    if self_grant:
        raise Refusal.ROLE_SELF_GRANT.error(profile)
    if role in held:
        raise Refusal.ROLE_ALREADY_HELD.error(profile, r=label(role))
    clash = incompatible_with(role, held)
    if clash:
        officer = roles.OFFICER in clash
        raise Refusal.ROLES_INCOMPATIBLE.error(
            article=cite("people.officer" if officer else "people.incompatible", profile),
            r=label(role),
            o=", ".join(label(c) for c in clash),
        )


def check_withdrawal(*, role: str, held: Iterable[str], self_grant: bool, profile: str) -> None:
    """Refuse taking back a role not held, the officer's (the authority ends his enrolment), or
    one's own."""
    if role == roles.OFFICER:
        raise Refusal.OFFICER_BY_AUTHORITY_ONLY.error(
            profile,
            message=_(
                "Le rôle d'officier de police ou de contrôle vient seulement de l'habilitation donnée "
                "par l'autorité : le casino ne le retire pas."
            ),
        )
    if self_grant:
        raise Refusal.ROLE_SELF_GRANT.error(profile)
    if role not in set(held):
        raise Refusal.ROLE_NOT_HELD.error(profile, r=label(role))


def check_first_director(*, book_kept: bool, profile: str) -> None:
    """The installation names the first director only while the book of roles is empty and no
    one holds a role the book gave: afterwards the director gives the roles (FR art. 68, 69;
    LU art. 10, 51, 54)."""
    if book_kept:
        raise Refusal.FIRST_DIRECTOR_ALREADY_NAMED.error(profile)
