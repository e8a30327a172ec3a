"""Stake limits, the gaming day, reopenings and the season's maximum (FR art. 53, 55-5, 69; LU art. 15, 23, 26, 33)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, NoReturn

from django.utils.translation import gettext as _

from casino_ops import dates
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite

MAXIMUM_MULTIPLES = (50, 100, 200)


FR_ADVANCE_MULTIPLE = 3000


LU_MINISTRY_NOTICE_DAYS = 8


# the books' amounts: 14 digits, 2 of them decimals
AMOUNT_INTEGER_DIGITS = 12


def check_amount(value: Decimal, field: str, rule: str, profile: str, *, allow_zero: bool = False) -> None:
    """An amount is a Decimal with at most two decimals and twelve digits before the point,
    positive (or zero where allowed)."""
    if not isinstance(value, Decimal) or not value.is_finite():
        raise Refusal.AMOUNT_INVALID.error(
            article=cite(rule, profile), field=field, message=_("Montant invalide.")
        )
    if value.as_tuple().exponent < -2:  # type: ignore[operator]
        raise Refusal.AMOUNT_INVALID.error(
            article=cite(rule, profile),
            field=field,
            message=_("Un montant a au plus deux décimales (reçu : %(v)s)."),
            v=value,
        )
    if value.adjusted() >= AMOUNT_INTEGER_DIGITS:
        raise Refusal.AMOUNT_INVALID.error(
            article=cite(rule, profile),
            field=field,
            message=_("Un montant a au plus %(n)s chiffres avant la virgule (reçu : %(v)s)."),
            n=AMOUNT_INTEGER_DIGITS,
            v=value,
        )
    if value < 0 or (value == 0 and not allow_zero):
        raise Refusal.AMOUNT_INVALID.error(article=cite(rule, profile), field=field, v=value)


def check_limits(minimum: Decimal, maximum: Decimal, authorised_min: Decimal, profile: str) -> None:
    """Minimum at least the authorised one; maximum 50, 100 or 200 times it (FR art. 55-5, LU art. 33)."""
    check_amount(minimum, "minimum", "limits.minimum_maximum", profile)
    check_amount(maximum, "maximum", "limits.minimum_maximum", profile)
    if minimum < authorised_min:
        raise Refusal.MINIMUM_BELOW_AUTHORISED.error(
            profile, m=dates.amount(minimum), a=dates.amount(authorised_min)
        )
    check_maximum_multiple(minimum, maximum, profile)


def check_maximum_multiple(minimum: Decimal, maximum: Decimal, profile: str) -> None:
    if maximum not in {minimum * k for k in MAXIMUM_MULTIPLES}:
        raise Refusal.MAXIMUM_NOT_MULTIPLE.error(
            profile,
            a=dates.amount(minimum * 50),
            b=dates.amount(minimum * 100),
            c=dates.amount(minimum * 200),
            m=dates.amount(maximum),
        )


def check_minimum_against_history(
    *,
    profile: str,
    minimum: Decimal,
    same_day_minimum: Decimal | None,
    year_minimum: Decimal | None,
) -> None:
    """LU art. 26 (by art. 33): the minimum is not changed within a day at a table; once raised in
    the fiscal year it is not lowered before its end (a raise is told to the ministry eight days
    ahead: :func:`check_ministry_notice`). FR art. 53: the minimum changes only by closing the table and reopening it, which
    is what a new session is, so nothing more is checked here for FR.
    """
    if profile != "LU":
        return
    if same_day_minimum is not None and minimum != same_day_minimum:
        raise Refusal.MINIMUM_CHANGED_WITHIN_DAY.error(profile, p=dates.amount(same_day_minimum))
    if year_minimum is not None and minimum < year_minimum:
        raise Refusal.MINIMUM_LOWERED.error(profile, p=dates.amount(year_minimum))


def check_gaming_day(*, profile: str, day: Any, current: Any) -> None:
    """A session opens only for the current gaming day: its advance is written at once, never
    for another day (FR art. 69; LU art. 10, "inscrite séance tenante")."""
    if day != current:
        raise Refusal.SESSION_NOT_TODAY.error(profile, c=dates.day(current), d=dates.day(day))


def check_notice_sent_on(*, profile: str, sent_on: Any, today: Any) -> None:
    """LU art. 26: the day the director says he informed the minister is not after the day the
    notice is recorded (it is recorded when it is sent; an earlier day is kept, and named)."""
    if sent_on > today:
        raise Refusal.NOTICE_IN_FUTURE.error(profile)


def check_ministry_notice(
    *,
    profile: str,
    minimum: Decimal,
    authorised_min: Decimal,
    required: bool,
    day: Any,
    notice_minimum: Decimal | None,
    recorded_on: Any,
) -> None:
    """LU art. 26: a minimum above the authorised one, or raised in the exercise, is told to the
    minister eight days ahead: the séance cites the notice of that minimum, recorded (the
    system's day, not the day declared) eight days at least before its gaming day."""
    if profile != "LU" or not required:
        return
    if recorded_on is None:
        raise Refusal.MINISTRY_NOTICE_MISSING.error(
            profile, m=dates.amount(minimum), a=dates.amount(authorised_min)
        )
    if notice_minimum != minimum:
        raise Refusal.MINISTRY_NOTICE_OTHER_MINIMUM.error(
            profile, n=dates.amount(notice_minimum), m=dates.amount(minimum)
        )
    if (day - recorded_on).days < LU_MINISTRY_NOTICE_DAYS:
        raise Refusal.MINIMUM_RAISE_NOT_NOTIFIED.error(profile, r=dates.day(recorded_on), d=dates.day(day))


def ministry_notice_required(
    *, profile: str, minimum: Decimal, authorised_min: Decimal, year_minimum: Decimal | None
) -> bool:
    """LU art. 26: a séance needs its notice to the minister when its minimum exceeds the
    authorised minimum or raises the minimum of the exercise (the two rules above)."""
    if profile != "LU":
        return False
    return minimum > authorised_min or (year_minimum is not None and minimum > year_minimum)


def check_ministry_notice_reference(*, profile: str, reference: str) -> None:
    """LU art. 26: the notice is an act an inspector asks for: it is recorded with its reference."""
    if reference.strip():
        return
    raise Refusal.MINISTRY_NOTICE_NO_REFERENCE.error(profile)


def check_same_day_reopening(
    *,
    profile: str,
    minimum: Decimal,
    maximum: Decimal,
    advance: Decimal,
    same_day_minimum: Decimal | None,
    same_day_maximum: Decimal | None,
    same_day_advance: Decimal | None,
) -> None:
    """FR art. 53 (by art. 55-5): the minimum changes during the day only by closing the table and
    reopening it with the new minimum, the advance and the maximum in proportion; a new advance
    is then written in the book. (LU art. 26 forbids the change: see
    :func:`check_minimum_against_history`.)"""
    if profile != "FR" or same_day_minimum is None or minimum == same_day_minimum:
        return
    ratio = minimum / same_day_minimum
    expected_advance = same_day_advance * ratio if same_day_advance is not None else None
    if expected_advance is not None and advance != expected_advance:
        raise Refusal.ADVANCE_NOT_PROPORTIONAL.error(
            profile,
            o=dates.amount(same_day_minimum),
            m=dates.amount(minimum),
            e=dates.amount(expected_advance),
        )
    expected_max = same_day_maximum * ratio if same_day_maximum is not None else None
    if expected_max is not None and maximum != expected_max:
        raise Refusal.MAXIMUM_NOT_PROPORTIONAL.error(
            profile, o=dates.amount(same_day_minimum), m=dates.amount(minimum), e=dates.amount(expected_max)
        )


def check_season_maximum(
    *,
    profile: str,
    minimum: Decimal,
    maximum: Decimal,
    season_minimum: Decimal | None,
    season_maximum: Decimal | None,
) -> None:
    """LU art. 33: the maximum is fixed at the start of the season and does not change during it
    (when the minimum is raised, LU art. 26 raises it in proportion)."""
    if profile != "LU" or season_minimum is None or season_maximum is None:
        return
    expected = season_maximum * minimum / season_minimum
    if maximum != expected:
        raise Refusal.MAXIMUM_FIXED_FOR_SEASON.error(profile, e=dates.amount(expected))


def check_maximum_may_change(profile: str) -> None:
    """LU art. 33: the maximum is fixed for the season and never changes (FR art. 55-5: it may)."""
    if profile == "LU":
        raise Refusal.MAXIMUM_FIXED_FOR_SEASON.error(
            profile,
            message=_(
                "Le maximum est fixé en début de saison et ne peut plus être modifié en cours de saison."
            ),
        )


def check_display_changed(display_changed: bool, profile: str) -> None:
    """FR art. 55-5: the maximum changes during the séance only if the table's display shows it."""
    if not display_changed:
        raise Refusal.DISPLAY_NOT_CHANGED.error(profile)


def refuse_minimum_change(profile: str) -> NoReturn:
    """Always refused: FR art. 53, the minimum changes only by closing the table and reopening it
    with a new advance; LU art. 26, the minimum of a table does not change within a day."""
    if profile == "FR":
        message = _(
            "Le minimum ne change pas en cours de séance : clôturez la table et rouvrez-la avec une "
            "nouvelle avance inscrite au carnet."
        )
    else:
        message = _("Le minimum d'une table ne peut être modifié au cours d'une même journée.")
    raise Refusal.MINIMUM_FIXED_IN_SESSION.error(profile, message=message)


def check_delegation(
    *,
    is_committee: bool,
    approval_reference: str,
    approved_on: dt.date,
    valid_from: dt.date,
    valid_until: dt.date | None,
    article: str,
) -> None:
    """The director's delegate for the direction of play is a committee member (``is_committee``)
    approved by the minister (its reference), from the approval on (LU art. 51 V)."""
    if not is_committee:
        raise Refusal.DELEGATE_NOT_COMMITTEE.error(article=article)
    if not (approval_reference or "").strip():
        raise Refusal.DELEGATION_APPROVAL.error(article=article)
    if valid_until is not None and valid_until < valid_from:
        raise Refusal.DELEGATION_DATES.error(
            article=article, field="valid_until", message=_("La fin de la délégation précède son début.")
        )
    if approved_on > valid_from:
        raise Refusal.DELEGATION_DATES.error(article=article, field="valid_from")


def check_authorised_minimum(
    *, minimum: Decimal, decree_reference: str, decree_date: dt.date, in_force_on: dt.date, article: str
) -> None:
    """The authorised minimum of a decree: in tens of cents, with the decree's reference, in force
    on or after its date (FR art. 55-5; LU art. 26, 33)."""
    if minimum % Decimal("0.10"):
        raise Refusal.AUTHORISED_MINIMUM_INVALID.error(article=article, field="minimum")
    if not (decree_reference or "").strip():
        raise Refusal.DECREE_REFERENCE.error(article=article)
    if in_force_on < decree_date:
        raise Refusal.DECREE_DATES.error(article=article)


def check_not_stamped(stamped_at: dt.datetime | None, article: str) -> None:
    """An officer stamps the act once."""
    if stamped_at is not None:
        raise Refusal.ALREADY_STAMPED_LIMITS_AUTHORISED_MINIMUM.error(article=article)
