"""Demo data of the casino itself: one user per role (its settings are set by their act,
in ``house_books.demo.seed_casino``, the act being recorded in the chain).

``manage.py seed_demo`` (in the audit app, which stands above every app) calls each
app's ``demo`` module in order (see its ``DEMO_STEPS``). Each must be idempotent:
running it again changes nothing. ``context`` carries what earlier apps made
(``context["users"][role]``, ``context["casino"]``, ``context["tables"]``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from . import roles

DEMO_USERS = {
    roles.DIRECTOR: ("directeur", "Jeanne", "Marchal", "demo-directeur"),
    roles.COMMITTEE: ("comite", "Paul", "Lefèvre", "demo-comite"),
    roles.CROUPIER: ("croupier", "Lucie", "Bernard", "demo-croupier"),
    roles.CASHIER: ("caissier", "Marc", "Petit", "demo-caissier"),
    roles.OFFICER: ("officier", "Claire", "Dubois", "demo-officier"),
    # the hand-log machine signs in with an API token only (no password)
    roles.MACHINE: ("releves", "Machine", "d'envoi des relevés", None),
}


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
