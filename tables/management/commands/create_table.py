"""``manage.py create_table --number N --code CODE [--boxes 7] --user USERNAME``: put a table on
the floor (the director or a committee member), as the admin's "Ajouter" and the API do."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, CommandParser

from casino_ops.commands import RegulatedCommand, Writes
from tables import services


class Command(RegulatedCommand):
    writes = Writes.ACTS
    help = "Put a blackjack table on the floor: its number (its cash box's), its code, its boxes."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--number", type=int, required=True, help="the table's number (its cash box's)")
        parser.add_argument("--code", required=True, help="the code its hand logs name, e.g. BJ03")
        parser.add_argument("--boxes", type=int, default=7, help="boxes on its layout (1 to 7, default 7)")
        parser.add_argument("--user", required=True, help="username of the director or committee member")

    def act(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(f"no user {options['user']}")
        table = services.create_table(
            actor=user, number=options["number"], code=options["code"], boxes=options["boxes"]
        )
        self.stdout.write(f"Table n° {table.number} ({table.code}, {table.boxes} cases) mise en service.")
