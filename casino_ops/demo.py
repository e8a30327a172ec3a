"""Demo data of the casino itself: one user per role (their roles are given by the director's
act, in ``house_books.demo.seed_roles``, and the casino's settings by theirs, in
``house_books.demo.seed_casino``, both acts being recorded in the chain).

``manage.py seed_demo`` (in the audit app, which stands above every app) calls each
app's ``demo`` module in order (see its ``DEMO_STEPS``). Each must be idempotent:
running it again changes nothing. ``context`` carries what earlier apps made
(``context["users"][role]``, ``context["casino"]``, ``context["tables"]``).
"""

from __future__ import annotations

import copy
import datetime as dt
import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import BasePasswordHasher, get_hasher, make_password
from django.contrib.auth.models import Group
from django.core.exceptions import ImproperlyConfigured

from . import authority, officers, passkeys, roles

DEMO_USERS = {
    roles.DIRECTOR: ("directeur", "Jeanne", "Marchal", "demo-directeur"),
    roles.COMMITTEE: ("comite", "Paul", "Lefèvre", "demo-comite"),
    roles.CROUPIER: ("croupier", "Lucie", "Bernard", "demo-croupier"),
    roles.CASHIER: ("caissier", "Marc", "Petit", "demo-caissier"),
    roles.OFFICER: ("officier", "Claire", "Dubois", "demo-officier"),
    # the hand-log machine signs in with an API token only (no password)
    roles.MACHINE: ("releves", "Machine", "d'envoi des relevés", None),
}


#: The work factor of the demo users' hashes (PBKDF2's default is over a million rounds).
DEMO_HASH_ITERATIONS = 1000


def _demo_hasher() -> BasePasswordHasher:
    """The site's own hasher, with few rounds when it counts them (PBKDF2).

    The demo passwords are printed by ``seed_demo`` and written here: slowing their
    guessing protects nothing, and each full-strength hash costs half a second. The hash
    names its rounds, so the site's hasher checks it as any other; at the user's first
    sign-in Django hashes the password again with the site's full rounds (the hasher's
    ``must_update``). Every other user's password is hashed by the site's hasher as set.
    """
    hasher = copy.copy(get_hasher())
    if isinstance(getattr(hasher, "iterations", None), int):
        hasher.iterations = min(hasher.iterations, DEMO_HASH_ITERATIONS)
    return hasher


def seed(context: dict[str, Any]) -> None:
    User = get_user_model()
    users = {}
    hasher = _demo_hasher()
    for role, (username, first, last, password) in DEMO_USERS.items():
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User.objects.create_user(
                username=username,
                password=None,  # hashed below, with the demo's rounds
                first_name=first,
                last_name=last,
                email=f"{username}@casino-demo.example",
                is_staff=role not in (roles.OFFICER, roles.MACHINE),
            )
            if password:
                user.password = make_password(password, hasher=hasher)
                user.save(update_fields=["password"])
            if role == roles.OFFICER:
                # the authority's enrolment of the officer (no act of the casino gives the role)
                user.groups.add(Group.objects.get(name=role))
            context["created"].append(f"user {username}")
        users[role] = user
    context["users"] = users
    context["roles"] = {user: role for role, user in users.items()}
    context["passwords"] = {username: pw for (username, _f, _l, pw) in DEMO_USERS.values() if pw}


def demo_enrolment(
    username: str,
    name: str,
    *,
    valid_from: dt.datetime | None = None,
    valid_to: dt.datetime | None = None,
    serial: str = "",
) -> dict[str, Any]:
    """DEMO ONLY: an enrolment of the demo software passkey for ``username``, signed with the
    demo authority's key (``OFFICER_AUTHORITY_DEMO_KEY``) as ``manage.py enrol_officer
    --demo-passkey`` signs it on the authority's side."""
    path = getattr(settings, "OFFICER_AUTHORITY_DEMO_KEY", "")
    if not path:
        raise ImproperlyConfigured(
            "The demo enrols its officer with a demo authority: run `manage.py make_dev_authority "
            "--out var/dev-authority` and set the two lines it prints (scripts/start.sh does)."
        )
    software = passkeys.SoftwarePasskey.demo()
    now = dt.datetime.now(dt.UTC)
    valid_from = valid_from or now - dt.timedelta(days=3 * 365)
    document = authority.enrolment(
        username=username,
        name=name,
        casino=officers.casino_id(),
        valid_from=valid_from,
        valid_to=valid_to or now + dt.timedelta(days=365),
        rp_id=officers.rp_id(),
        credential_id=software.credential_id,
        public_key=software.public_key,
        serial=serial or f"demo-{username}-{secrets.token_hex(4)}",
        issued_at=now,
    )
    return authority.sign(document, authority.load_key(Path(path)))
