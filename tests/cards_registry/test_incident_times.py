"""The moment the officer was told of an incident is the system's, not typed (FR art. 40 §5, LU
art. 7 §5): the recording of the report (by the casino, or the officer's own acknowledgement on
the portal). The declared moment is kept beside it and shown; a report recorded later than the
allowed delay after the finding, or long after the moment it declares, is named by the
self-inspection whatever moment was typed."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from cards_registry import selectors, services
from cards_registry.models import Deck, Incident
from tables.clock import history_at
from tests.support.builders import books_read_under
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate


def _named() -> list[Any]:
    return breaches_of("depot.incidents_reported")


def test_a_report_typed_two_minutes_after_but_recorded_three_days_later_is_late(
    director: Any, officer: Any, decks: list[Deck]
) -> None:
    now = timezone.now()
    found = now - dt.timedelta(days=3)
    incident = services.report_incident(
        actor=director,
        kind="marked",
        occurred_at=found,
        day=TODAY(),
        decks=decks[:1],
        officer_informed=officer,
        officer_informed_at=found + dt.timedelta(minutes=2),
        circumstances="Carte marquée, signalée « deux minutes après »",
    )
    incident.refresh_from_db()
    # the moment told is the recording's; the typed one is kept beside it
    assert incident.declared_told_at == found + dt.timedelta(minutes=2)
    assert abs(incident.told_at - now) < dt.timedelta(minutes=1)
    assert incident.report_delay > dt.timedelta(days=2)
    [breach] = _named()
    assert breach.article == "FR art. 40" and breach.object == "incident n° 1"
    assert "3 j" in breach.detail and "déclaré" in breach.detail


def test_a_later_report_dated_five_minutes_after_does_not_erase_never_reported(
    director: Any, officer: Any, decks: list[Deck]
) -> None:
    found = timezone.now() - dt.timedelta(days=2)
    incident = services.report_incident_from_replay(
        code="INVALID_CARD",
        table_number=1,
        day=TODAY(),
        shoe_reference="S1",
        decks=decks[:1],
        detail="ZZ",
        occurred_at=found,
    )
    [breach] = _named()
    assert "jamais signalé" in breach.detail
    report = services.record_incident_report(
        actor=director,
        incident=incident,
        officer_informed=officer,
        informed_at=found + dt.timedelta(minutes=5),
    )
    assert report.informed_at == found + dt.timedelta(minutes=5)  # kept as declared
    incident = Incident.objects.get(pk=incident.pk)
    assert incident.told_at == report.recorded_at and incident.declared_told_at == report.informed_at
    [breach] = _named()
    assert breach.article == "FR art. 40"
    assert "2 j" in breach.detail and "déclaré" in breach.detail
    assert [i.number for i, why in selectors.late_or_unreported_incidents(timezone.now())] == [
        incident.number
    ]


def test_the_officers_own_acknowledgement_is_the_moment_told(
    director: Any, officer: Any, decks: list[Deck]
) -> None:
    found = timezone.now() - dt.timedelta(minutes=5)
    incident = services.report_incident_from_replay(
        code="INVALID_CARD",
        table_number=1,
        day=TODAY(),
        shoe_reference="S1",
        decks=decks[:1],
        detail="ZZ",
        occurred_at=found,
    )
    # the officer acknowledges on the portal: no moment to type, and within the delay
    report = services.record_incident_report(
        actor=officer, incident=incident, officer_informed=officer, informed_at=timezone.now()
    )
    assert Incident.objects.get(pk=incident.pk).told_at == report.recorded_at
    assert not _named()


def test_the_recording_follows_the_acts_clock(director: Any, officer: Any, decks: list[Deck]) -> None:
    """The demo's past days are written on the acts' clock: their reports are on time then."""
    moment = timezone.now() - dt.timedelta(days=2)
    with history_at(moment):
        incident = services.report_incident(
            actor=director,
            kind="marked",
            occurred_at=moment - dt.timedelta(minutes=3),
            day=timezone.localdate(moment),
            decks=decks[:1],
            officer_informed=officer,
            officer_informed_at=moment - dt.timedelta(minutes=1),
            circumstances="Carte marquée",
        )
    assert Incident.objects.get(pk=incident.pk).recorded_at == moment
    assert not _named()


def test_lu_a_late_recording_is_named_under_lu(director: Any, officer: Any, decks: list[Deck]) -> None:
    books_read_under("LU")
    found = timezone.now() - dt.timedelta(days=3)
    services.report_incident(
        actor=director,
        kind="marked",
        occurred_at=found,
        day=TODAY(),
        decks=decks[:1],
        officer_informed=officer,
        officer_informed_at=found + dt.timedelta(minutes=2),
        circumstances="Carte marquée",
    )
    [breach] = _named()
    assert breach.article == "LU art. 7" and "déclaré" in breach.detail
