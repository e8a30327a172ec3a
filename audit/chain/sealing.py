"""How the record writes and seals an event: chosen once, at start-up.

``AUDIT_SEALING`` (``inline`` or ``sealer``) and each database's backend decide it, and
:func:`choose` (called by the app's ``ready()``, and again when a test changes either setting)
picks one strategy per database; :func:`audit.chain.record` hands every event to its
database's strategy without asking again:

- :class:`HeldForCommit`: sealer mode on a backend that holds writes
  (``casino_ops.postgresql``): the INSERT goes with the act's ``COMMIT``, no round trip of its
  own; the event has no id before, and :func:`record` returns ``None``.
- :class:`InsertedNow`: sealer mode on another backend: the INSERT at once.
- :class:`SealedInOneTrip`: inline mode on a backend that batches (PostgreSQL): the chain's
  lock, the INSERT and the reads of the pending events and of the head in one round trip, the
  seals sent with the ``COMMIT`` (``seal.insert_and_seal``).
- :class:`SealedAfterInsert`: inline mode on another backend (SQLite, the quick start): the
  INSERT, then a sealing pass in the same transaction.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from django.conf import settings
from django.db import connections

from ..models import AuditEvent
from .seal import INSERT_SQL, _insert, _seal, insert_and_seal

#: The fields of an event as :func:`record` hands them over, in ``INSERT_SQL``'s order:
#: ``[stamp, actor_id, actor_name, action, object_type, object_id, payload, mac]``.
Values = list[Any]


class Sealing:
    """Writes one event of an act, in the act's transaction (and seals it, inline)."""

    mode: ClassVar[str]

    def write(
        self, using: str, connection: Any, values: Values, recorded_at: dt.datetime
    ) -> AuditEvent | None:
        raise NotImplementedError


def _event(using: str, values: Values, recorded_at: dt.datetime) -> AuditEvent:
    _stamp, actor_id, actor_name, action, object_type, object_id, payload, mac = values
    # Positional, in the fields' order (id, seq, …, actor_id, …, mac): half the cost of
    # keywords (the stubs know the fields' names, not this order).
    event = AuditEvent(
        None,
        None,
        recorded_at,
        actor_id,
        actor_name,
        action,
        object_type,
        object_id,
        payload,
        mac,
    )
    event._state.adding = False
    event._state.db = using
    return event


class HeldForCommit(Sealing):
    mode = "sealer"

    def write(self, using: str, connection: Any, values: Values, recorded_at: dt.datetime) -> None:
        # Sent with the COMMIT (casino_ops.postgresql): no round trip of its own. Nothing
        # reads the event back before; it has no id until then. The moment goes as its stamp
        # (UTC, to the microsecond: the same instant).
        connection.defer(INSERT_SQL, values, prepared="audit_event_insert")  # planned once per connection
        return None


class InsertedNow(Sealing):
    mode = "sealer"

    def write(self, using: str, connection: Any, values: Values, recorded_at: dt.datetime) -> AuditEvent:
        event = _event(using, values, recorded_at)
        _insert(using, event, values[1])
        return event


def _sealed(event: AuditEvent, seals: list[Any]) -> AuditEvent:
    for seq, prev, digest, sealed_at, event_id in seals:
        if event_id == event.id:
            event.seq, event.prev_hash, event.hash, event.sealed_at = seq, prev, digest, sealed_at
    return event


class SealedInOneTrip(Sealing):
    mode = "inline"

    def write(self, using: str, connection: Any, values: Values, recorded_at: dt.datetime) -> AuditEvent:
        event = _event(using, values, recorded_at)
        event.id, seals = insert_and_seal(using, values)
        return _sealed(event, seals)


class SealedAfterInsert(Sealing):
    mode = "inline"

    def write(self, using: str, connection: Any, values: Values, recorded_at: dt.datetime) -> AuditEvent:
        event = _event(using, values, recorded_at)
        _insert(using, event, values[1])
        return _sealed(event, _seal(using, limit=None))


_chosen: dict[str, Sealing] = {}


def pick(mode: str, backend: type) -> Sealing:
    """The strategy for ``mode`` (``AUDIT_SEALING``) on a database whose wrapper is ``backend``."""
    if mode == "sealer":
        return HeldForCommit() if hasattr(backend, "defer") else InsertedNow()
    if mode == "inline":
        return SealedInOneTrip() if hasattr(backend, "batch") else SealedAfterInsert()
    raise ValueError(f"AUDIT_SEALING must be 'inline' or 'sealer', not {mode!r}")


def choose() -> None:
    """Pick each database's strategy from ``AUDIT_SEALING`` and its backend (no connection
    is opened: the backend's class decides)."""
    mode = settings.AUDIT_SEALING
    _chosen.clear()
    _chosen.update({alias: pick(mode, type(connections[alias])) for alias in connections})


def for_database(using: str) -> Sealing:
    """The strategy chosen for the database ``using`` (a database added to the connections
    after start-up, as a restore or a second cluster is, gets its own on its first event)."""
    chosen = _chosen.get(using)
    if chosen is None:
        chosen = _chosen[using] = pick(settings.AUDIT_SEALING, type(connections[using]))
    return chosen


def use(mode: str) -> None:
    """Set ``AUDIT_SEALING`` to ``mode`` in this process and choose again (the benches
    switch modes between runs; a test changes the setting through pytest-django's
    ``settings``, which sends ``setting_changed``)."""
    settings.AUDIT_SEALING = mode
    choose()


def on_setting_changed(setting: str, **kwargs: Any) -> None:
    """``setting_changed``'s receiver (connected by the app's ``ready()``): a test that
    changes ``AUDIT_SEALING`` or the databases gets the strategy of its settings."""
    if setting in {"AUDIT_SEALING", "DATABASES"}:
        choose()
