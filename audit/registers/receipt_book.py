"""Carnet de prise en charge, modèle n° 19 (FR art. 39; LU art. 6), with destructions.

One line per deck received: its order number in the book, the date, the
purchase order (book n° 21) it came with, the manufacturer and the
manufacturer's serial number, the back colour, the officer's visa; then,
when it was destroyed, the date and the officer's visa of the destruction.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from .base import Register, Request, place_corrections, register, selector


@register
class ReceiptBook(Register):
    name = "receipt-book"
    title = _("Carnet de prise en charge des jeux de cartes")
    model = _("Modèle n° 19")
    rule = "depot.receipt_book"
    template = "registers/receipt_book.html"
    orientation = "landscape"

    def rows(self, request: Request) -> list[dict[str, Any]]:
        read = selector("cards_registry.selectors", "receipt_book")
        if read is None:
            return []
        return list(read(date_from=request.date_from, date_to=request.date_to))

    def context(self, request: Request) -> dict[str, Any]:
        return self.context_from_rows(self.rows(request))

    @staticmethod
    def context_from_rows(rows: list[dict[str, Any]]) -> dict[str, Any]:
        rows = place_corrections(rows)
        entries = [r for r in rows if r.get("css") != "correction"]
        destroyed = sum(1 for r in entries if r.get("destroyed_on"))
        return {
            "rows": rows,
            "totals": {"received": len(entries), "destroyed": destroyed, "kept": len(entries) - destroyed},
        }
