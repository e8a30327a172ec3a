"""Recording: one event, unsealed, in the transaction of the act it records."""

from __future__ import annotations

from typing import Any

from django.db import connections, models, router
from django.utils import timezone

from casino_ops.django_internals import connection_memo

from ..actions import Action
from ..books import MARKS, ROWS_KEY, drain
from ..models import AuditEvent
from .hashing import _one_line, canonical_json, event_bytes, event_mac, format_time
from .sealing import for_database


def record(
    *,
    actor: Any,
    action: Action,
    obj: models.Model | None = None,
    object_type: str | None = None,
    object_id: str | int | None = None,
    payload: dict[str, Any] | None = None,
    using: str | None = None,
) -> AuditEvent | None:
    """Record one regulated act in the caller's transaction.

    ``actor`` is the acting user (``None`` for the system itself); ``obj`` the
    model instance acted upon (or give ``object_type`` and ``object_id``);
    ``payload`` what the act recorded, as plain JSON-able data.

    Returns the event, inserted (and sealed, in inline mode); ``None`` when the
    event is held for the commit (sealer mode on PostgreSQL): it has no id before. How it
    is written and sealed was chosen at start-up (:mod:`.sealing`).
    """
    if not isinstance(action, Action):
        raise TypeError(f"audit.record() takes an audit.actions.Action, not {action!r}")
    using = using or router.db_for_write(AuditEvent)
    connection = connections[using]
    if not connection.in_atomic_block:
        raise RuntimeError("audit.record() must run inside the transaction of the act it records")
    if obj is not None:
        if not object_type:
            object_type = obj._meta.label_lower  # an app label and a model name: one line
        else:
            _one_line("object_type", object_type)
        object_id = obj.pk if object_id is None else object_id
    elif not object_type:
        raise ValueError("audit.record() needs obj or object_type")
    else:
        _one_line("object_type", object_type)
    if getattr(actor, "is_authenticated", False):
        actor_id = actor.pk
        actor_name = _one_line("actor_name", actor.get_username())
    else:
        actor_id, actor_name = None, "system"
    object_id = _one_line("object_id", "" if object_id is None else str(object_id))
    action_code = action.value  # the codes are checked once (tests/audit/test_actions.py)
    recorded_at = timezone.now()
    stamp = format_time(recorded_at)
    text = canonical_json(_with_rows(connection, payload))
    mac = event_mac(
        event_bytes(
            recorded_at=stamp,
            actor_name=actor_name,
            action=action_code,
            object_type=object_type,
            object_id=object_id,
            payload=text,
        )
    )
    values = [stamp, actor_id, actor_name, action_code, object_type, object_id, text, mac]
    return for_database(using).write(using, connection, values, recorded_at)


def _with_rows(connection: Any, payload: dict[str, Any] | None) -> dict[str, Any]:
    """The payload, plus the regulated rows the act wrote (audit.books), under "rows"."""
    if not connection_memo(connection, MARKS):
        return payload or {}  # no row of a book written since the last event

    rows = drain(connection)
    if not rows:
        return payload or {}
    if payload and ROWS_KEY in payload:
        raise ValueError(f"audit payload key {ROWS_KEY!r} is reserved for the regulated rows")
    return {**(payload or {}), ROWS_KEY: rows}
