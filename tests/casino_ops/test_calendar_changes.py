"""Changing the gaming day's roll-over or the exercise's start (FR art. 42, 49; LU art. 9, 26)
is the director's audited act, and it governs only the days not yet opened: no séance, maximum
or advance already written moves to another gaming day or exercise."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from audit.models import AuditEvent
from casino_ops import roles
from casino_ops.models import CalendarRule, CasinoSettings
from casino_ops.services import get_casino
from house_books.services.casino import update_casino_settings
from tables.models import AdvanceEntry, Session
from tables.services import create_table
from tests.support import builders

pytestmark = pytest.mark.django_db

#: 01:30 in Paris on 2 December 2026: still the gaming day of 1 December (roll-over 06:00).
NIGHT = dt.datetime(2026, 12, 2, 0, 30, tzinfo=dt.UTC)
EVENING = dt.date(2026, 12, 1)


def _moved(casino: CasinoSettings) -> list[str]:
    """Every séance or advance that the casino's calendar now puts on another day or exercise."""
    moved = []
    for session in Session.objects.all():
        if casino.gaming_day(session.opened_at) != session.day:
            moved.append(f"séance {session.pk} day")
        if casino.exercise_of(session.day) != session.fiscal_year:
            moved.append(f"séance {session.pk} exercise")
    for advance in AdvanceEntry.objects.select_related("session"):
        if casino.gaming_day(advance.at) != advance.session.day:
            moved.append(f"advance {advance.pk}")
    return moved


@pytest.fixture
def night_seance(users: dict[str, Any], casino: Any) -> Any:
    with time_machine.travel(NIGHT, tick=False):
        table = create_table(actor=users[roles.DIRECTOR], number=3, code="BJ03")
        session = builders.open_session(
            table, director=users[roles.DIRECTOR], croupier=users[roles.CROUPIER], day=builders.gaming_day()
        )
    return session


def test_an_earlier_roll_over_moves_no_seance_and_governs_the_next_day(users, night_seance):
    assert night_seance.day == EVENING
    with time_machine.travel(NIGHT + dt.timedelta(minutes=5), tick=False):
        update_casino_settings(actor=users[roles.DIRECTOR], gaming_day_rollover=dt.time(1, 0))
        casino = get_casino()
        assert casino.gaming_day(timezone.now()) == EVENING  # the evening still runs
        assert _moved(casino) == []
    # 2 December would have begun at 01:00, already past: the new hour governs from the 3rd
    rule = CalendarRule.objects.latest("pk")
    assert rule.effective_from == EVENING + dt.timedelta(days=2)
    next_night = timezone.make_aware(dt.datetime.combine(EVENING + dt.timedelta(days=2), dt.time(1, 30)))
    assert casino.gaming_day(next_night) == EVENING + dt.timedelta(days=2)  # the new hour, from then on
    event = AuditEvent.objects.filter(action="casino.settings_changed").latest("id")
    assert event.actor == users[roles.DIRECTOR]
    assert '"effective_from":"2026-12-03"' in event.payload.replace(" ", "")


def test_a_later_roll_over_is_refused_a_day_never_lasts_over_24_hours(users, night_seance):
    # 23:00 on 1 December: a roll-over moved from 06:00 to 23:30 would make the day before the
    # new hour governs last from 06:00 to 23:30 the next day, 41 h 30 (FR art. 69, LU art. 10)
    evening = timezone.make_aware(dt.datetime.combine(EVENING, dt.time(23, 0)))
    with time_machine.travel(evening, tick=False):
        with builders.assert_refused(
            "GAMING_DAY_OVER_24_HOURS",
            article="FR art. 69",
            field="gaming_day_rollover",
            nothing_recorded=True,
        ) as refusal:
            update_casino_settings(actor=users[roles.DIRECTOR], gaming_day_rollover=dt.time(23, 30))
        assert "41 h 30" in refusal.value.message
    assert not CalendarRule.objects.filter(gaming_day_rollover=dt.time(23, 30)).exists()
    assert _moved(get_casino()) == []


def test_a_new_exercise_start_waits_for_the_next_exercise(users, casino):
    director = users[roles.DIRECTOR]
    table = create_table(actor=director, number=3, code="BJ03")
    february = dt.date(2026, 2, 10)
    with builders.at_day(february), time_machine.travel(dt.datetime(2026, 2, 10, 13, tzinfo=dt.UTC)):
        session = builders.open_session(
            table, director=director, croupier=users[roles.CROUPIER], day=february
        )
    assert session.fiscal_year == 2026
    with time_machine.travel(dt.datetime(2026, 12, 3, 12, tzinfo=dt.UTC), tick=False):
        update_casino_settings(actor=director, exercise_start_month=4, exercise_start_day=1)
    casino = get_casino()
    assert _moved(casino) == []
    assert casino.exercise_of(dt.date(2026, 12, 20)) == 2026  # the running exercise is kept
    rule = CalendarRule.objects.latest("pk")
    assert rule.exercise_from == dt.date(2027, 1, 1)
    # 1 January 2027 opens the next exercise as planned; the new start (1 April) falls in the
    # same year, so exercise 2027 runs to 31 March 2028, then 2028 starts on 1 April 2028.
    assert casino.exercise_of(dt.date(2027, 1, 1)) == 2027
    assert casino.exercise_start(dt.date(2027, 6, 1)) == dt.date(2027, 1, 1)
    assert casino.exercise_of(dt.date(2028, 3, 31)) == 2027
    assert casino.exercise_start(dt.date(2028, 4, 1)) == dt.date(2028, 4, 1)


def test_the_admin_change_goes_through_the_act_and_moves_nothing(client, users, night_seance):
    director = users[roles.DIRECTOR]
    client.force_login(director)
    casino = get_casino()
    data = {
        "name": casino.name,
        "profile": casino.profile,
        "authorised_min_stake": "5.00",
        "authorisation_reference": "",
        "double_after_split": "on",
        "gaming_day_rollover": "01:00",
        "exercise_start_month": "1",
        "exercise_start_day": "1",
    }
    with time_machine.travel(NIGHT + dt.timedelta(minutes=5), tick=False):
        response = client.post(f"/admin/casino_ops/casinosettings/{casino.pk}/change/", data, follow=True)
        assert response.redirect_chain, response.content.decode()[:2000]
        assert "à partir de la journée du 03/12/2026" in response.content.decode()
        assert get_casino().gaming_day(timezone.now()) == EVENING
    assert _moved(get_casino()) == []
    assert CalendarRule.objects.latest("pk").effective_from == EVENING + dt.timedelta(days=2)
    assert AuditEvent.objects.filter(action="casino.settings_changed", actor=director).count() == 2


def test_only_the_director_changes_the_calendar(users, casino):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        update_casino_settings(actor=users[roles.COMMITTEE], gaming_day_rollover=dt.time(2, 0))
    assert not CalendarRule.objects.exists()
