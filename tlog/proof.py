"""Offline proofs of inclusion (C2SP ``tlog-proof``, ``c2sp.org/tlog-proof@v1``).

::

    c2sp.org/tlog-proof@v1
    [extra <base64>]
    index <n>
    <base64 hash>...           (the inclusion proof, leaf's sibling first)

    <the cosigned checkpoint, verbatim>
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from . import checkpoint as checkpoints
from . import note as notes
from .policy import Policy

HEADER = "c2sp.org/tlog-proof@v1"


class ProofError(ValueError):
    """A proof that is not one, or that does not hold (the reason said)."""


@dataclass(frozen=True)
class Proof:
    index: int
    path: list[bytes]
    checkpoint: str  # the signed note
    extra: bytes | None = None

    @property
    def text(self) -> str:
        lines = [HEADER]
        if self.extra is not None:
            lines.append("extra " + base64.b64encode(self.extra).decode())
        lines.append(f"index {self.index}")
        lines += [base64.b64encode(h).decode() for h in self.path]
        return "".join(line + "\n" for line in lines) + "\n" + self.checkpoint


def parse(text: str) -> Proof:
    head, sep, checkpoint = text.partition("\n\n")
    lines = head.split("\n")
    if not sep or lines[0] != HEADER:
        raise ProofError(f"not a tlog proof (first line {HEADER})")
    rest = lines[1:]
    extra = None
    try:
        if rest and rest[0].startswith("extra "):
            extra = base64.b64decode(rest.pop(0)[6:].encode("ascii"), validate=True)
        if not rest or not rest[0].startswith("index "):
            raise ProofError("no index line")
        index_text = rest.pop(0)[6:]
        if not index_text.isdigit() or (index_text != "0" and index_text.startswith("0")):
            raise ProofError("the index is a decimal without leading zeroes")
        path = [base64.b64decode(line.encode("ascii"), validate=True) for line in rest]
    except (binascii.Error, UnicodeEncodeError) as error:
        raise ProofError("a line is not base64") from error
    if any(len(h) != 32 for h in path):
        raise ProofError("a proof line is not a SHA-256 hash")
    return Proof(int(index_text), path, checkpoint, extra)


@dataclass(frozen=True)
class Verified:
    checkpoint: checkpoints.Checkpoint
    note: notes.Note
    cosigned: set[str]  # the witnesses (policy names) whose cosignature verified
    times: dict[str, int]  # their cosignatures' timestamps


def verify(proof: Proof, leaf: bytes, policy: Policy) -> Verified:
    """The proof's leaf hash is at its index under a checkpoint a listed log signed and the
    policy's quorum cosigned; ProofError otherwise, saying why."""
    try:
        note, cosigned, quorum = policy.check(proof.checkpoint)
        head = checkpoints.parse(note.text)
    except (notes.NoteError, checkpoints.CheckpointError) as error:
        raise ProofError(f"the checkpoint: {error}") from error
    if not quorum:
        raise ProofError(
            f"the checkpoint is cosigned by {', '.join(sorted(cosigned)) or 'no witness'}: "
            f"short of the policy's {policy.describe()}"
        )
    if not checkpoints.verify_inclusion(proof.index, head.size, leaf, proof.path, head.root):
        raise ProofError(f"the inclusion proof of index {proof.index} does not lead to the checkpoint's root")
    times = {}
    for name in cosigned:
        signature = note.signed_by(policy.witnesses[name].verifier)
        if signature is not None and signature.timestamp is not None:
            times[name] = signature.timestamp
    return Verified(head, note, cosigned, times)
