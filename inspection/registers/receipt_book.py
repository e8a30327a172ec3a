"""Carnet de prise en charge, modèle n° 19 (FR art. 39; LU art. 6), with destructions.

One line per reception: its number in the book, the date, the purchase order
(book n° 21) the cards came with, the manufacturer, the manufacturer's serial
numbers of the decks (sixains), their backs, how many, the officer's visa, and
how many of them were destroyed since. The destructions of the period follow,
each with the officer's visa (FR art. 39: he stamps the book's entry).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.translation import gettext_lazy as _

from audit.actions import Action
from audit.reads import officer_fingerprints
from cards_registry import selectors as depot
from cards_registry.selectors import colour

from . import fmt
from .base import Register, Request, register
from .destructions import destruction_section

COLUMNS = [
    fmt.column(_("N° d'ordre"), 6, "n"),
    fmt.column(_("Date de réception"), 8, "c"),
    fmt.column(_("Bon de commande"), 8, "c"),
    fmt.column(_("Fabricant"), 12),
    fmt.column(_("N° d'ordre du fabricant (jeux / sixains)"), 24),
    fmt.column(_("Dos"), 7, "c"),
    fmt.column(_("Jeux"), 5, "n"),
    fmt.column(_("Visa de l'officier"), 13, "visa"),
    fmt.column(_("Dont détruits"), 6, "n"),
    fmt.column(_("Observations"), 11),
]


def entry_rows(entries: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Book lines from plain entries (``number``, ``received_on``, ``order``, ``manufacturer``,
    ``serials``, ``backs``, ``decks``, ``visa``, ``destroyed``, ``note``, ``corrections``)."""
    rows: list[dict[str, Any]] = []
    received = destroyed = 0
    for e in entries:
        rows.append(
            fmt.row(
                COLUMNS,
                [
                    e["number"],
                    fmt.day(e["received_on"]),
                    e.get("order", ""),
                    e.get("manufacturer", ""),
                    e.get("serials", ""),
                    e.get("backs", ""),
                    e.get("decks", 0),
                    e.get("visa", ""),
                    e.get("destroyed", 0) or "",
                    e.get("note", ""),
                ],
                "corrected" if e.get("corrections") else "",
            )
        )
        rows.extend(e.get("corrections", []))
        received += e.get("decks", 0)
        destroyed += e.get("destroyed", 0)
    return rows, {"received": received, "destroyed": destroyed, "kept": received - destroyed}


def _entry(reception: Any, signed: dict[str, str]) -> dict[str, Any]:
    decks = list(reception.decks.all())
    sixains = [s.serial for s in reception.sixains.all()]
    serials = fmt.serial_ranges(d.serial for d in decks)
    if sixains:
        serials = _("sixains %(sixains)s — jeux %(decks)s") % {
            "sixains": fmt.serial_ranges(sixains),
            "decks": serials,
        }
    backs = sorted({d.back_colour for d in decks})
    notes = [
        fmt.prefixed("BL", reception.delivery_note),
        reception.over_delivery and str(_("livraison excédentaire")),
    ]
    return {
        "number": f"{reception.book.number}/{reception.number}",
        "received_on": reception.received_on,
        "order": f"{reception.order.book.number}/{reception.order.number}",
        "manufacturer": reception.manufacturer.name,
        "serials": serials,
        "backs": ", ".join(colour(b) for b in backs),
        "decks": len(decks),
        "visa": fmt.visa_of(reception, fingerprints=signed),
        "destroyed": sum(1 for d in decks if d.status == "destroyed"),
        "note": " ; ".join(n for n in notes if n),
        "corrections": fmt.corrections_of(reception, f"{reception.book.number}/{reception.number}"),
    }


@register
class ReceiptBook(Register):
    name = "receipt-book"
    title = _("Carnet de prise en charge des jeux de cartes")
    model = _("Modèle n° 19")
    model_lu = _("Carnet de prise en charge et d'inventaire des jeux de cartes")
    rule = "depot.receipt_book"
    orientation = "landscape"

    def touched_days(self, events: list[tuple[str, str]]) -> set[dt.date]:
        def ids(label: str) -> list[int]:
            return [int(i) for t, i in events if t == label and str(i).isdigit()]

        return depot.receipt_book_days(ids("cards_registry.reception"), ids("cards_registry.correction"))

    def count(self, request: Request) -> int:
        read = depot.receipt_book
        return read(request.date_from, request.date_to).count()

    def context(self, request: Request) -> dict[str, Any]:
        read = depot.receipt_book
        receptions = list(read(request.date_from, request.date_to))
        signed = officer_fingerprints(receptions, Action.DEPOT_RECEPTION_STAMPED)
        entries = [_entry(r, signed) for r in receptions]
        context = self.context_from_entries(entries)
        destructions = depot.destructions
        context["sections"].append(
            destruction_section(
                list(destructions(request.date_from, request.date_to)),
                title=_("Destructions de la période (visa de l'officier)"),
            )
        )
        return context

    @staticmethod
    def context_from_entries(entries: list[dict[str, Any]]) -> dict[str, Any]:
        rows, totals = entry_rows(entries)
        return {
            "sections": [
                fmt.section(
                    COLUMNS,
                    rows,
                    totals=[
                        fmt.total(
                            _("Totaux de la période"),
                            6,
                            [
                                (totals["received"], "n"),
                                (_("en dépôt : %(k)s") % {"k": totals["kept"]}, "c"),
                                (totals["destroyed"], "n"),
                                ("", ""),
                            ],
                        )
                    ],
                )
            ],
            "totals": totals,
        }
