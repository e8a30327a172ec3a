"""Cash advances, the guarantee fund and approvals in words (FR art. 42, 49, 68, 72; LU art. 9, 10, 21, 22)."""

from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext as _

from casino_ops import dates
from casino_ops import rules as casino_rules
from casino_ops.regulations import RegulationError, cite

from .limits import FR_ADVANCE_MULTIPLE, check_amount


def check_advance(
    *,
    profile: str,
    minimum: Decimal,
    advance: Decimal,
    same_day_advance: Decimal | None,
    year_minimum: Decimal | None,
    year_advance: Decimal | None,
    same_day_minimum: Decimal | None = None,
) -> None:
    """The advance (FR art. 42, 49; LU art. 9, 21, 26).

    FR: at least 3,000 times the minimum (art. 49), the same all day at a table
    (art. 42), fixed for the fiscal year (art. 49), rising in proportion when
    the minimum is raised (art. 53). LU: the amount fixed for the fiscal year
    (art. 9), rising in proportion with the minimum (art. 26).
    """
    check_amount(advance, "advance_amount", "advance.amount", profile)
    if profile == "FR" and advance < minimum * FR_ADVANCE_MULTIPLE:
        raise RegulationError(
            "ADVANCE_TOO_SMALL",
            _("L'avance au black-jack est d'au moins 3 000 fois le minimum des mises : %(e)s.")
            % {"e": dates.amount(minimum * FR_ADVANCE_MULTIPLE)},
            cite("advance.amount", profile),
            field="advance_amount",
        )
    # FR art. 53: reopened the same day at another minimum, the advance follows it in proportion
    # (checked by check_same_day_reopening); otherwise it does not vary within the day
    reopened = same_day_minimum is not None and minimum != same_day_minimum
    if same_day_advance is not None and advance != same_day_advance and not reopened:
        raise RegulationError(
            "ADVANCE_VARIES_WITHIN_DAY",
            _("L'avance d'une table ne varie pas au cours de la journée : %(e)s.")
            % {"e": dates.amount(same_day_advance)},
            cite("advance.book", profile),
            field="advance_amount",
        )
    if year_advance is not None and year_minimum is not None:
        expected = year_advance * minimum / year_minimum
        if advance != expected:
            raise RegulationError(
                "ADVANCE_FIXED_FOR_YEAR",
                _(
                    "L'avance est fixée pour l'exercice (%(y)s pour un minimum de %(ym)s) ; "
                    "avec un minimum de %(m)s elle est de %(e)s."
                )
                % {
                    "y": dates.amount(year_advance),
                    "ym": dates.amount(year_minimum),
                    "m": dates.amount(minimum),
                    "e": dates.amount(expected),
                },
                cite("advance.fixed_for_year", profile),
                field="advance_amount",
            )


def check_guarantee_fund(*, profile: str, fund: Decimal | None, largest_advance: Decimal) -> None:
    """LU art. 22: at each session's start the casino shows cash at least equal to its largest advance."""
    if profile != "LU":
        return
    if fund is None:
        raise RegulationError(
            "GUARANTEE_FUND_MISSING",
            _("Le fonds de garantie justifié en début de partie doit être indiqué."),
            cite("advance.guarantee_fund", profile),
            field="guarantee_fund",
        )
    check_amount(fund, "guarantee_fund", "advance.guarantee_fund", profile)
    if fund < largest_advance:
        raise RegulationError(
            "GUARANTEE_FUND_TOO_SMALL",
            _("Le fonds de garantie (%(f)s) est inférieur à la plus forte avance du casino (%(a)s).")
            % {"f": dates.amount(fund), "a": dates.amount(largest_advance)},
            cite("advance.guarantee_fund", profile),
            field="guarantee_fund",
        )


def check_approval_in_words(approval: str, reason: str, profile: str) -> None:
    """A correction is approved in words by the director and gives its reason (FR art. 68)."""
    casino_rules.check_approval_in_words(approval, profile)
    if not reason.strip():
        raise RegulationError(
            "CORRECTION_REASON",
            _("Le motif de la correction est requis."),
            cite("books.no_erasure", profile),
            field="reason",
        )
