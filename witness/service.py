"""``POST /add-checkpoint`` (C2SP tlog-witness v1.0.0), checked and answered.

The order of the checks is the specification's: a body that is not a request (400); an
unknown origin (404); no signature by the log's keys, or a failing one (403); an old size
above the checkpoint's (400); an old size other than the one cosigned last (409, with that
size); a size-0 checkpoint whose root is not the empty tree's, a proof given from size 0, a
proof that does not verify, or the same size with another root (422). Then the new size is
stored and the cosignature made, in the transaction that locked the log's row.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tlog import checkpoint as checkpoints
from tlog import note as notes
from tlog import witness as protocol

from .models import Cosigned, Log, Refusal


@dataclass(frozen=True)
class Answer:
    status: int
    body: str
    content_type: str = "text/plain; charset=utf-8"


def signer() -> notes.Signer:
    """The witness's key (``WITNESS_KEY``), a cosignature key (type 0x04)."""
    key = notes.Signer.from_skey(str(getattr(settings, "WITNESS_KEY", "")))
    if key.kind != notes.COSIGNATURE_V1:
        raise notes.NoteError("WITNESS_KEY is not a cosignature key (type 0x04)")
    return key


def log_verifiers(log: Log) -> list[notes.Verifier]:
    return [notes.parse_vkey(line.strip()) for line in log.vkeys.splitlines() if line.strip()]


def _refuse(
    log: Log, request: protocol.AddCheckpoint, head: checkpoints.Checkpoint, status: int, reason: str
) -> Answer:
    Refusal.objects.create(
        log=log,
        status=status,
        reason=reason,
        held_size=log.size,
        held_root=log.root,
        old_size=request.old_size,
        size=head.size,
        root=head.root.hex(),
        body=request.body.decode("utf-8"),
    )
    if status == 409:
        return Answer(409, f"{log.size}\n", protocol.SIZE_CONTENT_TYPE)
    return Answer(status, reason + "\n")


def _next_timestamp(log: Log) -> int:
    """Now, never before the last cosignature of the log (a clock set back shows no earlier time)."""
    last = Cosigned.objects.filter(log=log).order_by("-timestamp").values_list("timestamp", flat=True).first()
    return max(int(time.time()), last or 0)


def add_checkpoint(body: bytes) -> Answer:
    try:
        request = protocol.parse_request(body)
        text, _signatures = notes.split(request.checkpoint)
        head = checkpoints.parse(text)
    except (protocol.RequestError, notes.NoteError, checkpoints.CheckpointError) as error:
        return Answer(400, f"bad request: {error}\n")
    log = Log.objects.filter(origin=head.origin).first()
    if log is None:
        return Answer(404, f"unknown log {head.origin}\n")
    try:
        note = notes.open_note(request.checkpoint, log_verifiers(log))
    except notes.NoteError as error:
        return Answer(403, f"not signed by the log's key: {error}\n")
    if request.old_size > head.size:
        return Answer(400, f"old size {request.old_size} above the checkpoint's {head.size}\n")
    try:
        witness = signer()
    except notes.NoteError as error:
        return Answer(503, f"the witness has no usable key (WITNESS_KEY): {error}\n")
    with transaction.atomic():
        log = Log.objects.select_for_update().get(pk=log.pk)
        if request.old_size != log.size:
            return _refuse(
                log, request, head, 409, f"old size {request.old_size}, the witness holds {log.size}"
            )
        if head.size == 0 and head.root != checkpoints.EMPTY_ROOT:
            return _refuse(log, request, head, 422, "a tree of size 0 has the empty tree's root")
        if request.old_size == 0 and request.proof:
            return _refuse(log, request, head, 422, "a proof from size 0 is empty")
        held_root = bytes.fromhex(log.root) if log.root else checkpoints.EMPTY_ROOT
        if request.old_size == head.size and held_root != head.root:
            return _refuse(
                log, request, head, 422, f"size {head.size} cosigned with another root (a split view)"
            )
        if request.old_size and not checkpoints.verify_consistency(
            request.old_size, head.size, held_root, head.root, request.proof
        ):
            return _refuse(
                log, request, head, 422, f"the consistency proof from {request.old_size} does not verify"
            )
        timestamp = _next_timestamp(log)
        line = witness.signature_line(note.text, timestamp=timestamp)
        cosigned = notes.assemble(note.text, [*note.signatures, *notes.signature_lines(line)])
        log.size, log.root, log.checkpoint = head.size, head.root.hex(), cosigned
        log.cosigned_at = timezone.now()
        log.save(update_fields=["size", "root", "checkpoint", "cosigned_at"])
        Cosigned.objects.create(
            log=log, size=head.size, root=head.root.hex(), timestamp=timestamp, checkpoint=cosigned
        )
    return Answer(200, line)
