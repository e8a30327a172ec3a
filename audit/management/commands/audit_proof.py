"""Print an inclusion proof of one event, or a consistency proof between two checkpoints (RFC 9162)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from audit.proofs import consistency_proof, inclusion_proof
from casino_ops.commands import RegulatedCommand, Writes


class Command(RegulatedCommand):
    writes = Writes.NOTHING
    help = (
        "Print (JSON) the inclusion proof of event SEQ in the Merkle tree a signed checkpoint heads "
        "(--checkpoint N, default the last), or with --consistency N M the proof that checkpoint M "
        "extends checkpoint N. Check it offline: python inspection/verifier.py inclusion|consistency FILE --ca ca.pem"
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("seq", nargs="?", type=int, help="the event's sequence number")
        parser.add_argument("--checkpoint", type=int, help="the checkpoint's number (default: the last)")
        parser.add_argument(
            "--consistency", nargs=2, type=int, metavar=("N", "M"), help="two checkpoints' numbers"
        )
        parser.add_argument(
            "--from-size",
            type=int,
            help="a consistency proof from the tree of this many events (a kept checkpoint's tree_size) "
            "to --checkpoint (default: the last)",
        )
        parser.add_argument("--output", type=Path, help="write the proof to this file")
        parser.add_argument(
            "--checkpoint-file", type=Path, help="also write the proof's checkpoint to this file"
        )

    def act(self, *args: Any, **options: Any) -> None:
        if options["consistency"]:
            first, second = options["consistency"]
            proof = consistency_proof(first, second)
            checkpoint = proof["second"]
        elif options["from_size"] is not None:
            proof = consistency_proof(None, options["checkpoint"], first_size=options["from_size"])
            checkpoint = proof["second"]
        elif options["seq"] is not None:
            proof = inclusion_proof(options["seq"], options["checkpoint"])
            checkpoint = proof["checkpoint"]
        else:
            raise CommandError("give an event's SEQ or --consistency N M")
        text = json.dumps(proof, indent=2, ensure_ascii=False)
        if options["output"]:
            options["output"].write_text(text + "\n", encoding="utf-8")
        else:
            self.stdout.write(text)
        if options["checkpoint_file"]:
            options["checkpoint_file"].write_text(
                json.dumps(checkpoint, ensure_ascii=False) + "\n", encoding="utf-8"
            )
