"""Cash advances, the guarantee fund and approvals in words (FR art. 42, 49, 68, 72; LU art. 9, 10, 21, 22)."""

from __future__ import annotations

from decimal import Decimal

from casino_ops import dates
from casino_ops import rules as casino_rules
from casino_ops.refusals import Refusal

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
        raise Refusal.ADVANCE_TOO_SMALL.error(profile, e=dates.amount(minimum * FR_ADVANCE_MULTIPLE))
    # FR art. 53: reopened the same day at another minimum, the advance follows it in proportion
    # (checked by check_same_day_reopening); otherwise it does not vary within the day
    reopened = same_day_minimum is not None and minimum != same_day_minimum
    if same_day_advance is not None and advance != same_day_advance and not reopened:
        raise Refusal.ADVANCE_VARIES_WITHIN_DAY.error(profile, e=dates.amount(same_day_advance))
    if year_advance is not None and year_minimum is not None:
        expected = year_advance * minimum / year_minimum
        if advance != expected:
            raise Refusal.ADVANCE_FIXED_FOR_YEAR.error(
                profile,
                y=dates.amount(year_advance),
                ym=dates.amount(year_minimum),
                m=dates.amount(minimum),
                e=dates.amount(expected),
            )


def check_guarantee_fund(*, profile: str, fund: Decimal | None, largest_advance: Decimal) -> None:
    """LU art. 22: at each session's start the casino shows cash at least equal to its largest advance."""
    if profile != "LU":
        return
    if fund is None:
        raise Refusal.GUARANTEE_FUND_MISSING.error(profile)
    check_amount(fund, "guarantee_fund", "advance.guarantee_fund", profile)
    if fund < largest_advance:
        raise Refusal.GUARANTEE_FUND_TOO_SMALL.error(
            profile, f=dates.amount(fund), a=dates.amount(largest_advance)
        )


def check_approval_in_words(approval: str, reason: str, profile: str) -> None:
    """A correction is approved in words by the director and gives its reason (FR art. 68)."""
    casino_rules.check_approval_in_words(approval, profile)
    if not reason.strip():
        raise Refusal.CORRECTION_REASON_BOOKS_NO_ERASURE.error(profile)


def check_further_advance(amount: Decimal, initial: Decimal, profile: str) -> None:
    """Each further advance equals the séance's initial one (``initial``, as corrected) (FR art.
    42, 49; LU art. 9, 21)."""
    if amount != initial:
        raise Refusal.ADVANCE_NOT_EQUAL.error(profile, a=dates.amount(initial))
