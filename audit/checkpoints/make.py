"""Making a checkpoint: verify the chain, sign its head, store the Merkle subtrees."""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops.celery import app
from casino_ops.models import CasinoSettings
from casino_ops.refusals import Refusal
from casino_ops.services import get_casino

from .. import signing
from ..actions import Action
from ..chain import GENESIS, canonical_json, format_time, head, record, seal_pending
from ..merkle import TreeBuilder
from ..models import AuditEvent, Checkpoint, MerkleNode
from ..verification import verify
from .witness import witness_pending

STATEMENT_TYPE = "audit-checkpoint"
_LOCK_KEY = 0x6A75_6469_7402  # advisory lock key of the checkpoint makers


def _casino_name() -> str:
    return CasinoSettings.objects.values_list("name", flat=True).first() or ""


def statement(
    *,
    seq: int,
    head_hash: str,
    made_at: dt.datetime,
    casino: str,
    number: int | None = None,
    prev: str | None = None,
    root: str | None = None,
) -> str:
    data: dict[str, Any] = {
        "casino": casino,
        "hash": head_hash,
        "seq": seq,
        "time": format_time(made_at),
        "type": STATEMENT_TYPE,
    }
    if number is not None:
        data.update({"number": number, "prev": prev, "root": root, "tree_size": seq})
    return canonical_json(data)


def make_checkpoint() -> Checkpoint | None:
    """Sign the chain's current head; None when the record is empty.

    The chain is verified first (and against the witness): the casino never
    signs a head it cannot vouch for. A head already signed keeps its
    checkpoint. The statement carries the checkpoint's number, its
    predecessor's hash and the Merkle tree head; the stored subtree hashes are
    completed; after commit the checkpoint goes to the witness.
    """
    signing.get_signer()
    seal_pending()
    seq, digest = head()
    if seq == 0:
        return None
    last = Checkpoint.objects.order_by("-number").first()
    if last is not None and last.seq >= seq:
        witness_pending()
        return last
    tree = TreeBuilder()
    outcome = verify(merkle=tree)  # the chain, then the books against it (as verify_audit)
    result = outcome.chain
    if not result.chain_ok or result.checkpoint_problems:
        raise Refusal.AUDIT_CHAIN_BROKEN.error(get_casino().profile, reason=result.describe())
    forged = outcome.book_problems + outcome.officer_problems
    if forged:
        _refuse_forged_books(forged)
    seq, digest = result.head_seq, result.head_hash  # sealed meanwhile: sign what was verified
    try:
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK_KEY])
            last = Checkpoint.objects.order_by("-number").first()
            if last is not None and last.seq >= seq:
                checkpoint = last
            else:
                _store_nodes(tree.nodes)
                made_at = timezone.now()
                text = statement(
                    seq=seq,
                    head_hash=digest,
                    made_at=made_at,
                    casino=_casino_name(),
                    number=last.number + 1 if last else 1,
                    prev=last.statement_hash if last else GENESIS,
                    root=tree.root().hex(),
                )
                checkpoint = Checkpoint.objects.create(
                    number=last.number + 1 if last else 1,
                    seq=seq,
                    head_hash=digest,
                    root_hash=tree.root().hex(),
                    prev_hash=last.statement_hash if last else GENESIS,
                    statement_hash=hashlib.sha256(text.encode("utf-8")).hexdigest(),
                    made_at=made_at,
                    statement=text,
                    signature=signing.sign_data(text.encode("utf-8"), detached=True),
                    signer=signing.signer_subject(),
                )
            transaction.on_commit(witness_pending)
            return checkpoint
    except IntegrityError:  # made at the same moment by another process
        return Checkpoint.objects.order_by("-number").first()


#: The rows named in a refusal's message and its alarm (verify_audit names them all).
NAMED = 20
#: The object of a refused checkpoint's alarm (found again by the index on the objects).
REFUSED_OBJECT = "audit.checkpoint"


def _refuse_forged_books(problems: list[str]) -> None:
    """A row of a book that no act wrote (``loaddata``, SQL, a restored copy), one changed or gone
    since its act: the casino never signs a checkpoint over it. An alarm naming the rows is sealed
    in the chain (once for the same rows: beat tries again every few minutes), then the refusal."""
    named = problems[:NAMED]
    payload = {"problems": named, "count": len(problems)}
    last = (
        AuditEvent.objects.filter(object_type=REFUSED_OBJECT, object_id="", action=Action.CHECKPOINT_REFUSED)
        .order_by("-id")
        .values_list("payload", flat=True)
        .first()
    )
    if last is None or last != canonical_json(payload):
        with transaction.atomic():
            record(
                actor=None,
                action=Action.CHECKPOINT_REFUSED,
                object_type=REFUSED_OBJECT,
                object_id="",
                payload=payload,
            )
        seal_pending()
    more = len(problems) - len(named)
    raise Refusal.AUDIT_BOOKS_FORGED.error(
        get_casino().profile,
        problems="; ".join(named),
        more=_(" ; et %(n)s autre(s)") % {"n": more} if more else "",
    )


def checkpoint_on_commit() -> None:
    """Sign a checkpoint once the current transaction commits (the close of a day calls it).

    Queued as the Celery task ``audit.tasks.make_checkpoint`` of the project's
    Celery application (run in-process without a broker); outside a transaction
    it is queued at once. A failure to queue or sign never undoes the act that
    committed (``robust``): beat signs the next checkpoint a few minutes later.
    """
    if not signing.is_configured():
        return  # nothing can be signed here (a system without a certificate issues nothing)
    # the task is known in every process: AuditConfig.ready() imports audit.tasks (the record
    # never imports it, as the tasks import the registers)
    transaction.on_commit(app.tasks["audit.tasks.make_checkpoint"].delay, robust=True)


def _store_nodes(nodes: list[tuple[int, int, bytes]]) -> None:
    """Store the perfect subtrees' hashes not stored yet; a stored one that differs is tampering."""
    if not nodes:
        return
    stored = {
        (level, index): digest
        for level, index, digest in MerkleNode.objects.values_list("level", "index", "hash")
    }
    missing = []
    for level, index, digest in nodes:
        found = stored.get((level, index))
        if found is None:
            missing.append(MerkleNode(level=level, index=index, hash=digest.hex()))
        elif found != digest.hex():
            raise Refusal.AUDIT_MERKLE_TAMPERED.error(get_casino().profile, level=level, index=index)
    MerkleNode.objects.bulk_create(missing, batch_size=2000)


# --- The witness -------------------------------------------------------------------
