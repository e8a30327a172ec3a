"""``manage.py add_staff USERNAME --role ROLE [--role ROLE…] [--first-name …] [--last-name …]
[--email …] [--password-env VAR]``: a person of the casino given his roles, by their French names
("Directeur responsable", "Chef de table / croupier"…) or their codes (``directeur``…).

The first director of a new casino is made this way (there is no one yet to make him in the
admin). Whoever works in the admin is marked as staff ("Statut équipe") by the command itself;
an officer or the hand-log machine is not (they use the portal or the API). A director or an
officer enrols his authentication app (a six-digit code) at his first sign-in. Run again for an
existing person, the command adds the roles given and changes nothing else (his password
only when one is given).
"""

from __future__ import annotations

import getpass
import os
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import translation

from casino_ops import roles
from casino_ops.commands import Writes
from casino_ops.regulations import RegulationError
from house_books.services.people import appoint_first_director, grant_role

#: Who works in the admin: every role but the officers (the portal) and the machine (the API).
ADMIN_ROLES = tuple(r for r in roles.ALL_ROLES if r not in (roles.OFFICER, roles.MACHINE))


def role_named(name: str) -> str:
    """The role ``name`` stands for: its code, or its French name (case and spaces aside)."""
    wanted = " ".join(name.split()).casefold()
    with translation.override("fr"):
        for role in roles.ALL_ROLES:
            if wanted in (role.casefold(), " ".join(str(roles.LABELS[role]).split()).casefold()):
                return role
        known = "; ".join(f"« {roles.LABELS[r]} » ({r})" for r in roles.ALL_ROLES)
    raise CommandError(f"--role: no role named « {name} ». The roles: {known}.")


class Command(BaseCommand):
    writes = Writes.ACTS
    help = "Add a person of the casino (or give an existing one more roles), roles by their French names."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--role",
            action="append",
            required=True,
            help='a role, by its French name ("Directeur responsable") or its code (directeur); repeatable',
        )
        parser.add_argument(
            "--by",
            metavar="DIRECTOR",
            help="the director who gives the roles (every role but the first director's)",
        )
        parser.add_argument(
            "--reason", default="Entrée en fonction", help="the reason the book of roles records"
        )
        parser.add_argument("--first-name", default="")
        parser.add_argument("--last-name", default="")
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--password-env",
            metavar="VAR",
            help="read the password from this environment variable (else it is asked for, twice)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        wanted = [role_named(name) for name in options["role"]]
        if roles.OFFICER in wanted:
            raise CommandError(
                "OFFICER_BY_AUTHORITY_ONLY: --role: an officer is made by the authority's enrolment "
                "(manage.py record_enrolment FILE), never by the casino (FR art. 39, LU art. 6)."
            )
        User = get_user_model()
        by = None
        if options["by"]:
            by = User.objects.filter(username=options["by"]).first()
            if by is None:
                raise CommandError(f"--by: no user named « {options['by']} ».")
        username = options["username"].strip()
        if not username:
            raise CommandError("USERNAME: empty.")
        user = User.objects.filter(username=username).first()
        password = self._password(options, user or User(username=username), needed=user is None)
        with transaction.atomic():
            created = user is None
            if user is None:
                user = User.objects.create_user(
                    username=username,
                    password=None,
                    first_name=options["first_name"],
                    last_name=options["last_name"],
                    email=options["email"],
                )
            if password is not None:
                user.set_password(password)
            user.is_staff = user.is_staff or any(role in ADMIN_ROLES for role in wanted)
            user.is_active = True
            user.save()
            for role in wanted:
                if role in set(user.groups.values_list("name", flat=True)):
                    continue
                try:
                    if by is None:
                        if role != roles.DIRECTOR:
                            raise CommandError(
                                "--by: the director who gives this role (the book of roles records who "
                                "gave it); only the first director is named without one."
                            )
                        appoint_first_director(person=user, reason=options["reason"])
                    else:
                        grant_role(actor=by, person=user, role=role, reason=options["reason"])
                except RegulationError as error:
                    raise CommandError(f"{error.code}: {error}") from None
        with translation.override("fr"):
            named = ", ".join(str(roles.LABELS[r]) for r in wanted)
        self.stdout.write(f"{'Créé' if created else 'Mis à jour'} : {username} — {named}.")
        if any(role in roles.TWO_FACTOR for role in wanted):
            self.stdout.write(
                "À sa première connexion, il enregistre son application d'authentification "
                "(code à six chiffres), puis saisit son code à chaque connexion."
            )

    def _password(self, options: dict[str, Any], user: Any, *, needed: bool) -> str | None:
        var = options["password_env"]
        if var:
            password = os.environ.get(var, "")
            if not password:
                raise CommandError(f"--password-env: the variable {var} is empty or not set.")
        elif not needed:
            return None
        else:
            password = getpass.getpass("Mot de passe : ")
            if password != getpass.getpass("Mot de passe (encore) : "):
                raise CommandError("The two passwords differ.")
        try:
            password_validation.validate_password(password, user)
        except ValidationError as error:
            raise CommandError("Password: " + " ".join(error.messages)) from None
        return password
