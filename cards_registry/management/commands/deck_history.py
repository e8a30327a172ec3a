"""``manage.py deck_history SERIAL [--manufacturer CODE]``: a deck's whole life, with audit numbers."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils import timezone

from cards_registry.selectors import deck_history, find_deck
from casino_ops.commands import RegulatedCommand, Writes


class Command(RegulatedCommand):
    writes = Writes.NOTHING
    help = (
        "Print each step of a deck's life in order (order, reception, issues and returns, incidents, "
        "destruction) with the audit sequence number of each act. Exit 1 if the serial is unknown."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("serial", help="the maker's serial number of the deck")
        parser.add_argument("--manufacturer", metavar="CODE", help="the maker's code, when serials repeat")

    def act(self, *args: Any, **options: Any) -> None:
        serial, maker = options["serial"], options.get("manufacturer")
        decks = find_deck(serial, maker)
        if not decks:
            where = f" chez le fabricant {maker}" if maker else ""
            raise CommandError(f"Jeu inconnu : aucun jeu de numéro de série {serial}{where}.")
        for deck in decks:
            self.stdout.write(
                f"Jeu {deck.serial} — {deck.manufacturer.name} ({deck.manufacturer.code}), "
                f"dos {deck.back_colour}, état : {deck.get_status_display()}"
            )
            for line in deck_history(deck):
                seq = f"#{line.audit_seq}" if line.audit_seq is not None else "—"
                when = timezone.localtime(line.at).strftime("%d/%m/%Y %H:%M:%S")
                self.stdout.write(f"  {seq:>8}  {when}  {line.what}")
