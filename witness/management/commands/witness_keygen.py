"""Make the witness's key: prints the private key (``WITNESS_KEY``, keep it secret) and the
verifier key (vkey, type 0x04) that casinos and officers put in their policy."""

from typing import Any

from django.core.management.base import BaseCommand

from tlog import note as notes


class Command(BaseCommand):
    help = "Make a witness key (Ed25519 cosignature/v1): its private key and its vkey."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("name", help="the witness's name, e.g. witness.authority.example/w1")

    def handle(self, *args: Any, name: str, **options: Any) -> None:
        signer = notes.Signer.generate(name, notes.COSIGNATURE_V1)
        self.stdout.write(f"WITNESS_KEY={signer.skey}\n")
        self.stdout.write(f"vkey: {signer.verifier.vkey}\n")
