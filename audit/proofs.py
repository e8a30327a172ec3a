"""Inclusion and consistency proofs (RFC 9162) of the audit record, for officers.

A proof is a JSON document that carries everything the offline verifier
(``inspection/verifier.py``) needs: the event (or the two checkpoints), the path
of hashes, and the signed checkpoint whose Merkle tree head it leads to.
Proofs read the stored subtree hashes (audit.merkle) and at most a few blocks
of events: a few milliseconds on a record of a million events.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import connection
from django.db.models import Q
from django.utils.translation import gettext as _

from casino_ops.refusals import Refusal
from casino_ops.services import get_casino

from .chain import event_bytes, format_time
from .checkpoints import checkpoint_file
from .merkle import STORE_LEVEL, Tree, leaf_hash, verify_inclusion
from .models import AuditEvent, Checkpoint, MerkleNode

INCLUSION_TYPE = "audit-inclusion-proof"
CONSISTENCY_TYPE = "audit-consistency-proof"
HASHING = "RFC 9162 §2.1, SHA-256; leaf = the event's canonical bytes"


_LEAVES_SQL = (
    "SELECT seq, sha256('\\x00'::bytea || convert_to(concat_ws(chr(31), "
    "to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'), "
    "actor_name, action, object_type, object_id, payload), 'UTF8')) "
    "FROM audit_event WHERE seq > %s AND seq <= %s ORDER BY seq"
)


def _leaves(start: int, end: int) -> list[bytes]:
    """Leaf hashes of leaves start..end-1 (events of seq start+1..end).

    PostgreSQL hashes the canonical bytes itself (the same text verification
    reads); elsewhere they are made and hashed here.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_LEAVES_SQL, [start, end])
            rows = cursor.fetchall()
        out = []
        for expected, (seq, digest) in enumerate(rows, start + 1):
            if seq != expected:
                break
            out.append(bytes(digest))
        return out
    rows = (
        AuditEvent.objects.filter(seq__gt=start, seq__lte=end)
        .order_by("seq")
        .values_list("seq", "recorded_at", "actor_name", "action", "object_type", "object_id", "payload")
    )
    out = []
    expected = start + 1
    for seq, recorded_at, actor_name, action, otype, oid, payload in rows:
        if seq != expected:
            break
        out.append(
            leaf_hash(
                event_bytes(
                    recorded_at=format_time(recorded_at),
                    actor_name=actor_name,
                    action=action,
                    object_type=otype,
                    object_id=oid,
                    payload=payload,
                )
            )
        )
        expected += 1
    return out


def _stored(keys: list[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
    """The stored subtree hashes of the given (level, index) nodes, in one query."""
    if not keys:
        return {}
    condition = Q()
    for level, index in keys:
        condition |= Q(level=level, index=index)
    return {
        (level, index): bytes.fromhex(digest)
        for level, index, digest in MerkleNode.objects.filter(condition).values_list("level", "index", "hash")
    }


def _fetch_postgresql(
    keys: list[tuple[int, int]], spans: list[tuple[int, int]]
) -> tuple[dict[tuple[int, int], bytes], dict[int, list[bytes]]]:
    """The stored nodes and the leaf hashes of whole blocks, in one query."""
    parts, params = [], []
    for level, index in keys:
        parts.append(
            "(SELECT 0, level::bigint, index, decode(hash, 'hex') FROM audit_merkle_node "
            "WHERE level = %s AND index = %s)"
        )
        params += [level, index]
    for lo, hi in spans:
        parts.append(
            "(SELECT 1, %s::bigint, seq, sha256('\\x00'::bytea || convert_to(concat_ws(chr(31), "
            "to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'), "
            "actor_name, action, object_type, object_id, payload), 'UTF8')) "
            "FROM audit_event WHERE seq > %s AND seq <= %s ORDER BY seq)"
        )
        params += [lo, lo, hi]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts), params)
        rows = cursor.fetchall()
    nodes: dict[tuple[int, int], bytes] = {}
    leaves: dict[int, list[bytes]] = {lo: [] for lo, _hi in spans}
    for kind, a, b, digest in sorted(rows, key=lambda row: (row[0], row[1], row[2])):
        if kind == 0:
            nodes[(a, b)] = bytes(digest)
        elif b == a + len(leaves[a]) + 1:  # contiguous from the block's start
            leaves[a].append(bytes(digest))
    return nodes, leaves


