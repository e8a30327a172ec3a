"""Make the casino's note key (C2SP signed note, Ed25519): its name is the casino's origin.
Prints the private key (``AUDIT_NOTE_KEY``, keep it secret) and the vkey the authority adds to
its witnesses and writes in the policy."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino_ops.commands import Writes
from tlog import note as notes


class Command(BaseCommand):
    writes = Writes.NOTHING
    help = "Make the casino's checkpoint note key (Ed25519): prints AUDIT_NOTE_KEY and its vkey."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("origin", help="the casino's origin, e.g. casinos.authority.example/FR-0123")

    def handle(self, *args: Any, origin: str, **options: Any) -> None:
        try:
            signer = notes.Signer.generate(origin)
        except notes.NoteError as error:
            raise CommandError(f"origin: {error} (no spaces, no '+')") from error
        self.stdout.write(f"AUDIT_NOTE_KEY={signer.skey}\n")
        self.stdout.write(f"vkey: {signer.verifier.vkey}\n")
