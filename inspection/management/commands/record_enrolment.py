"""The casino's side: record an enrolment or a revocation the authority signed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from casino_ops.commands import RegulatedCommand, Writes
from house_books.services.officers import record_enrolment


class Command(RegulatedCommand):
    writes = Writes.ACTS
    help = (
        "Record the officer's enrolment (or its revocation) in FILE, signed by the authority "
        "(checked against OFFICER_AUTHORITY_CERTIFICATE)."
    )

    def add_arguments(self, parser: Any) -> None:
        super().add_arguments(parser)
        parser.add_argument("file", type=Path, help="the JSON document enrol_officer wrote")

    def act(self, *args: Any, **options: Any) -> None:
        try:
            document = json.loads(options["file"].read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"{options['file']}: {error}") from error
        if not isinstance(document, dict):
            raise CommandError(f"{options['file']}: not a document of the authority")
        row, outcome = record_enrolment(document=document)
        said = {
            "enrolled": f"{row.user.get_username()} enrolled as officer (n° {row.serial}) until {row.valid_to:%Y-%m-%d %H:%M}",
            "revoked": f"enrolment n° {row.serial} of {row.user.get_username()} revoked",
            "already": f"enrolment n° {row.serial} already recorded: nothing changed",
        }[outcome]
        self.stdout.write(said)
