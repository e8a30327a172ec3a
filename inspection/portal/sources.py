"""The parts of the portal's pages read from the other apps (depot, tables)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from cards_registry import selectors as depot
from casino_ops import dates
from house_books import selectors as house
from tables import selectors as tables
from tables.selectors import authorised_minimums_to_stamp


def awaiting_visas(officer: Any) -> dict[str, list[Any]]:
    """Entries waiting for an officer's visa: orders and receptions with none, the
    destructions this officer witnessed and has not stamped yet, the makers' approvals and the LU
    sixain cap the director recorded (FR art. 39, LU art. 6), the acts of the
    authorised minimum not stamped yet, and a closing down of the casino (LU art. 52)."""
    return {
        "closings": list(house.closings_awaiting_visa()),
        "minimums": authorised_minimums_to_stamp(),
        "control_days": list(tables.control_days_to_stamp()),
        "makers": depot.makers_awaiting_visa(),
        "sixain_caps": depot.sixain_caps_awaiting_visa(),
        "orders": depot.orders_awaiting_visa(),
        "receptions": depot.receptions_awaiting_visa(),
        "destructions": depot.destructions_awaiting_visa(officer),
    }


def open_incidents(*, with_decks: bool = True) -> list[Any]:
    return depot.open_incidents(with_decks=with_decks)


def recent_discrepancies(limit: int = 30) -> list[tuple[str, list[dict[str, Any]]]]:
    """The last discrepancies found, grouped by table, each with a link to its round."""
    rows = tables.recent_discrepancy_rows(limit)
    # Rounds are numbered 1, 2, 3 … (the position) unless the log breaks that rule.
    positions = {
        log_id: tables.round_positions(log_id)
        for log_id in {r["hand_log_id"] for r in rows if r["misnumbered"]}
    }
    grouped: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        log_id = r["hand_log_id"]
        position = positions[log_id].get(r["round"]) if log_id in positions else r["round"]
        grouped.setdefault(r["session__table__code"], []).append(
            {
                "code": r["code"],
                "box": r["box"],
                "article": r["article"],
                "where": _("%(shoe)s · manche %(round)s")
                % {"shoe": r["hand_log__shoe_label"], "round": r["round"]},
                "url": reverse("portal:replay", args=[log_id, position])
                if position
                else reverse("portal:hand_log", args=[log_id]),
            }
        )
    return sorted(grouped.items())


def _day(value: Any) -> str:
    """A date (or a moment, in the casino's time zone) as the active language writes it."""
    return dates.day(value)


def dashboard_parts(user: Any) -> dict[str, Any]:
    visas = awaiting_visas(user)
    items = [
        {
            "label": _("Bon de commande n° %(book)s/%(number)s — %(maker)s")
            % {"book": o.book.number, "number": o.number, "maker": o.manufacturer.code},
            "url": reverse("portal:visas"),
        }
        for o in visas["orders"]
    ]
    items += [
        {
            "label": _("Prise en charge n° %(book)s/%(number)s du %(day)s")
            % {"book": r.book.number, "number": r.number, "day": _day(r.received_on)},
            "url": reverse("portal:visas"),
        }
        for r in visas["receptions"]
    ]
    items += [
        {
            "label": _("Destruction n° %(book)s/%(number)s du %(day)s")
            % {"book": d.book.number, "number": d.number, "day": _day(d.at)},
            "url": reverse("portal:visas"),
        }
        for d in visas["destructions"]
    ]
    items += [
        {
            "label": _("Agrément du fabricant %(code)s — %(ministry)s, %(reference)s")
            % {"code": m.code, "ministry": m.ministry, "reference": m.approval_reference},
            "url": reverse("portal:visas"),
        }
        for m in visas["makers"]
    ]
    items += [
        {
            "label": _("Nombre de sixains fixé par le ministère : %(n)s — %(reference)s")
            % {"n": c.max_sixains, "reference": c.reference},
            "url": reverse("portal:visas"),
        }
        for c in visas["sixain_caps"]
    ]
    items += [
        {
            "label": _("Minimum autorisé de %(minimum)s € — %(reference)s, en vigueur le %(day)s")
            % {
                "minimum": dates.amount(m["minimum"]),
                "reference": m["decree_reference"],
                "day": _day(m["in_force_on"]),
            },
            "url": reverse("portal:visas"),
        }
        for m in visas["minimums"]
    ]
    items += [
        {
            "label": _("Registre de contrôle : journée du %(day)s arrêtée") % {"day": _day(c.day)},
            "url": reverse("portal:visas"),
        }
        for c in visas["control_days"]
    ]
    items += [
        {
            "label": _("Cessation de l'exploitation du %(day)s") % {"day": _day(c.closed_at)},
            "url": reverse("portal:visas"),
        }
        for c in visas["closings"]
    ]
    incidents = [
        {
            "label": _("Incident n° %(number)s — %(kind)s (table %(table)s, %(day)s)")
            % {
                "number": i.number,
                "kind": i.get_kind_display(),
                "table": i.table_number or "—",
                "day": _day(i.day),
            },
            "url": reverse("portal:incidents"),
        }
        for i in open_incidents(with_decks=False)
    ]
    return {
        "awaiting_visas": items,
        "open_incidents": incidents,
        "discrepancies_by_table": recent_discrepancies(),
    }
