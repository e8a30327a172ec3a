"""The tables' acts as the registers show them beside a séance: its interruptions and
resumptions (FR art. 69; LU art. 23), its notice to the minister (LU art. 26)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from audit.actions import Action
from audit.models import AuditEvent
from casino_ops.services import get_casino

from ..rules import LU_MINISTRY_NOTICE_DAYS

INTERRUPTIONS = {"interruption_counted": "counted", "interruption_locked": "locked"}


def interruptions(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A séance's interruptions, from its advance book's lines (in line order), each with the
    resumption that ended it::

        [{"line", "mode": "counted" | "locked", "at", "amount" (counted), "counted_by",
          "signed_by", "cashier" (LU, counted), "key_holder" (locked),
          "resumed_at", "resumed_by", "resumed_line" (None while interrupted)}]
    """
    out: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for e in sorted(entries, key=lambda e: e["line"]):
        mode = INTERRUPTIONS.get(e["kind"])
        if mode is not None:
            current = {
                "line": e["line"],
                "mode": mode,
                "at": e["at"],
                "amount": e["amount"],
                "counted_by": e["counted_by"],
                "signed_by": e["signed_by"],
                "cashier": e["cashier"],
                "key_holder": e["key_holder"],
                "resumed_at": None,
                "resumed_by": None,
                "resumed_line": None,
            }
            out.append(current)
        elif e["kind"] == "resumption" and current is not None:
            current.update(resumed_at=e["at"], resumed_by=e["counted_by"], resumed_line=e["line"])
            current = None
    return out


def _decimal(value: Any) -> Decimal | None:
    return None if value in (None, "") else Decimal(str(value))


def authorised_minimums_at_opening(session_ids: list[int]) -> dict[int, Decimal | None]:
    """``{session id: the authorised minimum checked when it opened}``, as its opening act
    recorded it (None when the act did not record one). One query."""
    found: dict[int, Decimal | None] = {}
    rows = (
        AuditEvent.objects.filter(
            object_type="tables.session",
            object_id__in=[str(pk) for pk in session_ids],
            action=Action.SESSION_OPENED,
        )
        .order_by("id")
        .values_list("object_id", "payload")
    )
    for object_id, payload in rows:
        try:
            value = json.loads(payload).get("authorised_minimum")
        except (ValueError, AttributeError):
            value = None
        found.setdefault(int(object_id), _decimal(value))
    return found


def notice(session: dict[str, Any], authorised: Decimal | None) -> dict[str, Any] | None:
    """A séance's notice to the minister (LU art. 26) as the registers show it, or None when the
    séance needed none and none was given::

        {"required": bool (its minimum exceeds the authorised minimum), "authorised_minimum",
         "notified_on" (the day declared; None: missing), "recorded_at" (the notice's recording,
         the system's), "reference" ("": missing), "days_ahead" (from the recording's gaming day,
         or the day declared for a séance that has no recorded notice), "in_time": bool}
    """
    if session["profile"] != "LU":
        return None
    required = authorised is not None and session["minimum"] > authorised
    notified_on = session["ministry_notified_on"]
    if not required and notified_on is None:
        return None
    recorded_at = session.get("ministry_notice_recorded_at")
    counted_from = get_casino().gaming_day(recorded_at) if recorded_at is not None else notified_on
    days = (session["day"] - counted_from).days if counted_from is not None else None
    return {
        "required": required,
        "authorised_minimum": authorised,
        "notified_on": notified_on,
        "recorded_at": recorded_at,
        "reference": session.get("ministry_notice_reference") or "",
        "days_ahead": days,
        "in_time": days is not None and days >= LU_MINISTRY_NOTICE_DAYS,
    }
