"""``manage.py replay FILE... [--json]``: replay hand logs (hand-log.md §5).

A thin wrapper: the work is done by the pure engine's command line,
:func:`tables.blackjack.cli.main`, which also sets the exit status
(0 no discrepancy, 1 discrepancies, 2 a log rejected).
"""

from __future__ import annotations

import sys
from typing import IO, Any, NoReturn, cast

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino_ops.commands import Writes
from tables.blackjack.cli import main


class Command(BaseCommand):
    writes = Writes.NOTHING
    help = (
        "Replay blackjack hand logs (.json: one log, .jsonl: one per line) and report "
        "discrepancies with their articles. Exit 0: none, 1: discrepancies, 2: a log rejected."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--json", action="store_true", help="one JSON report per line")

    def run_from_argv(self, argv: list[str]) -> NoReturn:
        # The engine's own argument handling gives the spec's exit statuses;
        # argv is ["manage.py", "replay", ...].
        sys.exit(main(argv[2:], sys.stdout, sys.stderr))

    def handle(self, *args: Any, **options: Any) -> None:
        # Reached through call_command(): same command, status as CommandError.
        argv = ["--json"] if options["json"] else []
        # an OutputWrapper is a text stream, though not declared an IO[str] by the stubs
        status = main(
            [*argv, "--", *options["files"]], cast("IO[str]", self.stdout), cast("IO[str]", self.stderr)
        )
        if status:
            raise CommandError(
                "discrepancies found" if status == 1 else "a log was rejected", returncode=status
            )
