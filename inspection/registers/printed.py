"""The printed registers in the chain (FR art. 68): each print, once signed, is recorded by a
``register.printed`` event (its SHA-256, period, register, table and requester), so that the
answer "this PDF is one the casino issued" rests on the chain, not on a row of ``audit_report``
alone.

:func:`print_payload` is what the event carries; :func:`printed_problems` (plugged into the
record's verification, :data:`audit.verification.CHECKS`, so that ``verify_audit`` runs it beside
the books check) names every printed register whose row differs from
its event, that no event records, or whose recorded print is gone; :func:`recorded` keeps of
some reports those the chain vouches for with a given SHA-256.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from audit.actions import Action
from audit.books import event_name
from audit.models import AuditEvent
from inspection.models import Report

#: What the event binds of a printed register, as its row holds it.
FIELDS = ("register", "date_from", "date_to", "table_number", "part", "requested_by", "sha256")


def print_payload(report: Report) -> dict[str, Any]:
    """The event's payload for ``report`` (its row as it stands once printed)."""
    return _values(
        {
            "register": report.register,
            "date_from": report.date_from,
            "date_to": report.date_to,
            "table_number": report.table_number,
            "part": report.part,
            "requested_by": report.requested_by_id,
            "sha256": report.sha256,
        }
    ) | {"pages": report.pages, "head_seq": report.head_seq}


def _values(row: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for name in FIELDS:
        value = row[name]
        out[name] = value.isoformat() if hasattr(value, "isoformat") else value
    return out


def _said(using: str, report_ids: Iterable[int] | None = None) -> dict[int, tuple[int, dict[str, Any]]]:
    """Report pk -> (seq, or -id of an event waiting to be sealed; its payload), the last print."""
    events = AuditEvent.objects.using(using).filter(action=Action.REGISTER_PRINTED)
    if report_ids is not None:
        events = events.filter(object_id__in=[str(pk) for pk in report_ids])
    said: dict[int, tuple[int, dict[str, Any]]] = {}
    for seq, event_id, object_id, payload in events.order_by("id").values_list(
        "seq", "id", "object_id", "payload"
    ):
        said[int(object_id)] = (seq if seq is not None else -event_id, json.loads(payload))
    return said


def printed_problems(using: str = "default") -> list[str]:
    """Every printed register's row against the event that records its print."""
    said = _said(using)
    problems: list[str] = []
    rows = Report.objects.using(using).order_by("pk").values("pk", *FIELDS[:-2], "requested_by_id", "sha256")
    for row in rows:
        row["requested_by"] = row.pop("requested_by_id")
        entry = said.pop(row["pk"], None)
        if entry is None:
            if row["sha256"]:
                problems.append(
                    f"audit_report pk {row['pk']}: printed (SHA-256 {row['sha256']}) but no event of the "
                    "chain records it"
                )
            continue
        seq, payload = entry
        now = _values(row)
        for name in FIELDS:
            if payload.get(name) != now[name]:
                problems.append(
                    f"audit_report pk {row['pk']} field {name}: the chain says {payload.get(name)!r} "
                    f"({event_name(seq)}), found {now[name]!r}"
                )
    for pk, (seq, _payload) in sorted(said.items()):
        problems.append(f"audit_report pk {pk}: its print is recorded by {event_name(seq)}, the row is gone")
    return problems


def recorded(reports: Iterable[Report], sha256: str, using: str = "default") -> list[Report]:
    """Of ``reports``, those whose print the chain records with this ``sha256``."""
    reports = list(reports)
    said = _said(using, [r.pk for r in reports])
    return [r for r in reports if r.pk in said and said[r.pk][1].get("sha256") == sha256]
