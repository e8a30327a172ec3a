"""The casino's settings and house rules (règlement intérieur): the director's act.

The row and its rules live in casino_ops, which imports no app; the act records itself
in the chain, so it stands here, above the record, with the house's other books.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.forms.models import model_to_dict
from django.utils import timezone

import audit
from audit.actions import Action
from audit.models import AuditEvent
from cards_registry import selectors as depot
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.models import BEGINNING, CalendarRule, CasinoSettings
from casino_ops.rules import check_casino_settings
from casino_ops.services import CALENDAR_FIELDS, EDITABLE_FIELDS
from tables import selectors as tables

from ..rules import casino as rules


@declare_act(act=Act.CASINO_SETTINGS, action=Action.CASINO_SETTINGS_CHANGED, article="casino.profile")
@transaction.atomic
def update_casino_settings(*, actor: User, **changes: Any) -> CasinoSettings:
    """Change the casino's settings: the director only."""
    # the gaming day's and the exercise's settings left empty in a form keep their value
    changes = {
        key: value
        for key, value in changes.items()
        if not (
            key in ("gaming_day_rollover", "exercise_start_month", "exercise_start_day") and value is None
        )
    }
    unknown = set(changes) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValueError(f"unknown casino settings: {sorted(unknown)}")
    casino = CasinoSettings.objects.select_for_update().filter(pk=1).first() or CasinoSettings(pk=1)
    before = model_to_dict(casino, fields=EDITABLE_FIELDS)
    after = {**before, **changes}
    check_casino_settings(after)
    rules.check_profile_fixed(before, after, books_opened())
    rules.check_authorised_minimum(
        before, after, bool(casino.pk and CasinoSettings.objects.filter(pk=casino.pk).exists())
    )
    calendar_changed = any(str(before.get(key)) != str(after[key]) for key in CALENDAR_FIELDS)
    rule = None
    if calendar_changed and casino.pk and CasinoSettings.objects.filter(pk=casino.pk).exists():
        rules.check_rollover_change(
            casino.calendar_rules()[-1].gaming_day_rollover, after["gaming_day_rollover"], after["profile"]
        )
        rule = _calendar_change(casino, after)
    for key, value in changes.items():
        setattr(casino, key, value)
    casino.full_clean()
    casino.save()
    casino.forget_calendar()
    changed = {
        key: {"before": before.get(key), "after": after[key]}
        for key in EDITABLE_FIELDS
        if str(before.get(key)) != str(after[key])
    }
    payload: dict[str, Any] = {"changed": changed, "settings": after}
    if rule is not None:
        payload["calendar"] = {
            "effective_from": rule.effective_from.isoformat(),
            "exercise_from": rule.exercise_from.isoformat(),
        }
    audit.record(actor=actor, action=Action.CASINO_SETTINGS_CHANGED, obj=casino, payload=payload)
    return casino


#: The acts that open no book: the casino's settings themselves, who may act, the record's own.
_BEFORE_THE_BOOKS = (
    Action.CASINO_SETTINGS_CHANGED,
    Action.HOUSE_ROLE_GRANTED,
    Action.HOUSE_ROLE_WITHDRAWN,
    Action.HOUSE_PERSON_RENAMED,
    Action.HOUSE_SUPERUSER_CREATED,
    Action.INSPECTION_RUN,
)


def books_opened() -> bool:
    """The casino has recorded an act in its books (any but its settings and its roles)."""
    return AuditEvent.objects.exclude(action__in=[a.value for a in _BEFORE_THE_BOOKS]).exists()


def _last_opened_day(casino: CasinoSettings, now: dt.datetime) -> dt.date:
    """The last gaming day already opened: today's, or a later one a book already names."""
    named = [tables.last_day_named(), depot.last_issue_day()]
    return max([casino.gaming_day(now), *(d for d in named if d is not None)])


def _calendar_change(casino: CasinoSettings, after: dict[str, Any]) -> CalendarRule:
    """The rule a change of the roll-over or of the exercise's start writes (FR art. 42, 49; LU
    art. 9, 26): the new roll-over governs from the first gaming day not yet opened (one whose
    start, under the new hour, is still ahead), the new exercise's start from the next
    exercise; the days and the exercise already opened keep theirs."""
    now = timezone.now()
    if not CalendarRule.objects.exists():  # the rule every day so far was opened under
        CalendarRule.objects.create(
            effective_from=BEGINNING,
            exercise_from=BEGINNING,
            gaming_day_rollover=casino.gaming_day_rollover,
            exercise_start_month=casino.exercise_start_month,
            exercise_start_day=casino.exercise_start_day,
            recorded_at=now,
        )
        casino.forget_calendar()
    effective = _last_opened_day(casino, now) + dt.timedelta(days=1)
    while timezone.make_aware(dt.datetime.combine(effective, after["gaming_day_rollover"])) <= now:
        effective += dt.timedelta(days=1)
    exercise_from = casino.calendar_rules()[-1].exercise_from
    if (after["exercise_start_month"], after["exercise_start_day"]) != (
        casino.exercise_start_month,
        casino.exercise_start_day,
    ):
        exercise_from = casino.next_exercise_start(effective - dt.timedelta(days=1))
    return CalendarRule.objects.create(
        effective_from=effective,
        exercise_from=exercise_from,
        gaming_day_rollover=after["gaming_day_rollover"],
        exercise_start_month=after["exercise_start_month"],
        exercise_start_day=after["exercise_start_day"],
        recorded_at=now,
    )
