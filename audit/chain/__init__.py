"""The hash chain of the audit record: record, seal, verify.

How an event enters the chain
-----------------------------
1. :func:`record` inserts the event in the caller's transaction, unsealed
   (``seq``, ``prev_hash`` and ``hash`` empty). If the act rolls back, so does
   its event; if it commits, so does its event. That is one INSERT (in sealer
   mode on PostgreSQL, sent with the COMMIT).
2. :func:`seal_pending` takes every unsealed event that is committed, in
   ``id`` order, and gives each the next sequence number, the previous hash and
   its own hash. Sealers are serialised by a lock (a PostgreSQL advisory lock;
   SQLite serialises writers by itself), so the chain never forks and never
   skips a number.

Where sealing runs (setting ``AUDIT_SEALING``):

- ``sealer`` (the default on PostgreSQL): ``manage.py audit_sealer`` seals
  continuously, just after commit, as Certificate Transparency logs merge
  entries after a short delay. :func:`record` does not even send its INSERT at
  once: the database backend (``casino_ops.postgresql``) holds it and sends it
  with the act's ``COMMIT`` in one round trip, or before the transaction's next
  statement, whichever comes first (a rollback drops it with the act). Writers
  never wait for each other. An event waits at most one polling interval
  (``--interval``, 0.1 s by default) plus one sealing pass; the Celery beat task
  ``audit.tasks.seal_chain`` seals every minute as a safety net. No committed
  event can be skipped: the database refuses the deletion of any event, sealed
  or not, and refuses every update but the one that seals an unsealed event;
  every sealing pass takes *all* unsealed committed events, so an event is
  sealed by the first pass that starts after its commit. ``verify_audit``
  reports events still waiting and their age.
- ``inline`` (the default on SQLite, the quick start): :func:`record` seals at
  once, inside the caller's transaction. Writers then wait for each other until
  commit (the chain's lock is held from the sealing to the commit); simple, and
  an event is in the chain the moment its act is committed. On PostgreSQL the
  lock, the INSERT and the reads of the pending events and of the head go in one
  round trip, and the seal with the ``COMMIT`` (``seal.insert_and_seal``): the
  lock is held for one round trip and the commit.

Authenticated at the source
---------------------------
:func:`record` computes, in the same INSERT, ``mac``: the HMAC-SHA256 of the
event's canonical bytes (:func:`event_bytes`) keyed by ``AUDIT_EVENT_KEY``, a
secret of the application that the database never holds. A sealing pass
recomputes it and never seals an event whose MAC fails: such an event stays
out of the chain for ever (its ``seq`` stays empty), an alarm event
``audit.forged_event`` naming its id is sealed in its place, and
``verify_audit`` reports it. Verification also recomputes the MAC of every
sealed event, so that whoever holds the database but not the key cannot
rewrite the chain even after the last checkpoint. The MAC is unique: a genuine
event copied into the table again is refused.

What the hash covers
--------------------
``sha256(US.join([prev_hash, seq, recorded_at, actor_name, action,
object_type, object_id, payload]))`` in UTF-8, where US is the unit separator
``\\x1f``, ``recorded_at`` is ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` in UTC,
``payload`` the canonical JSON (sorted keys, no spaces, UTF-8; JSON escapes
control characters, so it never holds US), and ``prev_hash`` of the first event
64 zeros. No one-line field may contain US, a tab or a line break, so the
framing is unambiguous.

The package, by concern: :mod:`.hashing` (what the hash and the MAC cover),
:mod:`.recording`, :mod:`.sealing` (the strategy of the mode, chosen once at start-up),
:mod:`.seal`, :mod:`.sealer` (the sealer's loop: it reconnects with a
back-off when the database is lost and seals the alarm ``audit.sealing_interrupted`` after an
interruption longer than ``AUDIT_SEALING_LATE_AFTER``), :mod:`.rows` (reading the sealed chain,
COPY on PostgreSQL) and :mod:`.verify`.
"""

from __future__ import annotations

from .hashing import (
    FORGED_ACTION,
    FORGED_OBJECT,
    GENESIS,
    canonical_json,
    event_bytes,
    event_hash,
    event_mac,
    format_time,
)
from .recording import record
from .seal import head, seal_pending
from .sealer import run_sealer
from .verify import Verification, verify_chain

__all__ = [
    "FORGED_ACTION",
    "FORGED_OBJECT",
    "GENESIS",
    "Verification",
    "canonical_json",
    "event_bytes",
    "event_hash",
    "event_mac",
    "format_time",
    "head",
    "record",
    "run_sealer",
    "seal_pending",
    "verify_chain",
]
