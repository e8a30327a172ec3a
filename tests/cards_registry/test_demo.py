"""The depot's demo data: realistic, every deck state, and idempotent."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from audit.models import AuditEvent
from cards_registry import selectors
from cards_registry.models import Deck, DeckStatus, Incident, Reception, Visa
from tests.support.builders import gaming_day

pytestmark = pytest.mark.django_db


def test_demo_depot_has_every_state_and_is_never_seeded_twice(demo: Any) -> None:
    counts = (Deck.objects.count(), Reception.objects.count(), AuditEvent.objects.count())
    assert counts[1] == 12 and Visa.objects.filter(reception__isnull=False).count() == 12
    # every state a deck keeps once its incidents are closed (none left quarantined: an incident
    # open after the visa's delay is a breach, FR art. 40 §5, LU art. 7 §5)
    assert set(Deck.objects.values_list("status", flat=True)) == set(DeckStatus.values) - {
        DeckStatus.QUARANTINED
    }
    # the marked deck found at the return, the marked card at table 3, the foreign card found at
    # the officer's inspection, the cards marked by the player excluded since: reported, closed
    assert Incident.objects.filter(closure__isnull=False).count() == 4
    assert not Incident.objects.filter(closure__isnull=True).exists()
    today = gaming_day()
    assert len(selectors.decks_issued_to(table_number=1, day=today)) == 6
    assert len(selectors.decks_issued_to(table_number=2, day=today)) == 6
    # a second seeding: nothing written into books in service (FR art. 68), --if-empty does nothing
    with pytest.raises(CommandError, match="SEED_DATABASE_IN_SERVICE"):
        call_command("seed_demo", stdout=StringIO())
    call_command("seed_demo", "--if-empty", stdout=StringIO())
    assert (Deck.objects.count(), Reception.objects.count(), AuditEvent.objects.count()) == counts


def test_the_demo_follows_the_procedure(demo: Any, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from cards_registry.models import IncidentRoute

    marked = Incident.objects.get(route=IncidentRoute.RETURN)
    assert marked.kind == "marked" and marked.officer_informed is not None and hasattr(marked, "closure")
    today = gaming_day()
    assert not selectors.decks_out(table_number=3, day=today).exists()
    call_command("inspect_books", "--json")  # exits 0: no SystemExit
    assert json.loads(capsys.readouterr().out)["breaches"] == []
