"""Fill the database with a realistic demo casino (idempotent)."""

from __future__ import annotations

import importlib
from typing import Any

from django.db import transaction

from casino_ops.commands import RegulatedCommand

DEMO_APPS = ("casino_ops", "cards_registry", "tables", "house_books", "audit")


class Command(RegulatedCommand):
    help = "Create the demo casino (FR, four blackjack tables, one user per role). Run it twice: nothing changes."

    def add_arguments(self, parser: Any) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--profile",
            choices=("FR", "LU"),
            default="FR",
            help="The regulation of the demo casino on a fresh database (FR by default).",
        )

    def act(self, *args: Any, **options: Any) -> None:
        context: dict[str, Any] = {"created": [], "profile": options.get("profile") or "FR"}
        with transaction.atomic():
            for app in DEMO_APPS:
                try:
                    module = importlib.import_module(f"{app}.demo")
                except ModuleNotFoundError as exc:
                    if exc.name != f"{app}.demo":
                        raise
                    continue
                module.seed(context)
        if context["created"]:
            self.stdout.write(f"Created: {', '.join(context['created'])}.")
        else:
            self.stdout.write("The demo data was already there: nothing changed.")
        self.stdout.write("Demo users (user / password / role):")
        for user in context["users"].values():
            role = user.groups.first().name
            password = context["passwords"].get(user.username, "(API token only)")
            self.stdout.write(f"  {user.username:<10} {password:<16} {role}")
        for note in context.get("notes", []):
            self.stdout.write(note)
