"""Fill an empty database with a realistic demo casino (a database holding any act is refused)."""

from __future__ import annotations

import functools
from typing import Any

from django.db import transaction

import cards_registry.demo
import casino_ops.demo
import house_books.demo
import tables.demo
from audit.models import AuditEvent
from casino_ops import officers
from casino_ops.commands import RegulatedCommand, Writes
from casino_ops.refusals import Refusal
from casino_ops.services import get_casino
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
    writes = Writes.DEMO
    help = (
        "Create the demo casino (FR, four blackjack tables, one user per role) on a database that "
        "holds no act; a database holding any act is refused (--if-empty: nothing is done, exit 0)."
    )

    def add_arguments(self, parser: Any) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--profile",
            choices=("FR", "LU"),
            default="FR",
            help="The regulation of the demo casino on a fresh database (FR by default).",
        )
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="On a database that already holds acts, do nothing and exit 0 (the quick start).",
        )

    def act(self, *args: Any, **options: Any) -> None:
        # A demo written into a database holding acts would back-date whole gaming days into its
        # books, create users and print their secrets (FR art. 68; LU art. 10): refused.
        held = AuditEvent.objects.count()
        if held:
            if options.get("if_empty"):
                self.stdout.write(
                    f"The database already holds {held} act(s): nothing seeded (seed_demo writes only "
                    "into a database without any act)."
                )
                return
            raise Refusal.SEED_DATABASE_IN_SERVICE.error(get_casino().profile, n=held)
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