def tree() -> Tree:
    fetch = _fetch_postgresql if connection.vendor == "postgresql" else None
    return Tree(_stored, _leaves, STORE_LEVEL, fetch=fetch)


def _checkpoint(number: int | None, *, covering: int = 0, field: str = "checkpoint") -> Checkpoint:
    query = Checkpoint.objects.exclude(root_hash="")
    if number is not None:
        found = query.filter(number=number).first()
        if found is None:
            raise Refusal.CHECKPOINT_UNKNOWN.error(get_casino().profile, field=field, n=number)
        return found
    found = query.filter(seq__gte=covering).order_by("number").last()
    if found is None:
        raise Refusal.CHECKPOINT_NONE.error(get_casino().profile, field=field, seq=covering)
    return found


def _file(checkpoint: Checkpoint) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(checkpoint_file(checkpoint))
    return data


def inclusion_proof(seq: int, checkpoint: int | None = None) -> dict[str, Any]:
    """The proof that event ``seq`` is in the tree a signed checkpoint (by default the last) heads."""
    event = AuditEvent.objects.filter(seq=seq).first()
    if event is None:
        raise Refusal.AUDIT_EVENT_UNKNOWN.error(get_casino().profile, seq=seq)
    signed = _checkpoint(checkpoint, covering=seq)
    if signed.seq < seq:
        raise Refusal.CHECKPOINT_TOO_EARLY.error(
            get_casino().profile, n=signed.number, end=signed.seq, seq=seq
        )
    fields = {
        "seq": seq,
        "recorded_at": format_time(event.recorded_at),
        "actor_name": event.actor_name,
        "action": event.action,
        "object_type": event.object_type,
        "object_id": event.object_id,
        "payload": event.payload,
    }
    leaf = leaf_hash(
        event_bytes(**{k: v for k, v in fields.items() if k != "seq"})  # type: ignore[arg-type]
    )
    path = tree().inclusion_path(seq - 1, signed.seq)
    root = bytes.fromhex(signed.root_hash)
    return {
        "type": INCLUSION_TYPE,
        "hashing": HASHING,
        "event": fields,
        "leaf_index": seq - 1,
        "tree_size": signed.seq,
        "leaf_hash": leaf.hex(),
        "path": [h.hex() for h in path],
        "root": signed.root_hash,
        "holds": verify_inclusion(seq - 1, signed.seq, leaf, path, root),
        "checkpoint": _file(signed),
    }


def consistency_proof(
    first: int | None = None, second: int | None = None, *, first_size: int | None = None
) -> dict[str, Any]:
    """The proof that checkpoint ``second`` (by default the last) extends checkpoint ``first``.

    ``first_size`` instead of ``first``: from the tree of that many events (the
    size of a checkpoint an officer kept); the officer's verifier then compares
    the tree head with the one of the checkpoint kept.
    """
    older = None
    if first_size is None:
        if first is None:
            raise Refusal.CHECKPOINT_UNKNOWN.error(
                get_casino().profile, field="first", message=_("Indiquez le premier point de contrôle.")
            )
        older = _checkpoint(first, field="first")
        first_size = older.seq
    elif first_size < 1:
        raise Refusal.CHECKPOINT_UNKNOWN.error(
            get_casino().profile, field="first_size", message=_("La taille doit être au moins 1.")
        )
    newer = _checkpoint(second, covering=first_size, field="second")
    if newer.seq < first_size:
        raise Refusal.CHECKPOINT_ORDER.error(
            get_casino().profile, b=newer.number, end=newer.seq, seq=first_size
        )
    merkle = tree()
    path = merkle.consistency_proof(first_size, newer.seq)
    return {
        "type": CONSISTENCY_TYPE,
        "hashing": HASHING,
        "first_size": first_size,
        "second_size": newer.seq,
        "first_root": older.root_hash if older is not None else merkle.mth(0, first_size).hex(),
        "second_root": newer.root_hash,
        "path": [h.hex() for h in path],
        "first": _file(older) if older is not None else None,
        "second": _file(newer),
    }
