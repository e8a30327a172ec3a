"""The checks of the tables and the articles they cite.

Stake limits: FR art. 53, 55-5; LU art. 26, 33. Cash advances: FR art. 42, 49,
69; LU art. 9, 10, 21, 22. Interruptions: FR art. 69; LU art. 15, 23. Control
register and corrections: FR art. 68, 72; LU art. 10. Hand logs (parsed and
validated by the engine, compared with their session): FR art. 55-4, 55-5;
LU art. 32, 33.

Pure checks over plain values (the services load what they compare with):
each raises :class:`~casino_ops.regulations.RegulationError` naming the
field and citing the article of the casino's profile.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from decimal import Decimal
from itertools import accumulate
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext as _

from casino_ops.regulations import RegulationError, cite

from .blackjack import Rejected, validate
from .blackjack.rules import HOUSE_RULE_DEFAULTS

MAXIMUM_MULTIPLES = (50, 100, 200)
FR_ADVANCE_MULTIPLE = 3000
LU_MINISTRY_NOTICE_DAYS = 8
# the books' amounts: 14 digits, 2 of them decimals
AMOUNT_INTEGER_DIGITS = 12


def _money(value: Decimal) -> str:
    return f"{value:.2f}"


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
            % {"m": _money(minimum), "a": _money(authorised_min)},
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
                "a": _money(minimum * 50),
                "b": _money(minimum * 100),
                "c": _money(minimum * 200),
                "m": _money(maximum),
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
    day_days_after_notice: int | None,
) -> None:
    """LU art. 26 (by art. 33): the minimum is not changed within a day at a table; once raised in
    the fiscal year it is not lowered before its end; a raise is told to the ministry eight days
    ahead. FR art. 53: the minimum changes only by closing the table and reopening it, which
    is what a new session is, so nothing more is checked here for FR.
    """
    if profile != "LU":
        return
    if same_day_minimum is not None and minimum != same_day_minimum:
        raise RegulationError(
            "MINIMUM_CHANGED_WITHIN_DAY",
            _("Le minimum d'une table ne change pas au cours d'une même journée (%(p)s ce jour-là).")
            % {"p": _money(same_day_minimum)},
            cite("limits.minimum_change", profile),
            field="minimum",
        )
    if year_minimum is not None and minimum < year_minimum:
        raise RegulationError(
            "MINIMUM_LOWERED",
            _("Le minimum, relevé à %(p)s pendant l'exercice, ne peut être ramené plus bas avant sa fin.")
            % {"p": _money(year_minimum)},
            cite("limits.minimum_change", profile),
            field="minimum",
        )
    if year_minimum is not None and minimum > year_minimum:
        if day_days_after_notice is None or day_days_after_notice < LU_MINISTRY_NOTICE_DAYS:
            raise RegulationError(
                "MINIMUM_RAISE_NOT_NOTIFIED",
                _(
                    "Un relèvement du minimum est notifié au ministre huit jours à l'avance (date de notification)."
                ),
                cite("limits.minimum_change", profile),
                field="ministry_notified_on",
            )


def check_gaming_day(*, profile: str, day: Any, current: Any) -> None:
    """A session opens only for the current gaming day: its advance is written at once, never
    for another day (FR art. 69; LU art. 10, "inscrite séance tenante")."""
    if day != current:
        raise RegulationError(
            "SESSION_NOT_TODAY",
            _("Une séance s'ouvre pour la journée de jeu en cours (%(c)s), pas pour le %(d)s.")
            % {"c": current.strftime("%d/%m/%Y"), "d": day.strftime("%d/%m/%Y")},
            cite("advance.gaming_day", profile),
            field="day",
        )


def check_ministry_notice(
    *, profile: str, minimum: Decimal, authorised_min: Decimal, day: Any, notified_on: Any, today: Any
) -> None:
    """LU art. 26: a minimum above the authorised one is told to the minister eight days ahead:
    any séance whose minimum exceeds it (the first of the exercise included) needs the notice."""
    if profile != "LU":
        return
    if notified_on is not None and notified_on > today:
        raise RegulationError(
            "NOTICE_IN_FUTURE",
            _("La date d'information du ministre ne peut pas être postérieure à aujourd'hui."),
            cite("limits.ministry_notice", profile),
            field="ministry_notified_on",
        )
    if minimum <= authorised_min:
        return
    if notified_on is None or (day - notified_on).days < LU_MINISTRY_NOTICE_DAYS:
        raise RegulationError(
            "MINIMUM_RAISE_NOT_NOTIFIED",
            _(
                "Un minimum (%(m)s) supérieur au minimum autorisé (%(a)s) est notifié au ministre "
                "huit jours à l'avance (date de notification)."
            )
            % {"m": _money(minimum), "a": _money(authorised_min)},
            cite("limits.ministry_notice", profile),
            field="ministry_notified_on",
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
            % {"o": _money(same_day_minimum), "m": _money(minimum), "e": _money(expected_advance)},
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
            % {"o": _money(same_day_minimum), "m": _money(minimum), "e": _money(expected_max)},
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
            _("Le maximum de cette table est fixé pour la saison : %(e)s.") % {"e": _money(expected)},
            cite("limits.maximum_change", profile),
            field="maximum",
        )


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
            % {"e": _money(minimum * FR_ADVANCE_MULTIPLE)},
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
            % {"e": _money(same_day_advance)},
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
                    "y": _money(year_advance),
                    "ym": _money(year_minimum),
                    "m": _money(minimum),
                    "e": _money(expected),
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
            % {"f": _money(fund), "a": _money(largest_advance)},
            cite("advance.guarantee_fund", profile),
            field="guarantee_fund",
        )


def check_approval_in_words(approval: str, reason: str, profile: str) -> None:
    """A correction is approved in words by the director and gives its reason (FR art. 68)."""
    if not approval.strip():
        raise RegulationError(
            "APPROVAL_IN_WORDS",
            _("La correction est approuvée en toutes lettres par le directeur."),
            cite("books.no_erasure", profile),
            field="approval",
        )
    if not reason.strip():
        raise RegulationError(
            "CORRECTION_REASON",
            _("Le motif de la correction est requis."),
            cite("books.no_erasure", profile),
            field="reason",
        )


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _rejected_article(field: str, profile: str) -> str:
    if field.startswith("house_rules"):
        return cite("game.house_rules", profile)
    if field.startswith("limits"):
        return cite("game.limits", profile)
    return ""


# The limits of a hand log as received (API, admin, command alike), documented in the README:
# a 5,700-round shoe weighs about 4 MB.
MAX_HAND_LOG_BYTES = 16 * 1024 * 1024
MAX_HAND_LOG_DEPTH = 32
# the strings of a log are stored in fields of these lengths (shoe label, table code, player)
MAX_STRING_LENGTHS = {"shoe_id": 64, "table": 16, "player": 64}
MAX_STRING_LENGTH = 200


def _too_large(size: int) -> RegulationError:
    return RegulationError(
        "HAND_LOG_TOO_LARGE",
        _("Journal refusé : %(n)s octets, au-delà de la limite de %(m)s octets.")
        % {"n": size, "m": MAX_HAND_LOG_BYTES},
        field="document",
    )


def check_hand_log_size(size: int) -> None:
    if size > MAX_HAND_LOG_BYTES:
        raise _too_large(size)


# Fast prefilters on the raw text (C speed); the walk below, which names the path, runs only when
# one of them finds something: an escaped control character or surrogate, a raw DEL, a string of
# more than 64 characters (counted on the text, never fewer than once decoded), or nesting too deep.
_SUSPECT_ESCAPE = re.compile(rb"\\u(?:00[01][0-9a-fA-F]|007[fF]|[dD][89a-fA-F][0-9a-fA-F]{2})")
_LONG_STRING = re.compile(rb'"(?:[^"\\]|\\.){65,}"')
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
# without any backslash in the text, a string is a plain run between two quotes
_LONG_PLAIN = re.compile(rb'"[^"]{65,}"')
_PLAIN_STRING = re.compile(rb'"[^"]*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def _needs_walk(raw: bytes) -> bool:
    if b"\x7f" in raw:
        return True
    if b"\\" in raw:
        if _SUSPECT_ESCAPE.search(raw) or _LONG_STRING.search(raw):
            return True
        stripped = _STRING.sub(b"", raw)
    else:
        if _LONG_PLAIN.search(raw):
            return True
        stripped = _PLAIN_STRING.sub(b"", raw)
    skeleton = stripped.translate(None, _NOT_BRACKETS)
    return max(accumulate(1 if c in b"[{" else -1 for c in skeleton), default=0) > MAX_HAND_LOG_DEPTH


def _check_log_values(doc: Any) -> None:
    """No string with a control character (NUL included), none longer than its field, no nesting
    deeper than :data:`MAX_HAND_LOG_DEPTH`; the error names the path of the value."""
    stack: list[tuple[Any, str, int]] = [(doc, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_HAND_LOG_DEPTH:
            raise RegulationError(
                "HAND_LOG_REJECTED",
                _("Journal refusé : %(f)s : imbrication au-delà de %(n)s niveaux.")
                % {"f": path or "document", "n": MAX_HAND_LOG_DEPTH},
                field=path or "document",
            )
        if isinstance(value, dict):
            for key, item in value.items():
                _check_string(key, f"{path}.{key}" if path else key, "")
                stack.append((item, f"{path}.{key}" if path else key, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str):
            _check_string(value, path, path.rsplit(".", 1)[-1])


def _check_string(value: str, path: str, name: str) -> None:
    if any(ord(c) < 32 or ord(c) == 127 or 0xD800 <= ord(c) <= 0xDFFF for c in value):
        raise RegulationError(
            "HAND_LOG_REJECTED",
            _("Journal refusé : %(f)s : caractère de contrôle (NUL ou autre) interdit.") % {"f": path},
            field=path,
        )
    limit = MAX_STRING_LENGTHS.get(name, MAX_STRING_LENGTH)
    if len(value) > limit:
        raise RegulationError(
            "HAND_LOG_REJECTED",
            _("Journal refusé : %(f)s : %(n)s caractères, au plus %(m)s.")
            % {"f": path, "n": len(value), "m": limit},
            field=path,
        )


def parse_hand_log(raw: bytes, profile: str) -> dict[str, Any]:
    """Parse and validate a log with the engine; a rejection names the field (hand-log.md §1, §6).
    Refused before anything is stored: over :data:`MAX_HAND_LOG_BYTES`, nested deeper than
    :data:`MAX_HAND_LOG_DEPTH`, a control character in a string, a string longer than its field."""
    check_hand_log_size(len(raw))
    try:
        doc = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except RecursionError:
        raise RegulationError(
            "HAND_LOG_REJECTED",
            _("Journal refusé : %(f)s : imbrication au-delà de %(n)s niveaux.")
            % {"f": "document", "n": MAX_HAND_LOG_DEPTH},
            field="document",
        ) from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise RegulationError(
            "HAND_LOG_REJECTED",
            _("Journal refusé : ce n'est pas un document JSON en UTF-8 (%(e)s).") % {"e": exc},
            field="document",
        ) from None
    if isinstance(doc, dict):  # the short top-level strings, checked at once
        for name in ("table", "shoe_id"):
            if isinstance(doc.get(name), str):
                _check_string(doc[name], name, name)
    if _needs_walk(raw):
        _check_log_values(doc)
    try:
        validate(doc)
    except Rejected as rej:
        raise RegulationError(
            "HAND_LOG_REJECTED",
            _("Journal refusé : %(f)s : %(r)s.") % {"f": rej.field, "r": rej.reason},
            _rejected_article(rej.field, profile),
            field=rej.field,
        ) from None
    return doc


def boxes_used(doc: dict[str, Any]) -> set[int]:
    """The boxes a log's rounds use (stakes, insurance, hands, settlements)."""
    used: set[int] = set()
    for rnd in doc.get("rounds", []):
        for key in ("boxes", "insurance", "actions", "settlements"):
            for item in rnd.get(key) or []:
                if isinstance(item, dict) and isinstance(item.get("box"), int):
                    used.add(item["box"])
    return used


