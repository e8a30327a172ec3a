"""The depot's demo data: realistic, every deck state, and idempotent."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from audit.models import AuditEvent
from cards_registry import selectors
from cards_registry.models import Deck, DeckStatus, Incident, Reception, Visa

pytestmark = pytest.mark.django_db


def test_demo_depot_has_every_state_and_runs_twice() -> None:
    call_command("seed_demo", stdout=StringIO())
    counts = (Deck.objects.count(), Reception.objects.count(), AuditEvent.objects.count())
    assert counts[1] == 12 and Visa.objects.filter(reception__isnull=False).count() == 12
    assert set(Deck.objects.values_list("status", flat=True)) == set(DeckStatus.values)
    assert Incident.objects.filter(closure__isnull=False).count() == 1
    today = timezone.localdate()
    assert len(selectors.decks_issued_to(table_number=1, day=today)) == 6
    assert len(selectors.decks_issued_to(table_number=2, day=today)) == 6
    call_command("seed_demo", stdout=StringIO())
    assert (Deck.objects.count(), Reception.objects.count(), AuditEvent.objects.count()) == counts
