"""Reading the record for the apps: the audit numbers of their objects.

A book line, a deck's history or a register shows, beside each act, the number of
its event in the chain (``seq``): the officer finds the act in the record by it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django.db.models import Model

from casino_ops import officers
from casino_ops.passkeys import short_fingerprint

from .actions import Action
from .models import AuditEvent


def audit_numbers(
    objects: Iterable[Model | None] | tuple[str, Iterable[Any]], action: Action | Iterable[Action]
) -> dict[str, int | None]:
    """``{str(object id): seq}``: the audit number of each object's first event of ``action``.

    ``objects`` are model instances of one model (``None`` skipped), or a pair
    ``(object_type, ids)`` such as ``("tables.session", [3, 4])``. ``action`` is one
    :class:`Action` or several (an object recorded by one of them). An object whose
    event is not yet sealed maps to ``None``; one without such an event is absent.
    One query.
    """
    if isinstance(objects, tuple) and len(objects) == 2 and isinstance(objects[0], str):
        object_type, ids = objects
        keys = {str(pk) for pk in ids if pk is not None}
    else:
        instances = [obj for obj in objects if obj is not None]
        types = {obj._meta.label_lower for obj in instances}
        if len(types) > 1:
            raise ValueError(f"audit_numbers() takes objects of one model, not {sorted(types)}")
        object_type = types.pop() if types else ""
        keys = {str(obj.pk) for obj in instances}
    actions = [action] if isinstance(action, Action) else list(action)
    if not all(isinstance(a, Action) for a in actions):
        raise TypeError(f"audit_numbers() takes audit.actions.Action members, not {action!r}")
    if not keys or not actions:
        return {}
    found: dict[str, int | None] = {}
    for object_id, seq in (
        AuditEvent.objects.filter(object_type=object_type, object_id__in=keys, action__in=actions)
        .order_by("id")
        .values_list("object_id", "seq")
    ):
        found.setdefault(object_id, seq)
    return found


def officer_fingerprints(
    objects: Iterable[Model | None] | tuple[str, Iterable[Any]], action: Action
) -> dict[str, str]:
    """``{str(object id): fingerprint}``: the short fingerprint of the officer's passkey
    signature (``casino_ops.passkeys.short_fingerprint``) in each object's event of ``action``,
    printed beside his visa; checked by ``verify_audit``. One query."""
    if isinstance(objects, tuple) and len(objects) == 2 and isinstance(objects[0], str):
        object_type, ids = objects
        keys = {str(pk) for pk in ids if pk is not None}
    else:
        instances = [obj for obj in objects if obj is not None]
        object_type = instances[0]._meta.label_lower if instances else ""
        keys = {str(obj.pk) for obj in instances}
    if not keys:
        return {}
    found: dict[str, str] = {}
    events = AuditEvent.objects.filter(object_type=object_type, object_id__in=keys, action=action)
    for object_id, payload in events.order_by("id").values_list("object_id", "payload"):
        signature = json.loads(payload).get(officers.SIGNATURE_KEY)
        if isinstance(signature, dict):
            found.setdefault(object_id, short_fingerprint(signature.get("assertion") or {}))
    return found
