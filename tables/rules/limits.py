"""Stake limits, the gaming day, reopenings and the season's maximum (FR art. 53, 55-5, 69; LU art. 15, 23, 26, 33)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from casino_ops import dates
from casino_ops.regulations import RegulationError, cite

MAXIMUM_MULTIPLES = (50, 100, 200)


FR_ADVANCE_MULTIPLE = 3000


LU_MINISTRY_NOTICE_DAYS = 8


# the books' amounts: 14 digits, 2 of them decimals
AMOUNT_INTEGER_DIGITS = 12


def check_amount(value: Decimal, field: str, rule: str, profile: str, *, allow_zero: bool = False) -> None:
    """An amount is a Decimal with at most two decimals and twelve digits before the point,
    positive (or zero where allowed)."""
    if not isinstance(value, Decimal) or not value.is_finite():
        raise RegulationError("AMOUNT_INVALID", _("Montant invalide."), cite(rule, profile), field=field)
    if value.as_tuple().exponent < -2:  # type: ignore[operator]
        raise RegulationError(
            "AMOUNT_INVALID",
            _("Un montant a au plus deux décimales (reçu : %(v)s).") % {"v": value},
            cite(rule, profile),
            field=field,
        )
    if value.adjusted() >= AMOUNT_INTEGER_DIGITS:
        raise RegulationError(
            "AMOUNT_INVALID",
            _("Un montant a au plus %(n)s chiffres avant la virgule (reçu : %(v)s).")
            % {"n": AMOUNT_INTEGER_DIGITS, "v": value},
            cite(rule, profile),
            field=field,
        )
    if value < 0 or (value == 0 and not allow_zero):
        raise RegulationError(
            "AMOUNT_INVALID",
            _("Le montant doit être positif (reçu : %(v)s).") % {"v": value},
            cite(rule, profile),
            field=field,
        )


def check_limits(minimum: Decimal, maximum: Decimal, authorised_min: Decimal, profile: str) -> None:
    """Minimum at least the authorised one; maximum 50, 100 or 200 times it (FR art. 55-5, LU art. 33)."""
    check_amount(minimum, "minimum", "limits.minimum_maximum", profile)
    check_amount(maximum, "maximum", "limits.minimum_maximum", profile)
    if minimum < authorised_min:
        raise RegulationError(
            "MINIMUM_BELOW_AUTHORISED",
            _("Le minimum de la table (%(m)s) est inférieur au minimum autorisé du casino (%(a)s).")
            % {"m": dates.amount(minimum), "a": dates.amount(authorised_min)},
            cite("limits.minimum_maximum", profile),
            field="minimum",
        )
    check_maximum_multiple(minimum, maximum, profile)


def check_maximum_multiple(minimum: Decimal, maximum: Decimal, profile: str) -> None:
    if maximum not in {minimum * k for k in MAXIMUM_MULTIPLES}:
        raise RegulationError(
            "MAXIMUM_NOT_MULTIPLE",
            _(
                "Le maximum par case doit être 50, 100 ou 200 fois le minimum (%(a)s, %(b)s ou %(c)s) ; reçu %(m)s."
            )
            % {
                "a": dates.amount(minimum * 50),
                "b": dates.amount(minimum * 100),
                "c": dates.amount(minimum * 200),
                "m": dates.amount(maximum),
            },
            cite("limits.minimum_maximum", profile),
            field="maximum",
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
        raise RegulationError(
            "MINIMUM_CHANGED_WITHIN_DAY",
            _("Le minimum d'une table ne change pas au cours d'une même journée (%(p)s ce jour-là).")
            % {"p": dates.amount(same_day_minimum)},
            cite("limits.minimum_change", profile),
            field="minimum",
        )
    if year_minimum is not None and minimum < year_minimum:
        raise RegulationError(
            "MINIMUM_LOWERED",
            _("Le minimum, relevé à %(p)s pendant l'exercice, ne peut être ramené plus bas avant sa fin.")
            % {"p": dates.amount(year_minimum)},
            cite("limits.minimum_change", profile),
            field="minimum",
        )


def check_gaming_day(*, profile: str, day: Any, current: Any) -> None:
    """A session opens only for the current gaming day: its advance is written at once, never
    for another day (FR art. 69; LU art. 10, "inscrite séance tenante")."""
    if day != current:
        raise RegulationError(
            "SESSION_NOT_TODAY",
            _("Une séance s'ouvre pour la journée de jeu en cours (%(c)s), pas pour le %(d)s.")
            % {"c": dates.day(current), "d": dates.day(day)},
            cite("advance.gaming_day", profile),
            field="day",
        )


def check_notice_sent_on(*, profile: str, sent_on: Any, today: Any) -> None:
    """LU art. 26: the day the director says he informed the minister is not after the day the
    notice is recorded (it is recorded when it is sent; an earlier day is kept, and named)."""
    if sent_on > today:
        raise RegulationError(
            "NOTICE_IN_FUTURE",
            _("La date d'information du ministre ne peut pas être postérieure à aujourd'hui."),
            cite("limits.ministry_notice", profile),
            field="sent_on",
        )


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
        raise RegulationError(
            "MINISTRY_NOTICE_MISSING",
            _(
                "Un minimum (%(m)s) supérieur au minimum autorisé (%(a)s) ou relevé dans l'exercice est "
                "notifié au ministre huit jours à l'avance : citez l'information inscrite au livre des "
                "informations du ministre."
            )
            % {"m": dates.amount(minimum), "a": dates.amount(authorised_min)},
            cite("limits.ministry_notice", profile),
            field="ministry_notice",
        )
    if notice_minimum != minimum:
        raise RegulationError(
            "MINISTRY_NOTICE_OTHER_MINIMUM",
            _("L'information citée annonce un minimum de %(n)s, non celui de la séance (%(m)s).")
            % {"n": dates.amount(notice_minimum), "m": dates.amount(minimum)},
            cite("limits.ministry_notice", profile),
            field="ministry_notice",
        )
    if (day - recorded_on).days < LU_MINISTRY_NOTICE_DAYS:
        raise RegulationError(
            "MINIMUM_RAISE_NOT_NOTIFIED",
            _(
                "L'information du ministre citée a été inscrite le %(r)s, moins de huit jours avant la "
                "journée du %(d)s : un minimum relevé est notifié huit jours à l'avance."
            )
            % {"r": dates.day(recorded_on), "d": dates.day(day)},
            cite("limits.ministry_notice", profile),
            field="ministry_notice",
        )


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
    raise RegulationError(
        "MINISTRY_NOTICE_NO_REFERENCE",
        _("La référence de l'information du ministre (courrier, accusé de réception) est requise."),
        cite("limits.ministry_notice", profile),
        field="reference",
    )


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
        raise RegulationError(
            "ADVANCE_NOT_PROPORTIONAL",
            _("Le minimum passe de %(o)s à %(m)s dans la journée : l'avance suit en proportion, soit %(e)s.")
            % {
                "o": dates.amount(same_day_minimum),
                "m": dates.amount(minimum),
                "e": dates.amount(expected_advance),
            },
            cite("limits.minimum_change", profile),
            field="advance_amount",
        )
    expected_max = same_day_maximum * ratio if same_day_maximum is not None else None
    if expected_max is not None and maximum != expected_max:
        raise RegulationError(
            "MAXIMUM_NOT_PROPORTIONAL",
            _(
                "Le minimum passe de %(o)s à %(m)s dans la journée : le maximum suit en proportion, "
                "soit %(e)s."
            )
            % {
                "o": dates.amount(same_day_minimum),
                "m": dates.amount(minimum),
                "e": dates.amount(expected_max),
            },
            cite("limits.minimum_change", profile),
            field="maximum",
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
        raise RegulationError(
            "MAXIMUM_FIXED_FOR_SEASON",
            _("Le maximum de cette table est fixé pour la saison : %(e)s.") % {"e": dates.amount(expected)},
            cite("limits.maximum_change", profile),
            field="maximum",
        )
