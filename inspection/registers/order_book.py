"""Carnet de bons de commande, modèle n° 21 (FR art. 39; LU art. 6).

One line per purchase order, taken from the numbered book: the approved
manufacturer (and its approval), what was ordered, the officer's visa
(orders are stamped before they are sent), the sending and the receptions
that answered it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from audit.actions import Action
from audit.reads import officer_fingerprints
from cards_registry import selectors as depot
from cards_registry.selectors import colour

from . import fmt
from .base import Register, Request, register


def quantity_of(quantity: int, unit: str) -> str:
    """A quantity and its unit, in the plural after more than one ("6 jeux", "1 sixain")."""
    if unit == "sixain":
        return ngettext("%(n)s sixain", "%(n)s sixains", quantity) % {"n": quantity}
    return ngettext("%(n)s jeu", "%(n)s jeux", quantity) % {"n": quantity}


COLUMNS = [
    fmt.column(_("Bon n°"), 6, "n"),
    fmt.column(_("Date du bon"), 8, "c"),
    fmt.column(_("Fabricant agréé (agrément)"), 17),
    fmt.column(_("Commande (quantité, unité, dos)"), 19),
    fmt.column(_("Jeux"), 5, "n"),
    fmt.column(_("Visa de l'officier"), 13, "visa"),
    fmt.column(_("Envoyé le"), 9, "c"),
    fmt.column(_("Prises en charge"), 12),
    fmt.column(_("Observations"), 11),
]


@register
class OrderBook(Register):
    name = "order-book"
    title = _("Carnet de bons de commande de cartes")
    model = _("Modèle n° 21")
    model_lu = _("Carnet numéroté de bons de commande")
    rule = "depot.order_book"
    orientation = "landscape"

    def context(self, request: Request) -> dict[str, Any]:
        read = depot.order_book
        orders = list(read(request.date_from, request.date_to))
        signed = officer_fingerprints(orders, Action.DEPOT_ORDER_STAMPED)
        rows: list[dict[str, Any]] = []
        decks = 0
        for o in orders:
            lines = list(o.lines.all())
            count = sum(int(getattr(ln, "decks", 0) or 0) for ln in lines)
            decks += count
            what = ", ".join(
                _("%(quantity)s dos %(colour)s")
                % {"quantity": quantity_of(ln.quantity, ln.unit), "colour": colour(ln.back_colour)}
                for ln in lines
            )
            receptions = ", ".join(
                _("n° %(n)s du %(day)s") % {"n": f"{r.book.number}/{r.number}", "day": fmt.day(r.received_on)}
                for r in o.receptions.all()
            )
            maker = o.manufacturer
            corrections = fmt.corrections_of(o, f"{o.book.number}/{o.number}")
            rows.append(
                fmt.row(
                    COLUMNS,
                    [
                        f"{o.book.number}/{o.number}",
                        fmt.day(o.ordered_on),
                        f"{maker.name} ({maker.approval_reference})",
                        what,
                        count,
                        fmt.visa_of(o, fingerprints=signed),
                        fmt.moment(o.sent_at),
                        receptions,
                        o.note,
                    ],
                    "corrected" if corrections else "",
                )
            )
            rows.extend(corrections)
        totals = [
            fmt.total(
                _("Total des jeux commandés"), 4, [(decks, "n"), ("", ""), ("", ""), ("", ""), ("", "")]
            )
        ]
        return {"sections": [fmt.section(COLUMNS, rows, totals=totals)]}