def session_differences(
    log: Any, session: Any, maxima: Iterable[Decimal], boxes: Iterable[int] = ()
) -> list[dict[str, Any]]:
    """A log's limits, profile and house rules must be those in force at its session, and its
    boxes those marked on the table's layout; each difference is a discrepancy (FR art. 55-4,
    55-5; LU art. 32, 33)."""
    profile = session.profile
    out: list[dict[str, Any]] = []
    allowed_max = sorted({session.maximum, *maxima})
    if log.limits_min != session.minimum or log.limits_max not in allowed_max:
        out.append(
            {
                "code": "LIMITS_MISMATCH",
                "article": cite("game.limits", profile),
                "detail": {
                    "log": {"min": f"{log.limits_min:.2f}", "max": f"{log.limits_max:.2f}"},
                    "session": {"min": f"{session.minimum:.2f}", "max": [f"{m:.2f}" for m in allowed_max]},
                },
            }
        )
    if log.profile != profile:
        out.append(
            {
                "code": "PROFILE_MISMATCH",
                "article": cite("game.play", profile),
                "detail": {"log": log.profile, "session": profile},
            }
        )
    differing = {
        key: {"log": log.house_rules.get(key, default), "session": session.house_rules.get(key, default)}
        for key, default in HOUSE_RULE_DEFAULTS.items()
        if log.house_rules.get(key, default) != session.house_rules.get(key, default)
    }
    if differing:
        out.append(
            {
                "code": "HOUSE_RULES_MISMATCH",
                "article": cite("game.house_rules", profile),
                "detail": differing,
            }
        )
    if getattr(log, "shoe_id", None) is None:
        # the log names a shoe the session never filled: its cards come from no recorded decks
        out.append(
            {
                "code": "SHOE_UNKNOWN",
                "article": cite("depot.issue_and_unseal", profile),
                "detail": {"shoe_id": log.shoe_label, "session": session.pk},
            }
        )
    layout = session.table.boxes
    outside = sorted(b for b in set(boxes) if not 1 <= b <= layout)
    if outside:
        out.append(
            {
                "code": "BOX_NOT_ON_LAYOUT",
                "article": cite("table.layout", profile),
                "detail": {"boxes": outside, "layout": layout},
            }
        )
    return out


