"""Times in the deck's history are the casino's local time, not UTC."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from cards_registry.models import Deck


@pytest.mark.django_db
def test_the_officer_notice_time_is_the_casinos_local_time(officer_client, samples, settings) -> None:
    assert settings.TIME_ZONE == "Europe/Paris"  # UTC+1 or +2: never the same clock as UTC
    informed_at = samples.incident.officer_informed_at
    local = f"avisé à {timezone.localtime(informed_at):%H:%M}"
    utc = f"avisé à {informed_at.astimezone(dt.UTC):%H:%M}"
    assert local != utc
    deck = Deck.objects.get(serial="A2-6")
    page = officer_client.get(reverse("portal:deck", args=[deck.pk])).content.decode()
    assert local in page and utc not in page
