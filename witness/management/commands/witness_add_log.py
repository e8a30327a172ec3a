"""Add a casino's log to the witness (or change its keys): its origin and note vkey(s)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tlog import note as notes
from witness.models import Log


class Command(BaseCommand):
    help = "Add a casino's log (origin, name, vkeys of its note key) the witness will cosign."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "vkey", nargs="+", help="the casino's note verifier key(s); the name is the origin"
        )
        parser.add_argument("--name", default="", help="the casino's name, shown to the authority")

    def handle(self, *args: Any, vkey: list[str], name: str, **options: Any) -> None:
        try:
            verifiers = [notes.parse_vkey(v) for v in vkey]
        except notes.NoteError as error:
            raise CommandError(f"vkey: {error}") from error
        if any(v.kind != notes.ED25519 for v in verifiers) or len({v.name for v in verifiers}) != 1:
            raise CommandError("vkey: the log's Ed25519 note keys (type 0x01), all of one name, its origin")
        origin = verifiers[0].name
        log, created = Log.objects.update_or_create(
            origin=origin, defaults={"name": name, "vkeys": "\n".join(v.vkey for v in verifiers)}
        )
        self.stdout.write(f"{'added' if created else 'updated'}: {log.origin} (size {log.size})\n")
