"""Carnet d'enregistrement des orphelins (LU art. 8; under FR, an internal book).

Sums found on the floor, left on a table or abandoned in play, paid at once into
the casino's cash; the repayments to their rightful owners (the total struck at
the date of each); the year-end transfer of the balance to the commune's bureau
de bienfaisance, leaving the account at zero.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext_lazy as _

from house_books import selectors as house

from . import fmt
from .base import Register, Request, register

ENTRIES = [
    fmt.column(_("N°"), 5, "n"),
    fmt.column(_("Trouvé le"), 11, "c"),
    fmt.column(_("Nature"), 14),
    fmt.column(_("Table"), 5, "c"),
    fmt.column(_("Mise oubliée"), 9, "n"),
    fmt.column(_("Gains cumulés"), 9, "n"),
    fmt.column(_("Montant versé en caisse"), 10, "n"),
    fmt.column(_("Circonstances"), 25),
    fmt.column(_("Inscrit par"), 12),
]
REPAYMENTS = [
    fmt.column(_("Remboursé le"), 9, "c"),
    fmt.column(_("Inscription primitive"), 8, "n"),
    fmt.column(_("Total arrêté"), 10, "n"),
    fmt.column(_("Montant remboursé"), 10, "n"),
    fmt.column(_("Nom et adresse du propriétaire"), 25),
    fmt.column(_("Justifications produites"), 25),
    fmt.column(_("Inscrit par"), 13),
]
TRANSFERS = [
    fmt.column(_("Exercice"), 7, "c"),
    fmt.column(_("Versé le"), 9, "c"),
    fmt.column(_("Montant versé"), 11, "n"),
    fmt.column(_("Commune"), 18),
    fmt.column(_("Quittance du receveur"), 20),
    fmt.column(_("Avis au Ministre des Finances"), 15, "c"),
    fmt.column(_("Par"), 20),
]


@register
class Orphans(Register):
    name = "orphans"
    title = _("Carnet d'enregistrement des orphelins")
    model = _("Sommes trouvées, remboursements et versement au bureau de bienfaisance")
    rule = "house.orphans"
    orientation = "landscape"

    def context(self, request: Request) -> dict[str, Any]:
        read_entries = house.orphan_entries
        read_repayments = house.orphan_repayments
        read_transfers = house.orphan_transfers
        entries = list(read_entries(request.date_from, request.date_to))
        repayments = list(read_repayments(request.date_from, request.date_to))
        transfers = list(read_transfers(request.date_from, request.date_to))
        rows = [
            fmt.row(
                ENTRIES,
                [
                    e.number,
                    fmt.moment(e.found_at),
                    e.get_kind_display(),
                    e.table_number or "",
                    fmt.amount(e.stake),
                    fmt.amount(e.winnings),
                    fmt.amount(e.amount),
                    e.description,
                    fmt.person(e.recorded_by),
                ],
            )
            for e in entries
        ]
        found = sum((e.amount for e in entries), Decimal("0"))
        repaid = sum((r.amount for r in repayments), Decimal("0"))
        sections = [
            fmt.section(
                ENTRIES,
                rows,
                title=_("Orphelins versés en caisse"),
                totals=[
                    fmt.total(
                        _("Total des orphelins de la période"),
                        6,
                        [(fmt.amount(found), "n"), ("", ""), ("", "")],
                    )
                ],
            ),
            fmt.section(
                REPAYMENTS,
                [
                    fmt.row(
                        REPAYMENTS,
                        [
                            fmt.day(r.repaid_on),
                            r.entry.number,
                            fmt.amount(r.total_before),
                            fmt.amount(r.amount),
                            f"{r.owner_name}, {r.owner_address}",
                            r.proof,
                            fmt.person(r.recorded_by),
                        ],
                    )
                    for r in repayments
                ],
                title=_("Remboursements aux propriétaires légitimes"),
                totals=[
                    fmt.total(
                        _("Total remboursé"), 3, [(fmt.amount(repaid), "n"), ("", ""), ("", ""), ("", "")]
                    )
                ],
            ),
            fmt.section(
                TRANSFERS,
                [
                    fmt.row(
                        TRANSFERS,
                        [
                            t.exercise,
                            fmt.day(t.transferred_on),
                            fmt.amount(t.amount),
                            t.commune,
                            t.receipt,
                            fmt.day(t.minister_notified_on),
                            fmt.person(t.recorded_by),
                        ],
                    )
                    for t in transfers
                ],
                title=_("Versements de fin d'exercice au bureau de bienfaisance (compte soldé)"),
            ),
        ]
        return {"sections": sections}
