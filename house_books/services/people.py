"""The book of roles: who may act is itself a recorded act (FR art. 68, 69; LU art. 10, 51, 54).

A role is given or taken back only by the director's act, which writes its line (who gave what
to whom, and why), moves the person's Django group and records its event in the same
transaction; a person's name changes the same way. The officer's role is the authority's (its
enrolment of the officer), never the casino's: no act here gives or takes it. The first director
is named once, at the installation, before any role was given (the act of no one: the system).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import Group, User
from django.db import connection, transaction
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from casino_ops import clock, roles
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.regulations import cite

from ..models import RoleEntry, RoleEntryKind
from ..rules import people as rules
from ..rules.common import required_text
from ..selectors import person_name, roles_book_kept, roles_by_act
from ..serializers import RoleActInSerializer
from ._shared import create, profile


def _lock_book() -> None:
    """Acts on the book of roles queue on one lock: two grants never both read the roles held."""
    if connection.vendor != "postgresql":
        return  # SQLite (the quick start) runs one writing transaction at a time
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('house_books.roles'))")


def _held(person: User) -> set[str]:
    """The roles ``person`` holds now (their groups), read from the database, not a cache."""
    person.__dict__.pop("_casino_roles", None)
    return set(person.groups.filter(name__in=roles.ALL_ROLES).values_list("name", flat=True))


def _write(
    *, actor: User | None, kind: str, person: User, role: str, reason: str, action: Action, article: str
) -> RoleEntry:
    entry = create(
        RoleEntry,
        article,
        kind=kind,
        person=person,
        role=role,
        person_name=person_name(person),
        reason=reason,
        recorded_by=actor,
        recorded_at=clock.now(),
    )
    person.__dict__.pop("_casino_roles", None)
    audit.record(
        actor=actor,
        action=action,
        obj=entry,
        payload={"person": person.get_username(), "role": role, "name": entry.person_name, "reason": reason},
    )
    return entry


@declare_act(
    act=Act.GRANT_ROLES,
    action=Action.HOUSE_ROLE_GRANTED,
    schema=RoleActInSerializer,
    article="people.roles",
)
@transaction.atomic
def grant_role(*, actor: User, person: User, role: str, reason: str) -> RoleEntry:
    """The director gives ``person`` the role ``role`` (never the officer's, never to himself,
    never one incompatible with a role the person holds), for the reason written."""
    return _role_act(
        actor=actor,
        person=person,
        role=role,
        reason=reason,
        kind=RoleEntryKind.GRANT,
        check=rules.check_grant,
        change=person.groups.add,
        action=Action.HOUSE_ROLE_GRANTED,
    )


@declare_act(
    act=Act.GRANT_ROLES,
    action=Action.HOUSE_ROLE_WITHDRAWN,
    schema=RoleActInSerializer,
    article="people.roles",
)
@transaction.atomic
def withdraw_role(*, actor: User, person: User, role: str, reason: str) -> RoleEntry:
    """The director takes back the role ``role`` from ``person`` (never the officer's, never his
    own), for the reason written."""
    return _role_act(
        actor=actor,
        person=person,
        role=role,
        reason=reason,
        kind=RoleEntryKind.WITHDRAWAL,
        check=rules.check_withdrawal,
        change=person.groups.remove,
        action=Action.HOUSE_ROLE_WITHDRAWN,
    )


def _role_act(
    *,
    actor: User,
    person: User,
    role: str,
    reason: str,
    kind: str,
    check: Callable[..., None],
    change: Callable[[Group], Any],
    action: Action,
) -> RoleEntry:
    """A role given or taken back: the reason required, the book locked, the rule's ``check`` of
    the roles held, the person's group ``change``d, the entry written."""
    p = profile()
    article = cite("people.roles", p)
    reason = required_text(reason, "reason", _("le motif"), article)
    _lock_book()
    check(role=role, held=_held(person), self_grant=person.pk == actor.pk, profile=p)
    change(Group.objects.get(name=role))
    return _write(
        actor=actor, kind=kind, person=person, role=role, reason=reason, action=action, article=article
    )


@declare_act(
    act=Act.GRANT_ROLES,
    action=Action.HOUSE_PERSON_RENAMED,
    schema=RoleActInSerializer,
    article="people.roles",
)
@transaction.atomic
def rename_person(*, actor: User, person: User, first_name: str, last_name: str, reason: str) -> RoleEntry:
    """The director writes a person's new name (a marriage, a spelling set right), for the reason
    written: the books name people as this act leaves them."""
    p = profile()
    article = cite("people.roles", p)
    reason = required_text(reason, "reason", _("le motif"), article)
    first_name = required_text(first_name, "first_name", _("le prénom"), article)
    last_name = required_text(last_name, "last_name", _("le nom"), article)
    _lock_book()
    person.first_name, person.last_name = first_name, last_name
    person.full_clean(exclude=["password", "username"])
    person.save(update_fields=["first_name", "last_name"])
    return _write(
        actor=actor,
        kind=RoleEntryKind.NAME,
        person=person,
        role="",
        reason=reason,
        action=Action.HOUSE_PERSON_RENAMED,
        article=article,
    )


@transaction.atomic
def appoint_first_director(*, person: User, reason: str) -> RoleEntry:
    """The installation names the first director (the act of the system, no one's): only while
    the book of roles is empty and no one holds a role the book did not give."""
    p = profile()
    article = cite("people.roles", p)
    reason = required_text(reason, "reason", _("le motif"), article)
    _lock_book()
    rules.check_first_director(book_kept=bool(roles_book_kept() or roles_by_act()), profile=p)
    held = _held(person)
    rules.check_grant(role=roles.DIRECTOR, held=held, self_grant=False, profile=p)
    person.groups.add(Group.objects.get(name=roles.DIRECTOR))
    return _write(
        actor=None,
        kind=RoleEntryKind.GRANT,
        person=person,
        role=roles.DIRECTOR,
        reason=reason,
        action=Action.HOUSE_ROLE_GRANTED,
        article=article,
    )


def grants_in_force(person: Any) -> set[str]:
    """The roles ``person`` holds by the book of roles."""
    return roles_by_act(person).get(person.pk, set())
