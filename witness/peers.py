"""Split views across witnesses: each log's checkpoint as a peer witness serves it
(``GET <peer>/<sha256 of the origin>/checkpoint``, C2SP tlog-witness) compared with what this
witness cosigned at the same size. Two checkpoints of one size with different roots, both
signed by the log's key, prove the log showed the two witnesses different views; they are
kept (:class:`witness.models.SplitView`) and shown on ``/logs/``. Run by ``python -m witness
witness_compare_peers`` (cron, every few minutes), the peers in ``WITNESS_PEERS``."""

from __future__ import annotations

import hashlib
import urllib.error
import urllib.request
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction

from tlog import checkpoint as checkpoints
from tlog import note as notes

from .models import Cosigned, Log, SplitView
from .service import log_verifiers


@dataclass
class Compared:
    peer: str
    origin: str
    outcome: str  # "same", "split", "not comparable", or why it could not be read


def _fetch(peer: str, origin: str) -> str | None:
    url = f"{peer.rstrip('/')}/{hashlib.sha256(origin.encode('utf-8')).hexdigest()}/checkpoint"
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:  # the configured peers
            return bytes(answer.read()).decode("utf-8")
    except urllib.error.HTTPError as error:
        if error.code == 404:
            return None
        raise


def compare(peer: str, log: Log) -> Compared:
    try:
        served = _fetch(peer, log.origin)
    except (OSError, UnicodeDecodeError) as error:
        return Compared(peer, log.origin, f"unreadable: {error}")
    if served is None:
        return Compared(peer, log.origin, "never cosigned there")
    try:
        note = notes.open_note(served, log_verifiers(log))
        head = checkpoints.parse(note.text)
    except (notes.NoteError, checkpoints.CheckpointError) as error:
        return Compared(peer, log.origin, f"not signed by the log: {error}")
    mine = Cosigned.objects.filter(log=log, size=head.size).order_by("-timestamp").first()
    if mine is None:
        return Compared(peer, log.origin, "not comparable")
    if mine.root == head.root.hex():
        return Compared(peer, log.origin, "same")
    try:
        with transaction.atomic():
            SplitView.objects.create(
                log=log,
                size=head.size,
                root_here=mine.root,
                root_there=head.root.hex(),
                peer=peer,
                checkpoint_here=mine.checkpoint,
                checkpoint_there=served,
            )
    except IntegrityError:
        pass  # found before
    return Compared(peer, log.origin, "split")


def compare_all() -> list[Compared]:
    peers = list(getattr(settings, "WITNESS_PEERS", []))
    return [compare(peer, log) for peer in peers for log in Log.objects.exclude(checkpoint="")]
