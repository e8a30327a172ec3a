"""What an event's hash and MAC cover: the canonical bytes, the HMAC key."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import re
import uuid
from decimal import Decimal
from typing import Any

from django.conf import settings

from ..actions import Action

GENESIS = "0" * 64
_US = "\x1f"  # the unit separator frames the hashed fields; no field may hold it


def _json_default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, set | frozenset | tuple):
        return sorted(value) if isinstance(value, set | frozenset) else list(value)
    raise TypeError(f"cannot record a value of type {type(value).__name__} in an audit payload")


# One encoder for every payload (json.dumps with options builds a new one per call).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_json_default)


def canonical_json(payload: Any) -> str:
    """Sorted keys, no spaces, UTF-8: the same payload always gives the same text."""
    return _ENCODER.encode(payload)


def format_time(moment: dt.datetime) -> str:
    """``YYYY-MM-DDTHH:MM:SS.ffffffZ`` in UTC, microseconds always written."""
    if moment.tzinfo is not dt.UTC:
        moment = moment.astimezone(dt.UTC)
    # isoformat, a fifth of strftime's cost: "…+00:00" in UTC, ended by Z instead.
    return moment.isoformat(timespec="microseconds")[:-6] + "Z"


#: An event's own fields, as its act said them, in the order its chain hash, its MAC and its Merkle
#: leaf read them, after its moment (``recorded_at``). Whatever lists an event's stored fields
#: (the chain's rows, the officers' API) names them from here.
CONTENT_FIELDS = ("actor_name", "action", "object_type", "object_id", "payload")

#: The fields of an event its chain hash covers, in order: its place in the chain, then its bytes.
HASHED_FIELDS = ("prev_hash", "seq", "recorded_at", *CONTENT_FIELDS)


def event_hash(
    *,
    prev_hash: str,
    seq: int,
    recorded_at: str,
    actor_name: str,
    action: str,
    object_type: str,
    object_id: str,
    payload: str,
) -> str:
    message = _US.join(
        [prev_hash, str(seq), recorded_at, actor_name, action, object_type, object_id, payload]
    )
    return hashlib.sha256(message.encode("utf-8")).hexdigest()


FORGED_ACTION = Action.FORGED_EVENT
FORGED_OBJECT = "audit.auditevent"


def event_bytes(
    *, recorded_at: str, actor_name: str, action: str, object_type: str, object_id: str, payload: str
) -> bytes:
    """An event's canonical bytes: what its MAC covers and its Merkle leaf (RFC 9162).

    ``US.join([recorded_at, actor_name, action, object_type, object_id, payload])``
    in UTF-8: exactly the end of the message its chain hash covers, after
    ``prev_hash`` and ``seq``.
    """
    return _US.join([recorded_at, actor_name, action, object_type, object_id, payload]).encode("utf-8")


def _key() -> bytes:
    key = getattr(settings, "AUDIT_EVENT_KEY", "") or ""
    if not key:
        raise RuntimeError("AUDIT_EVENT_KEY is not set: no audit event can be authenticated")
    return key.encode("utf-8")


class _Hmac:
    """HMAC-SHA256 (RFC 2104) with the key's inner and outer states computed once:
    OpenSSL's one-shot HMAC costs several times a SHA-256 of an event here."""

    def __init__(self, key: bytes) -> None:
        if len(key) > 64:
            key = hashlib.sha256(key).digest()
        key = key.ljust(64, b"\0")
        self._inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
        self._outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))

    def hexdigest(self, content: bytes) -> str:
        inner = self._inner.copy()
        inner.update(content)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.hexdigest()


_hmacs: dict[bytes, _Hmac] = {}


def _hmac(key: bytes | None = None) -> _Hmac:
    key = key or _key()
    found = _hmacs.get(key)
    if found is None:
        found = _hmacs[key] = _Hmac(key)
    return found


def event_mac(content: bytes, key: bytes | None = None) -> str:
    """HMAC-SHA256 of an event's canonical bytes, keyed by AUDIT_EVENT_KEY (hex)."""
    return _hmac(key).hexdigest(content)


def mac_holds(
    mac: str | None,
    key: bytes,
    *,
    recorded_at: str,
    actor_name: str,
    action: str,
    object_type: str,
    object_id: str,
    payload: str,
) -> bool:
    """Whether ``mac`` is the MAC of the event with these fields under ``key`` (compared
    in constant time): an unsealed event that fails it was written without the key."""
    content = event_bytes(
        recorded_at=recorded_at,
        actor_name=actor_name,
        action=action,
        object_type=object_type,
        object_id=object_id,
        payload=payload,
    )
    return bool(mac) and hmac.compare_digest(event_mac(content, key), mac or "")


_NOT_ON_ONE_LINE = re.compile("[\n\r\t\x1f]")


def _one_line(name: str, value: str) -> str:
    if _NOT_ON_ONE_LINE.search(value):
        raise ValueError(f"audit field {name} may not contain a line break or separator: {value!r}")
    return value
