"""Sign a checkpoint of the audit chain's head now, or export the checkpoints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from audit.checkpoints import export, make_checkpoint
from casino_ops.commands import RegulatedCommand, Writes


class Command(RegulatedCommand):
    writes = Writes.RECORD
    help = (
        "Sign a checkpoint of the audit chain's head (sequence, hash, time) with the casino's "
        "certificate; with --export FILE, write every checkpoint to one signed file for the officers."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--export", type=Path, help="write the checkpoints to this signed file (CMS, DER)"
        )
        parser.add_argument(
            "--since", type=int, default=0, help="export only checkpoints after this sequence"
        )
        parser.add_argument(
            "--no-new", action="store_true", help="with --export: do not sign a new checkpoint"
        )

    def act(self, *args: Any, **options: Any) -> None:
        if not (options["export"] and options["no_new"]):
            checkpoint = make_checkpoint()
            if checkpoint is None:
                self.stdout.write("The audit record is empty: nothing to sign.")
            else:
                self.stdout.write(
                    f"Checkpoint #{checkpoint.number}: seq {checkpoint.seq} {checkpoint.head_hash} "
                    f"signed {checkpoint.made_at:%Y-%m-%d %H:%M:%S %Z} by {checkpoint.signer}"
                )
        if options["export"]:
            data = export(since_seq=options["since"])
            options["export"].write_bytes(data)
            self.stdout.write(
                f"Exported to {options['export']} ({len(data)} bytes); check it with: "
                f"openssl cms -verify -inform DER -in {options['export']} -CAfile ca.pem"
            )
