"""C2SP tlog proofs (``c2sp.org/tlog-proof@v1``) of the record's events, for officers.

The proof carries the event's canonical bytes on its ``extra`` line (the leaf is
``SHA-256(0x00 || bytes)``), its index (``seq - 1``), the inclusion path, and the casino's
checkpoint note with the witnesses' cosignatures: the earliest checkpoint covering the event
that the policy's quorum cosigned (else the earliest covering it at all, which the offline
verifier then reports short of the quorum). Checked offline against the authority's policy
alone (``verifier.py tlog-proof``), years later.
"""

from __future__ import annotations

from casino_ops.refusals import Refusal
from casino_ops.services import get_casino
from tlog import proof as proofs

from .chain import event_bytes, format_time
from .models import AuditEvent, CheckpointNote
from .proofs import tree
from .witnesses import cosigned_by, policy


def best_note(seq: int) -> CheckpointNote | None:
    """The earliest note covering event ``seq`` that the policy's quorum cosigned, else the earliest."""
    found = policy()
    covering = list(
        CheckpointNote.objects.filter(size__gte=seq).prefetch_related("cosignatures").order_by("size")[:50]
    )
    for note in covering:
        if cosigned_by(note, found)[1]:
            return note
    return covering[0] if covering else None


def tlog_proof(seq: int) -> str:
    event = AuditEvent.objects.filter(seq=seq).first()
    if event is None:
        raise Refusal.AUDIT_EVENT_UNKNOWN.error(get_casino().profile, seq=seq)
    note = best_note(seq)
    if note is None:
        raise Refusal.CHECKPOINT_NONE.error(get_casino().profile, field="seq", seq=seq)
    data = event_bytes(
        recorded_at=format_time(event.recorded_at),
        actor_name=event.actor_name,
        action=event.action,
        object_type=event.object_type,
        object_id=event.object_id,
        payload=event.payload,
    )
    cosigned = note.note + "".join(c.line for c in note.cosignatures.all())
    return proofs.Proof(seq - 1, tree().inclusion_path(seq - 1, note.size), cosigned, extra=data).text
