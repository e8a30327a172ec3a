"""Print (or write to docs/refusals.md) the table of refusal codes and their articles."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino_ops import refusal_table
from casino_ops.commands import Writes

DOC = refusal_table.ROOT / "docs" / "refusals.md"


class Command(BaseCommand):
    writes = Writes.NOTHING
    help = "Le tableau des refus et des articles qu'ils appliquent (docs/refusals.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--write", action="store_true", help="write docs/refusals.md")
        parser.add_argument("--check", action="store_true", help="exit 1 if docs/refusals.md is out of date")

    def handle(self, *args: Any, write: bool, check: bool, **options: Any) -> None:
        text = refusal_table.markdown()
        if write:
            DOC.write_text(text, encoding="utf-8")
        elif check:
            if not DOC.exists() or DOC.read_text(encoding="utf-8") != text:
                raise CommandError("docs/refusals.md is out of date: run manage.py refusal_table --write")
        else:
            self.stdout.write(text, ending="")
