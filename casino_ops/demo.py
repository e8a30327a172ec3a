"""Demo data of the casino itself: its settings and one user per role.

``manage.py seed_demo`` (in the audit app, which stands above every app) calls each
app's ``demo`` module in order (see its ``DEMO_STEPS``). Each must be idempotent:
running it again changes nothing. ``context`` carries what earlier apps made
(``context["users"][role]``, ``context["casino"]``, ``context["tables"]``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from . import roles
from .models import CasinoSettings
from .services import update_casino_settings

DEMO_USERS = {
    roles.DIRECTOR: ("directeur", "Jeanne", "Marchal", "demo-directeur"),
    roles.COMMITTEE: ("comite", "Paul", "Lefèvre", "demo-comite"),
    roles.CROUPIER: ("croupier", "Lucie", "Bernard", "demo-croupier"),
    roles.CASHIER: ("caissier", "Marc", "Petit", "demo-caissier"),
    roles.OFFICER: ("officier", "Claire", "Dubois", "demo-officier"),
    # the hand-log machine signs in with an API token only (no password)
    roles.MACHINE: ("releves", "Machine", "d'envoi des relevés", None),
}


def _settings_recorded() -> bool:
    from audit.models import AuditEvent

    return AuditEvent.objects.filter(action="casino.settings_changed").exists()


def seed(context: dict[str, Any]) -> None:
    User = get_user_model()
    users = {}
    for role, (username, first, last, password) in DEMO_USERS.items():
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User.objects.create_user(
                username=username,
                password=password,
                first_name=first,
                last_name=last,
                email=f"{username}@casino-demo.example",
                is_staff=role not in (roles.OFFICER, roles.MACHINE),
            )
            user.groups.add(Group.objects.get(name=role))
            context["created"].append(f"user {username}")
        users[role] = user
    context["users"] = users
    context["passwords"] = {username: pw for (username, _f, _l, pw) in DEMO_USERS.values() if pw}

    # a default row may exist already (made on first read); the demo sets it once
    if not _settings_recorded():
        luxembourg = context.get("profile") == "LU"
        update_casino_settings(
            actor=users[roles.DIRECTOR],
            name="Casino de la Moselle — démonstration"
            if luxembourg
            else "Casino de la Côte — démonstration",
            profile="LU" if luxembourg else "FR",
            authorised_min_stake=Decimal("10.00") if luxembourg else Decimal("5.00"),
            authorisation_reference="Arrêté ministériel du 2 janvier 2026 (démonstration)",
            **({} if luxembourg else {"surrender": True}),
        )
        context["created"].append("casino settings")
    context["casino"] = CasinoSettings.objects.get()
