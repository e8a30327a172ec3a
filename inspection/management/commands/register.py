"""Print a register as a signed PDF, through the same code as the Celery task."""

from __future__ import annotations

import argparse
import datetime as dt
import shutil
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.core.management.base import CommandError

from casino_ops.commands import RegulatedCommand, Writes
from casino_ops.validators import validate_date_window
from inspection.registers import register_names
from inspection.registers.reports import parts_of, produce_report, request_report


def _date(text: str) -> dt.date:
    """A day written YYYY-MM-DD inside the casino's date window (argparse prints the refusal
    as one usage line: it only catches ArgumentTypeError, not CommandError)."""
    try:
        day = dt.date.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from exc
    try:
        validate_date_window(day)
    except ValidationError as exc:
        raise argparse.ArgumentTypeError(f"{text}: {' '.join(exc.messages)}") from exc
    return day


class Command(RegulatedCommand):
    writes = Writes.ACTS
    help = "Make a signed PDF register: NAME --from DATE --to DATE [--table N] --output FILE.pdf"

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("name", choices=register_names(), help="the register")
        parser.add_argument(
            "--from", dest="date_from", required=True, type=_date, help="first day (YYYY-MM-DD)"
        )
        parser.add_argument("--to", dest="date_to", required=True, type=_date, help="last day (YYYY-MM-DD)")
        parser.add_argument("--table", type=int, default=None, help="table number (books kept per table)")
        parser.add_argument("--output", required=True, type=Path, help="where to write the PDF")
        parser.add_argument("--user", default="", help="username of who asks (recorded on the report)")

    def act(self, *args: Any, **options: Any) -> None:
        actor = None
        if options["user"]:
            actor = get_user_model().objects.filter(username=options["user"]).first()
            if actor is None:
                raise CommandError(f"--user: no user named {options['user']!r}")
        report = request_report(
            actor=actor,
            register=options["name"],
            date_from=options["date_from"],
            date_to=options["date_to"],
            table=options["table"],
            enqueue=False,
        )
        report = produce_report(report.pk, inline_parts=True)
        files = parts_of(report)
        output: Path = options["output"]
        targets = (
            [output]
            if len(files) == 1
            else [output.with_name(f"{output.stem}-{i}{output.suffix}") for i in range(1, len(files) + 1)]
        )
        for part, target in zip(files, targets, strict=True):
            if part.state != part.State.DONE:
                raise CommandError(f"report {part.pk} is {part.get_state_display()}: {part.error}")
            with default_storage.open(part.file.name, "rb") as src, target.open("wb") as dst:
                shutil.copyfileobj(src, dst)
            self.stdout.write(
                f"{target}: {part.pages} page(s), {part.rows} row(s), SHA-256 {part.sha256}, "
                f"audit chain #{part.head_seq}"
            )
