"""The roles of the casino and what each may do.

Every role is a Django group. The groups are created by a data migration
(``casino_ops/migrations/0002_roles.py``); their permissions are kept exactly
equal to :data:`ROLE_PERMISSIONS` after every ``migrate`` by
:func:`sync_role_permissions`, so that an app added later only has to list its
permissions here. Everything else refers to the constants of this module.

These permissions are the models' view permissions only: they open the reads (the
admin's lists and pages, the API's read lists). Every write, in the admin, the API, the
portal or a command, is a regulated act, and who may perform it is decided in
:mod:`casino_ops.access` alone.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext_lazy as _

DIRECTOR = "directeur"
COMMITTEE = "comite_direction"
CROUPIER = "chef_de_table"
CASHIER = "caissier"
OFFICER = "officier"
# Not a person: the machine that sends the tables' hand logs (relevés de mains) with
# an API token. Its only right is that upload (casino_ops/authentication.py).
MACHINE = "depot_machine"

ALL_ROLES = (DIRECTOR, COMMITTEE, CROUPIER, CASHIER, OFFICER, MACHINE)

LABELS = {
    DIRECTOR: _("Directeur responsable"),
    COMMITTEE: _("Membre du comité de direction"),
    CROUPIER: _("Chef de table / croupier"),
    CASHIER: _("Caissier"),
    OFFICER: _("Officier de police ou de contrôle"),
    MACHINE: _("Machine d'envoi des relevés de mains"),
}

# Roles that may sign for the casino: advances, "exact" counts, the cabinet key.
MANAGEMENT = (DIRECTOR, COMMITTEE)
# Roles whose login needs a second factor.
TWO_FACTOR = (DIRECTOR, OFFICER)

_VIEW_ALL = [
    "audit.view_auditevent",
    "casino_ops.view_casinosettings",
    "tables.view_table",
]

# "app_label.codename" per role. Apps append their own in their AppConfig.ready()
# through extend_role_permissions(), never by editing another role here.
ROLE_PERMISSIONS: dict[str, set[str]] = {
    DIRECTOR: {*_VIEW_ALL},
    COMMITTEE: {*_VIEW_ALL},
    CROUPIER: {"casino_ops.view_casinosettings", "tables.view_table"},
    CASHIER: {"casino_ops.view_casinosettings", "tables.view_table"},
    OFFICER: {*_VIEW_ALL},
    MACHINE: set(),  # its upload is an act (casino_ops.access: Act.UPLOAD_HAND_LOG)
}


# Roles that are no person: apps never extend them (their rights are fixed here).
FIXED_ROLES = (MACHINE,)


def extend_role_permissions(extra: dict[str, set[str] | list[str]]) -> None:
    """Add an app's view permissions to the roles (called from ``AppConfig.ready``); a model's
    add, change or delete permission is refused: a write is an act (casino_ops.access)."""
    for role, perms in extra.items():
        writes = sorted(p for p in perms if not p.split(".", 1)[-1].startswith("view_"))
        if writes:
            raise ValueError(f"a role holds view permissions only, not {writes}: a write is an act")
        if role in FIXED_ROLES:
            raise KeyError(f"the rights of {role!r} are fixed in casino_ops.roles")
        if role not in ROLE_PERMISSIONS:
            raise KeyError(f"unknown role {role!r}")
        ROLE_PERMISSIONS[role].update(perms)


def roles_of(user: AbstractBaseUser | AnonymousUser | None) -> set[str]:
    """The role names of ``user`` (cached on the instance for the request). The officers'
    group counts only with an enrolment of the authority in force (casino_ops.officers)."""
    if user is None or not user.is_authenticated:
        return set()
    cached = getattr(user, "_casino_roles", None)
    if cached is None:
        cached = set(user.groups.values_list("name", flat=True))  # type: ignore[attr-defined]
        if OFFICER in cached:
            # The group alone makes no officer: only an enrolment the authority signed, in force.
            from .officers import enrolment_in_force  # cycle: officers reads the models, which read roles

            if enrolment_in_force(user) is None:
                cached.discard(OFFICER)
        user._casino_roles = cached  # type: ignore[attr-defined]  # a per-request cache on the instance
    return cached


def has_role(user: AbstractBaseUser | AnonymousUser | None, *roles: str) -> bool:
    return bool(roles_of(user) & set(roles))


def is_management(user: AbstractBaseUser | AnonymousUser | None) -> bool:
    """Director or committee member: may sign for the casino."""
    return has_role(user, *MANAGEMENT)


def is_officer(user: AbstractBaseUser | AnonymousUser | None) -> bool:
    return has_role(user, OFFICER)


def sync_role_permissions(verbosity: int = 0) -> None:
    """Make each role's group hold exactly its permissions (idempotent).

    Permissions that do not exist yet (an app not migrated) are skipped; the
    post-migrate signal calls this once every app is done. The rows are written in one
    order, the roles' then the permissions' keys, so that every database migrated from the
    same code holds the same rows under the same keys, whatever the process.
    """
    from django.contrib.auth.models import Group, Permission

    through = Group.permissions.through
    for role in ALL_ROLES:
        group, _created = Group.objects.get_or_create(name=role)
        by_app: dict[str, list[str]] = {}
        for perm in sorted(ROLE_PERMISSIONS[role]):
            app_label, codename = perm.split(".", 1)
            by_app.setdefault(app_label, []).append(codename)
        wanted: set[int] = set()
        for app_label, codenames in by_app.items():
            wanted.update(
                Permission.objects.filter(
                    content_type__app_label=app_label, codename__in=codenames
                ).values_list("pk", flat=True)
            )
        held = set(group.permissions.values_list("pk", flat=True))
        if held - wanted:
            group.permissions.remove(*sorted(held - wanted))
        through.objects.bulk_create([through(group=group, permission_id=pk) for pk in sorted(wanted - held)])
        if verbosity > 1:
            print(f"role {role}: {len(wanted)} permissions")
