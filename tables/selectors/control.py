"""The control register (FR model n° 12) and the authorised minimums to stamp."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

from django.db.models import Max, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.models import AuditEvent
from audit.reads import audit_numbers, officer_fingerprints
from cards_registry.selectors import decks_out
from casino_ops import dates
from casino_ops.validators import earliest_date

from ..clock import now
from ..models import (
    AuthorisedMinimum,
    ControlDay,
    ControlLine,
    Session,
)
from .sessions import _name


def control_register(day: dt.date) -> dict[str, Any]:
    """The control register for one day (registre de contrôle, FR model n° 12; FR art. 68, 72).

    Shape::

        {"day": date, "closed": bool, "closed_at", "closed_by",
         "total_at_closing": Decimal | None (as written when the director closed the day),
         "total": Decimal (sum of the effective lines, corrections applied),
         "lines": [  # every line in the order written, corrections included
            {"id", "table_number", "table_code", "session_id", "advances",
             "closing_cash", "result", "at", "by",
             "corrects": id of the line it corrects (None for an original line),
             "is_correction": bool, "approval", "reason",
             "superseded": bool (a later correction replaces it),
             "after_visa": bool (a correction written after an officer's visa of the day), "audit_seq"}],
         "stamped": bool (the officer's visa holds),
         "visa_voided": bool (stamped once, the visa voided by a later correction, not stamped again),
         "tables": [{"table_number", "table_code", "result"}],  # effective results per table
         "stamp": {"by", "at", "remark", "fingerprint"} | None}  # the officer's visa, signed

    A fixed number of queries whatever the number of lines.
    """
    control_day = ControlDay.objects.select_related("closed_by", "stamped_by").filter(day=day).first()
    if control_day is None:
        return {
            "day": day,
            "closed": False,
            "closed_at": None,
            "closed_by": None,
            "total_at_closing": None,
            "total": Decimal("0.00"),
            "stamped": False,
            "visa_voided": False,
            "lines": [],
            "tables": [],
            "stamp": None,
        }
    lines = list(
        ControlLine.objects.filter(control_day=control_day).select_related("table", "by").order_by("id")
    )
    latest: dict[int, int] = {}
    for line in lines:
        latest[line.corrects_id or line.pk] = line.pk
    effective = set(latest.values())
    visas = visa_moments([control_day.pk]).get(control_day.pk, [])
    corrected = audit_numbers(lines, Action.CONTROL_REGISTER_CORRECTED)
    closed = audit_numbers(("tables.session", [line.session_id for line in lines]), Action.SESSION_CLOSED)
    rows = []
    per_table: dict[int, dict[str, Any]] = {}
    total = Decimal("0.00")
    for line in lines:
        if line.corrects_id:
            seq = corrected.get(str(line.pk))
        else:
            seq = closed.get(str(line.session_id))
        rows.append(
            {
                "id": line.pk,
                "table_number": line.table.number,
                "table_code": line.table.code,
                "session_id": line.session_id,
                "advances": line.advances,
                "closing_cash": line.closing_cash,
                "result": line.result,
                "at": line.at,
                "by": _name(line.by),
                "corrects": line.corrects_id,
                "is_correction": line.corrects_id is not None,
                "approval": line.approval,
                "reason": line.reason,
                "superseded": line.pk not in effective,
                # a correction written after an officer's visa of the day voided it (FR art. 72)
                "after_visa": line.corrects_id is not None and any(v < line.at for v in visas),
                "audit_seq": seq,
            }
        )
        if line.pk in effective:
            total += line.result
            t = per_table.setdefault(
                line.table.number,
                {"table_number": line.table.number, "table_code": line.table.code, "result": Decimal("0.00")},
            )
            t["result"] += line.result
    return {
        "day": day,
        "closed": control_day.is_closed,
        "closed_at": control_day.closed_at,
        "closed_by": _name(control_day.closed_by),
        "total_at_closing": control_day.total,
        "total": total,
        "stamped": control_day.is_stamped,
        "visa_voided": bool(visas) and not control_day.is_stamped,
        "lines": rows,
        "tables": [per_table[k] for k in sorted(per_table)],
        "stamp": _stamp(control_day),
    }


def _stamp(control_day: ControlDay) -> dict[str, Any] | None:
    """The officer's visa of the day: who, when, his remark and his signature's fingerprint."""
    if control_day.stamped_at is None:
        return None
    fingerprints = officer_fingerprints([control_day], Action.CONTROL_REGISTER_DAY_STAMPED)
    return {
        "by": _name(control_day.stamped_by),
        "at": control_day.stamped_at,
        "remark": control_day.stamp_remark,
        "fingerprint": fingerprints.get(str(control_day.pk), ""),
    }


def visa_moments(control_day_ids: list[int]) -> dict[int, list[dt.datetime]]:
    """``{control day id: [the moment of each officer's visa of the day]}``, read from the
    visas' audited acts (a visa voided by a later correction stays in the record). One query."""
    found: dict[int, list[dt.datetime]] = {}
    events = AuditEvent.objects.filter(
        action=Action.CONTROL_REGISTER_DAY_STAMPED,
        object_type=ControlDay._meta.label_lower,
        object_id__in=[str(pk) for pk in control_day_ids],
    ).order_by("id")
    for object_id, payload, recorded_at in events.values_list("object_id", "payload", "recorded_at"):
        stamped = json.loads(payload).get("stamped_at")
        moment = dt.datetime.fromisoformat(stamped) if isinstance(stamped, str) else recorded_at
        found.setdefault(int(object_id), []).append(moment)
    return found


def effective_control_lines(control_day: Any) -> list[Any]:
    """The day's lines of the control register, each original line replaced by its latest
    correction (FR art. 68, 72); one query."""
    latest: dict[int, Any] = {}
    for line in control_day.lines.order_by("id"):
        latest[line.corrects_id or line.pk] = line
    return list(latest.values())


def authorised_minimums_to_stamp() -> list[dict[str, Any]]:
    """The acts of the authorised minimum awaiting an officer's visa (for the officers' visas page):
    ``[{"id", "minimum", "decree_reference", "decree_date", "in_force_on", "recorded_by", "recorded_at"}]``."""
    rows = AuthorisedMinimum.objects.filter(stamped_at__isnull=True).select_related("recorded_by")
    return [
        {
            "id": a.pk,
            "minimum": a.minimum,
            "decree_reference": a.decree_reference,
            "decree_date": a.decree_date,
            "in_force_on": a.in_force_on,
            "recorded_by": _name(a.recorded_by),
            "recorded_at": a.recorded_at,
        }
        for a in rows.order_by("in_force_on", "recorded_at", "pk")
    ]


def authorised_minimum_book(date_from: dt.date, date_to: dt.date) -> list[dict[str, Any]]:
    """The acts of the authorised minimum recorded in the period (FR art. 55-5; LU art. 26, 33),
    in the order recorded, each with the officer's visa::

        [{"id", "minimum", "decree_reference", "decree_date", "in_force_on",
          "recorded_by", "recorded_at", "recorded_seq",
          "stamped_by", "stamped_at", "stamped_seq" (None while not stamped),
          "effective_from": the later of its date in force and its visa (None while not stamped)}]

    The period is by the day of inscription (local time). Two queries.
    """
    acts = list(
        AuthorisedMinimum.objects.filter(recorded_at__date__range=(date_from, date_to))
        .select_related("recorded_by", "stamped_by")
        .order_by("recorded_at", "id")
    )
    recorded = audit_numbers(acts, Action.AUTHORISED_MINIMUM_RECORDED)
    stamped = audit_numbers(acts, Action.AUTHORISED_MINIMUM_STAMPED)
    rows = []
    for a in acts:
        stamp_day = timezone.localdate(a.stamped_at) if a.stamped_at is not None else None
        rows.append(
            {
                "id": a.pk,
                "minimum": a.minimum,
                "decree_reference": a.decree_reference,
                "decree_date": a.decree_date,
                "in_force_on": a.in_force_on,
                "recorded_by": _name(a.recorded_by),
                "recorded_at": a.recorded_at,
                "recorded_seq": recorded.get(str(a.pk)),
                "stamped_by": _name(a.stamped_by),
                "stamped_at": a.stamped_at,
                "stamped_seq": stamped.get(str(a.pk)),
                "effective_from": max(a.in_force_on, stamp_day) if stamp_day is not None else None,
            }
        )
    return rows


def control_days_to_stamp() -> QuerySet[Any]:
    """The days closed in the control register awaiting an officer's visa (FR art. 72), oldest first."""
    return (
        ControlDay.objects.filter(closed_at__isnull=False, stamped_at__isnull=True)
        .select_related("closed_by")
        .order_by("day")
    )


def authorised_minimum_acts() -> QuerySet[Any]:
    """Every act of the authorised minimum (an officer stamps one by its id)."""
    return AuthorisedMinimum.objects.all()


def control_days(date_from: dt.date, date_to: dt.date) -> list[dt.date]:
    """The days of the control register in the period."""
    return list(
        ControlDay.objects.filter(day__range=(date_from, date_to))
        .order_by("day")
        .values_list("day", flat=True)
    )


def last_day_named() -> dt.date | None:
    """The latest gaming day a séance or the control register names (a change of the gaming
    day's roll-over takes effect after it: FR art. 42; LU art. 9)."""
    days = [
        Session.objects.aggregate(latest=Max("day"))["latest"],
        ControlDay.objects.aggregate(latest=Max("day"))["latest"],
    ]
    return max((d for d in days if d is not None), default=None)


def day_closing_rules(control_day: ControlDay) -> list[dict[str, Any]]:
    """The rules that decide whether the director may close ``control_day`` (FR art. 72, 40 §5;
    LU art. 10, 7 §5), each with its state now, as ``services.close_day`` applies them: shown
    on the day's page before he tries. ``[{"rule", "met": bool, "detail"}]``."""
    day = control_day.day
    ended = day >= earliest_date() and timezone.localtime(now()).date() > day
    running = list(
        Session.objects.filter(day=day).exclude(status="closed").values_list("table__code", flat=True)
    )
    out = list(decks_out(day=day).values_list("serial", flat=True))
    return [
        {
            "rule": _("La journée est terminée (elle ne s'arrête qu'une fois finie)"),
            "met": ended,
            "detail": "" if ended else _("terminée après le %(d)s") % {"d": dates.day(day)},
        },
        {
            "rule": _("Toutes les séances de la journée sont clôturées"),
            "met": not running,
            "detail": _("séances ouvertes : %(t)s") % {"t": ", ".join(running)} if running else "",
        },
        {
            "rule": _("Tous les jeux remis aux tables sont rendus au dépôt"),
            "met": not out,
            "detail": _("jeux non rendus : %(s)s") % {"s": ", ".join(out)} if out else "",
        },
        {
            "rule": _("La journée n'est pas déjà arrêtée"),
            "met": not control_day.is_closed,
            "detail": _("arrêtée le %(at)s") % {"at": dates.moment(control_day.closed_at)}
            if control_day.is_closed
            else "",
        },
    ]
