"""Avis de table (LU art. 74, last paragraph; under FR, the casino's internal rules).

At each black-jack table the director shows the table's number and posts a notice giving,
as a table, the amount of its advance (encaisse), the minimum stake and the maximum: one
page per table, as last posted (the notices of the period, the last one per table).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from house_books import selectors

from . import fmt
from .base import Register, Request, register

COLUMNS = [fmt.column(_("Encaisse"), 34, "r"), fmt.column(_("Minimum des mises"), 33, "r"),
           fmt.column(_("Maximum par case"), 33, "r")]  # fmt: skip


@register
class TableNotice(Register):
    name = "table-notice"
    title = _("Avis de table")
    model = _("Numéro de la table, encaisse, minimum et maximum des mises")
    rule = "house.table_notice"
    template = "registers/table_notice.html"

    def context(self, request: Request) -> dict[str, Any]:
        last: dict[int, Any] = {}
        for notice in selectors.table_notices(request.date_from, request.date_to):
            last[notice.table_number] = notice
        pages = []
        for number, notice in sorted(last.items()):
            cells = [fmt.amount(notice.advance), fmt.amount(notice.minimum), fmt.amount(notice.maximum)]
            page = fmt.section(
                COLUMNS,
                [fmt.row(COLUMNS, cells)],
                title=_("Table n° %(n)s") % {"n": number},
                meta=[
                    (_("Black-jack"), notice.table_code),
                    (_("Apposé le"), fmt.day(notice.day)),
                    (_("Par"), fmt.person(notice.posted_by)),
                ],
            )
            pages.append(page)
        return {"sections": pages}
