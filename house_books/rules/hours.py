"""The checks of the séance hours and of a séance stopped early (LU art. 11, 71; under FR,
the casino's internal rules): pure, no query."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from casino_ops import dates
from casino_ops.refusals import Refusal

from ..models import EarlyStopReason

NOTICE = dt.timedelta(hours=24)


def time(value: Any, field: str, article: str) -> dt.time:
    if not isinstance(value, dt.time):
        raise Refusal.FIELD_INVALID_HOUSE_HOURS.error(article=article, field=field)
    return value


def moment(value: Any, field: str, article: str) -> dt.datetime:
    if not isinstance(value, dt.datetime) or timezone.is_naive(value):
        raise Refusal.FIELD_INVALID_HOUSE_BANK.error(article=article, field=field)
    return value


def check_notice_moments(
    notified_at: dt.datetime,
    effective_from: dt.datetime,
    now: dt.datetime,
    article: str,
    *,
    clock_now: dt.datetime,
) -> None:
    """Written when the notice is given: never back-dated to make a change look notified in
    time, nor taking effect before it is written (hours already past cannot be changed).
    ``now`` is the acts' clock, ``clock_now`` the time zone's clock (the two differ only while
    the demo writes its past days)."""
    if notified_at > clock_now:
        raise Refusal.DATE_IN_FUTURE_HOUSE_HOURS.error(article=article)
    if timezone.localtime(notified_at).date() < timezone.localtime(now).date():
        raise Refusal.HOURS_NOTICE_BACKDATED.error(article=article, at=dates.day(notified_at))
    if effective_from < now:
        raise Refusal.HOURS_BACKDATED.error(article=article, at=dates.moment(effective_from))


def check_notice_period(
    notified_at: dt.datetime, effective_from: dt.datetime, earlier: bool, article: str
) -> None:
    """A change (``earlier``: hours already notified) is notified at least 24 hours ahead."""
    if effective_from < notified_at or (earlier and effective_from - notified_at < NOTICE):
        raise Refusal.HOURS_NOTICE_TOO_SHORT.error(article=article, at=dates.moment(notified_at))


def check_not_empty(weekday_start: dt.time, holiday_start: dt.time, closing: dt.time, article: str) -> None:
    if closing in (weekday_start, holiday_start):
        raise Refusal.HOURS_EMPTY.error(article=article)


def check_stop_reason(reason: str, article: str) -> None:
    if reason not in EarlyStopReason.values:
        raise Refusal.EARLY_STOP_REASON.error(article=article)


def check_session_open(session: Any, article: str) -> None:
    if session is None:
        raise Refusal.SESSION_ALREADY_CLOSED.error(article=article)


def check_stop_time(
    stopped_at: dt.datetime, opened_at: dt.datetime, article: str, *, now: dt.datetime
) -> None:
    if stopped_at > now or stopped_at < opened_at:
        raise Refusal.EARLY_STOP_TIME.error(article=article)


def check_bank_failure(bank_failed: bool, bank_article: str) -> None:
    """A stop for the bank's failure follows a failure recorded in the séance (LU art. 11)."""
    if not bank_failed:
        raise Refusal.EARLY_STOP_NO_BANK_FAILURE.error(article=bank_article)


def check_not_stopped(recorded: bool, article: str) -> None:
    if recorded:
        raise Refusal.EARLY_STOP_RECORDED.error(article=article)


def check_early(stopped_at: dt.datetime, closing_at: dt.datetime | None, article: str) -> None:
    """``closing_at``: the end of the séance's window under the hours in force, if any."""
    if closing_at is not None and stopped_at >= closing_at:
        raise Refusal.EARLY_STOP_NOT_EARLY.error(article=article)
