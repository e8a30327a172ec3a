"""The books the FR demo leaves empty, printed from the LU demo (which writes most of them)
with an authorised minimum and the casino's closing down recorded: from reused parts, the
same pages as a whole print, signed and checkable."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from cards_registry.models import DeckStatus, IssueLine, ReturnResult
from cards_registry.services import return_decks
from house_books.models import DeviceAssignment
from house_books.services.devices import return_device
from tables.services.limits import record_authorised_minimum
from tests.support import builders
from tests.support.builders import kept_for_module
from tests.support.demo_rows import loaded
from tests.support.register_parts import LU_DEMO_BOOKS, check_whole_and_reused_parts


@pytest.fixture(scope="module")
def lu_demo(django_db_setup: None, django_db_blocker: Any) -> Any:
    """The LU demo casino, made once for the module (seed_demo takes seconds)."""
    yield from kept_for_module(django_db_blocker, _lu_demo)


def _lu_demo() -> None:
    loaded("LU")
    director = get_user_model().objects.get(username="directeur")
    today = timezone.localdate()
    record_authorised_minimum(
        actor=director,
        minimum=Decimal("15.00"),
        decree_reference="Arrêté ministériel n° 2026-417",
        decree_date=today - dt.timedelta(days=20),
        in_force_on=today - dt.timedelta(days=10),
    )
    _decks_back_to_the_depot(director)
    builders.closing_down(director)


@pytest.mark.django_db
@pytest.mark.parametrize("name", LU_DEMO_BOOKS)
def test_a_print_from_reused_parts_reads_the_same_page_for_page_as_a_whole_print(
    name: str, lu_demo: None, signing_configured: Any, nss_db: str, tmp_path: Path
) -> None:
    assert check_whole_and_reused_parts(name, signing_configured.ca_pem, nss_db, tmp_path) > 0


def _decks_back_to_the_depot(director: Any) -> None:
    """The closing down wants every deck back in the depot and every shoe in the cabinet
    (LU art. 52): the tables' decks come back, fit, or still quarantined by their open
    incident; the shoes are returned."""
    groups: dict[tuple[int, dt.date], list[Any]] = defaultdict(list)
    for line in IssueLine.objects.filter(return_line__isnull=True).select_related("issue", "deck"):
        groups[(line.issue.table_number, line.issue.day)].append(line.deck)
    for (table_number, day), decks in groups.items():
        results = [
            (
                deck,
                ReturnResult.QUARANTINED if deck.status == DeckStatus.QUARANTINED else ReturnResult.FIT,
                "",
                52,
            )
            for deck in decks
        ]
        return_decks(actor=director, table_number=table_number, day=day, results=results)
    for assignment in DeviceAssignment.objects.filter(returned_at__isnull=True):
        return_device(actor=director, assignment=assignment)
