"""``manage.py import_hand_logs FILE... --session ID --user USERNAME``: receive hand logs.

``.json`` files hold one log, ``.jsonl`` files one log per line. Each log is
received like an API upload (validated, stored unchanged with its SHA-256,
replayed after commit); a refused log gets one line naming the file, the
line, the field and the article, and the others are still received. Exit
status 1 when a log was refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, CommandParser

from casino_ops.commands import RegulatedCommand, Writes
from casino_ops.regulations import RegulationError
from tables import services
from tables.models import HandLogSource, Session


def _logs(path: str) -> Iterator[tuple[str, bytes]]:
    try:
        if path.endswith(".jsonl"):
            with open(path, "rb") as fh:
                for lineno, line in enumerate(fh, 1):
                    if line.strip():
                        yield f"{path}:{lineno}", line.rstrip(b"\n")
        else:
            with open(path, "rb") as fh:
                yield path, fh.read()
    except OSError as exc:
        raise CommandError(f"{path}: cannot read the file ({exc.strerror or exc})") from exc


class Command(RegulatedCommand):
    writes = Writes.ACTS
    help = "Receive blackjack hand logs for a session (.json: one log, .jsonl: one per line) and replay them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--session", type=int, required=True, help="id of the session")
        parser.add_argument("--user", required=True, help="username of the table chief or manager uploading")

    def act(self, *args: Any, **options: Any) -> None:
        session = Session.objects.select_related("table").filter(pk=options["session"]).first()
        if session is None:
            raise CommandError(f"no session {options['session']}")
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(f"no user {options['user']}")
        refused = 0
        for where, raw in (item for path in options["files"] for item in _logs(path)):
            try:
                log = services.upload_hand_log(
                    actor=user, session=session, raw=raw, source=HandLogSource.COMMAND
                )
            except RegulationError as error:
                refused += 1
                article = f" ({error.article})" if error.article else ""
                self.stderr.write(f"{where}: refusé: {error.code}: {error.field}: {error.message}{article}")
                continue
            self.stdout.write(
                f"{where}: reçu, journal n° {log.pk}, SHA-256 {log.sha256}, {log.rounds} manches"
            )
        if refused:
            raise CommandError(f"{refused} journal(aux) refusé(s)", returncode=1)