def validated(
    instance: Any, article: str = "", *, fields: Iterable[str] | None = None, unique: bool = False
) -> Any:
    """``full_clean()`` before a save, so that no IntegrityError or DataError reaches a user: a
    Django ValidationError becomes a RegulationError ``FIELD_INVALID`` naming the field.

    ``fields`` limits the check to the fields an ``update_fields`` save writes; ``unique`` also
    checks the unique fields and constraints (one query each; acts that number their rows under
    a lock leave it off). Links set from loaded rows are not re-read; an empty JSON object is a
    value, not a blank.
    """
    exclude = set()
    for field in instance._meta.concrete_fields:
        value = getattr(instance, field.attname)
        if fields is not None and field.name not in fields:
            exclude.add(field.name)
        elif (field.is_relation and value is not None) or value == {}:
            exclude.add(field.name)
    try:
        instance.full_clean(exclude=exclude, validate_unique=unique, validate_constraints=unique)
    except ValidationError as exc:
        name, errors = next(iter(exc.message_dict.items()))
        meta = instance._meta
        label = str(meta.verbose_name if name == NON_FIELD_ERRORS else meta.get_field(name).verbose_name)
        raise RegulationError(
            "FIELD_INVALID",
            _("Champ « %(field)s » : %(error)s") % {"field": label, "error": " ".join(errors)},
            article,
            field=None if name == NON_FIELD_ERRORS else name,
        ) from None
    return instance
