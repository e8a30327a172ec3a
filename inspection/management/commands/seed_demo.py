"""Fill the database with a realistic demo casino (idempotent)."""

from __future__ import annotations

import functools
from typing import Any

from django.db import transaction

import cards_registry.demo
import casino_ops.demo
import house_books.demo
import tables.demo
from casino_ops import officers
from casino_ops.commands import RegulatedCommand
from inspection import demo as audit_demo

#: Each app's demo data, in the order they build on each other: the users, their roles (given
#: by the director's act, recorded), the casino's
#: settings (their act is recorded, so it stands with the house books),
#: its tables, the depot (which issues them decks), the tables' books, the house books,
#: then the officers' own (their devices). The officers' side stands above every app,
#: so the command that composes them lives here. Under LU the house books write the month
#: before yesterday with their shoes, through the tables' writer of an older gaming day.
DEMO_STEPS = (
    casino_ops.demo.seed,
    house_books.demo.seed_roles,
    house_books.demo.seed_casino,
    audit_demo.enrol_officers,
    tables.demo.seed_tables,
    cards_registry.demo.seed,
    # LU: the shoes, the month before yesterday (its séances' decks from the depot), the shoes
    # of yesterday's and today's séances
    functools.partial(house_books.demo.seed_devices, past_day=tables.demo.seed_past_day),
    tables.demo.seed,
    house_books.demo.seed,
    audit_demo.seed,
)


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
        # The demo officer's acts are signed by the demo's software passkey (DEMO ONLY).
        with transaction.atomic(), officers.demo_signing():
            for step in DEMO_STEPS:
                step(context)
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
