"""The casino's checkpoints as C2SP signed notes (``tlog-checkpoint`` v1.0.0).

Beside the CMS-signed statement officers already use, each checkpoint gets a note::

    <origin>
    <tree size>
    <base64 Merkle root>

    — <origin> <base64(key ID || Ed25519 signature)>

signed with the casino's note key (``AUDIT_NOTE_KEY``, whose name is the origin). It is what
the authority's witnesses cosign (:mod:`audit.witnesses`) and what a register's tlog proof
carries. The tree is the record's (RFC 9162 §2.1, the same hashing as RFC 6962): size
``seq``, the root the checkpoint signs.
"""

from __future__ import annotations

import base64

from django.conf import settings
from django.db import IntegrityError, transaction

from tlog import checkpoint as checkpoints
from tlog import note as notes

from .models import Checkpoint, CheckpointNote


def signer() -> notes.Signer | None:
    """The casino's note key, or None when none is configured (no note is made)."""
    key = str(getattr(settings, "AUDIT_NOTE_KEY", "") or "")
    if not key:
        return None
    found = notes.Signer.from_skey(key)
    if found.kind != notes.ED25519:
        raise notes.NoteError("AUDIT_NOTE_KEY is not an Ed25519 note key (type 0x01)")
    return found


def verifier() -> notes.Verifier | None:
    key = signer()
    return key.verifier if key is not None else None


def text_of(checkpoint: Checkpoint, origin: str) -> str:
    return checkpoints.Checkpoint(origin, checkpoint.seq, bytes.fromhex(checkpoint.root_hash)).text


def note_for(checkpoint: Checkpoint) -> CheckpointNote | None:
    """The checkpoint's note, made and stored once (None without a key or a Merkle root)."""
    key = signer()
    if key is None or not checkpoint.root_hash:
        return None
    found = CheckpointNote.objects.filter(checkpoint=checkpoint).first()
    if found is not None:
        return found
    text = text_of(checkpoint, key.name)
    try:
        with transaction.atomic():
            return CheckpointNote.objects.create(
                checkpoint=checkpoint,
                origin=key.name,
                size=checkpoint.seq,
                root=checkpoint.root_hash,
                note=notes.sign(text, key),
            )
    except IntegrityError:  # made at the same moment by another worker
        return CheckpointNote.objects.get(checkpoint=checkpoint)


def make_notes() -> int:
    """A note for every checkpoint that lacks one, in order; how many were made."""
    if signer() is None:
        return 0
    made = 0
    for checkpoint in (
        Checkpoint.objects.exclude(root_hash="").filter(tlog_note__isnull=True).order_by("number")
    ):
        if note_for(checkpoint) is not None:
            made += 1
    return made


def root_b64(note: CheckpointNote) -> str:
    return base64.b64encode(bytes.fromhex(note.root)).decode()
