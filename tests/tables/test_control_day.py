"""The control register's day (FR art. 72): closed only once it has ended, never a day to come
nor a day before the casino opened; stamped by the officer (an audited act); and the
self-inspection names the days never closed and the closed days left unstamped."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from audit.actions import Action
from audit.models import AuditEvent
from casino_ops.checks import inspect
from tables import services
from tables.models import ControlDay
from tests.support import builders
from tests.support.builders import (
    assert_refused,
    close_even,
    gaming_day,
)
from tests.support.self_inspection import breaches_of

from .conftest import DAY, at_day

D = Decimal


def _breaches(name, day=None):
    return breaches_of(name, day)


@pytest.mark.django_db
def test_a_day_is_closed_only_once_it_has_ended(staff, open_session):
    close_even(staff, open_session)
    director = staff["director"]
    # the evening of the day itself: the day is not over
    with (
        at_day(DAY, 23),
        assert_refused("DAY_NOT_ENDED", article="FR art. 72", field="day", nothing_recorded=True),
    ):
        services.close_day(actor=director, day=DAY)
    # tomorrow, and any day to come
    with assert_refused("DAY_NOT_ENDED", article="FR art. 72", field="day", nothing_recorded=True):
        services.close_day(actor=director, day=gaming_day() + dt.timedelta(days=1))
    with assert_refused("DAY_NOT_ENDED", field="day"):
        services.close_day(actor=director, day=timezone.localdate() + dt.timedelta(days=30))
    assert not ControlDay.objects.get(day=DAY).is_closed
    # after midnight the gaming day is still the evening's, and it has ended
    with at_day(DAY + dt.timedelta(days=1), 1):
        closed = services.close_day(actor=director, day=DAY)
    assert closed.is_closed and closed.day == DAY


@pytest.mark.django_db
def test_no_day_before_the_casino_opened(staff, casino, settings):
    settings.CASINO_OPENED_ON = "2026-01-01"
    with assert_refused("DAY_BEFORE_OPENING", article="FR art. 72", field="day", nothing_recorded=True):
        services.close_day(actor=staff["director"], day=dt.date(2025, 12, 31))
    assert not ControlDay.objects.exists()


@pytest.mark.django_db
def test_the_current_day_is_not_closed_from_the_admin(client, staff, table):
    # in the afternoon of the day's date: the day has not ended (from midnight it has, by design)
    afternoon = timezone.make_aware(dt.datetime.combine(timezone.localdate(), dt.time(15, 0)))
    with time_machine.travel(max(afternoon, timezone.now()), tick=False):
        _the_current_day_is_not_closed(client, staff, table)


def _the_current_day_is_not_closed(client, staff, table):
    session = builders.open_session(
        table, director=staff["director"], croupier=staff["croupier"], day=gaming_day()
    )
    services.close_session(
        actor=staff["director"],
        session=session,
        closing_cash=session.advances_total,
        counted_by=staff["croupier"],
        certified_exact=True,
    )
    control_day = ControlDay.objects.get(day=gaming_day())
    client.force_login(staff["director"])
    page = client.post(
        "/admin/tables/controlday/",
        {"action": "close_days", "_selected_action": [control_day.pk]},
        follow=True,
    ).content.decode()
    assert "FR art. 72" in page
    control_day.refresh_from_db()
    assert not control_day.is_closed


@pytest.mark.django_db
def test_the_officer_stamps_a_closed_day(staff, open_session):
    close_even(staff, open_session)
    control_day = ControlDay.objects.get(day=DAY)
    with assert_refused("DAY_NOT_CLOSED", article="FR art. 72", field="control_day", nothing_recorded=True):
        services.stamp_control_day(actor=staff["officer"], control_day=control_day)
    services.close_day(actor=staff["director"], day=DAY)
    with assert_refused("OFFICER_REQUIRED", nothing_recorded=True):
        services.stamp_control_day(actor=staff["director"], control_day=control_day)
    stamped = services.stamp_control_day(actor=staff["officer"], control_day=control_day, remark=" vu ")
    assert stamped.stamped_by == staff["officer"] and stamped.stamp_remark == "vu" and stamped.is_stamped
    event = AuditEvent.objects.get(action=Action.CONTROL_REGISTER_DAY_STAMPED)
    assert event.object_id == str(control_day.pk)
    with assert_refused("ALREADY_STAMPED", article="FR art. 72", nothing_recorded=True):
        services.stamp_control_day(actor=staff["officer"], control_day=control_day)


@pytest.mark.django_db
def test_days_never_closed_and_closed_days_not_stamped_are_named(staff, open_session, settings):
    assert {"tables.day_not_closed", "tables.day_not_stamped"} <= set(inspect().checks)
    # a séance of a day over, its day never closed
    [breach] = _breaches("tables.day_not_closed")
    assert breach.article == "FR art. 72" and "30/11/2026" in breach.object
    assert breach.url == "/inspection/registre-de-controle/?day=2026-11-30"
    assert _breaches("tables.day_not_closed", DAY)
    close_even(staff, open_session)
    assert _breaches("tables.day_not_closed")  # closed séances, the day still open
    services.close_day(actor=staff["director"], day=DAY)
    assert not _breaches("tables.day_not_closed")
    # closed just now: the officer has CONTROL_REGISTER_STAMP_DAYS days to stamp it
    assert not _breaches("tables.day_not_stamped")
    settings.CONTROL_REGISTER_STAMP_DAYS = 0
    [late] = _breaches("tables.day_not_stamped")
    assert late.article == "FR art. 72" and "30/11/2026" in late.object and "0" in late.detail
    services.stamp_control_day(actor=staff["officer"], control_day=ControlDay.objects.get(day=DAY))
    assert not _breaches("tables.day_not_stamped")


@pytest.mark.django_db
def test_a_day_closed_a_week_ago_and_never_stamped(staff, open_session):
    close_even(staff, open_session)
    with at_day(DAY + dt.timedelta(days=1), 1):
        services.close_day(actor=staff["director"], day=DAY)
    # closed on 01/12 at 01:00 in the books; the record's closing moment is what counts
    ControlDay.objects.filter(day=DAY).update(closed_at=timezone.now() - dt.timedelta(days=8))
    [late] = _breaches("tables.day_not_stamped")
    assert "7" in late.detail


@pytest.mark.django_db
def test_the_officer_stamps_the_day_from_the_portal(staff, open_session):
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from tests.support.clients import signed_in

    close_even(staff, open_session)
    services.close_day(actor=staff["director"], day=DAY)
    control_day = ControlDay.objects.get(day=DAY)
    officer = signed_in(
        staff["officer"], TOTPDevice.objects.create(user=staff["officer"], name="app", confirmed=True)
    )
    url = f"/inspection/visas/registre-de-controle/{control_day.pk}/"
    page = officer.get("/inspection/visas/").content.decode()
    assert url in page and "30/11/2026" in page
    assert "Registre de contr" in officer.get("/inspection/").content.decode()
    director = signed_in(staff["director"])
    # the portal is the officers': to anyone else its pages do not exist
    assert director.post(url, {"remark": ""}).status_code == 404
    control_day.refresh_from_db()
    assert not control_day.is_stamped
    response = officer.post(url, {"remark": "vu au registre", "next": "/inspection/visas/"})
    assert response.status_code == 302
    control_day.refresh_from_db()
    assert control_day.stamped_by == staff["officer"] and control_day.stamp_remark == "vu au registre"
    assert url not in officer.get("/inspection/visas/").content.decode()


def _closing_rules(client, control_day):
    """The day's page: each closing rule with its state (respectée / non respectée)."""
    import re

    page = client.get(f"/admin/tables/controlday/{control_day.pk}/change/").content.decode()
    rules = re.search(r'<ul class="closing-rules">(.*?)</ul>\s*<p>(.*?)</p>', page, re.S)
    assert rules is not None, "the closing rules are not on the day's page"
    items = re.findall(r"<li><strong>(.*?)</strong> — (.*?)</li>", rules[1], re.S)
    return {rule.split(" (")[0]: state for state, rule in items}, rules[2]


@pytest.mark.django_db
def test_the_days_page_says_the_closing_rules_before_the_director_tries(client, staff, open_session):
    client.force_login(staff["director"])
    control_day, _ = ControlDay.objects.get_or_create(day=DAY)
    with at_day(DAY, 22):
        rules, verdict = _closing_rules(client, control_day)
    assert rules["La journée est terminée"] == "non respectée"
    assert rules["Toutes les séances de la journée sont clôturées"] == "non respectée"
    # the séance's decks came back from the table at 14:00 (the fixture)
    assert rules["Tous les jeux remis aux tables sont rendus au dépôt"] == "respectée"
    assert rules["La journée n&#x27;est pas déjà arrêtée"] == "respectée"
    assert "ne peut pas encore être arrêtée (FR art. 72)" in verdict

    close_even(staff, open_session)
    with at_day(DAY + dt.timedelta(days=1), 1):
        rules, verdict = _closing_rules(client, control_day)
        assert set(rules.values()) == {"respectée"}, rules
        assert "peut être arrêtée (FR art. 72)" in verdict
        services.close_day(actor=staff["director"], day=DAY)
        rules, _verdict = _closing_rules(client, control_day)
    assert rules["La journée n&#x27;est pas déjà arrêtée"] == "non respectée"
