"""The tables' checks under the Luxembourg règlement: a day over and never closed, a day closed
and left without the officer's visa (planted as in test_control_day.py, the books then read under
LU), a day's total written apart from its lines (LU art. 10); an LU séance left open past its
gaming day, an advance line unsigned, an interruption left open (LU art. 23), a hand log not
replayed (LU art. 32), its discrepancies not acknowledged, a log of an unknown shoe and a deck in
two live shoes (LU art. 7), the exercise start moved after séances (LU art. 9): each planted as
in its FR test and named with its LU article."""

from __future__ import annotations

from typing import Any

import pytest

from tables import services
from tables.models import ControlDay
from tests.support.builders import books_read_under, close_even
from tests.support.self_inspection import breaches_of
from tests.tables.conftest import DAY

pytestmark = pytest.mark.django_db


def _named(check: str) -> list[Any]:
    return breaches_of(check)


def test_lu_a_day_never_closed_then_never_stamped(staff: Any, open_session: Any, settings: Any) -> None:
    books_read_under("LU")
    [never_closed] = _named("tables.day_not_closed")
    assert never_closed.article == "LU art. 10" and "30/11/2026" in never_closed.object
    close_even(staff, open_session)
    services.close_day(actor=staff["director"], day=DAY)
    assert not _named("tables.day_not_closed") and not _named("tables.day_not_stamped")
    settings.CONTROL_REGISTER_STAMP_DAYS = 0
    [unstamped] = _named("tables.day_not_stamped")
    assert unstamped.article == "LU art. 10" and "30/11/2026" in unstamped.object
    services.stamp_control_day(actor=staff["officer"], control_day=ControlDay.objects.get(day=DAY))
    assert not _named("tables.day_not_stamped")


def _open_lu(staff: Any, table: Any) -> Any:
    from decimal import Decimal

    from tests.support import builders

    builders.shoe_for(table, DAY, staff["director"])
    with builders.at_day(DAY):
        return services.open_session(
            actor=staff["director"],
            table=table,
            day=DAY,
            minimum=Decimal("5.00"),
            maximum=Decimal("500.00"),
            advance_amount=Decimal("20000.00"),
            guarantee_fund=Decimal("25000.00"),
            croupier=staff["croupier"],
        )


@pytest.fixture
def lu_session(lu_casino: Any, staff: Any, table: Any) -> Any:
    """An LU séance of table BJ03 on DAY (over), its shoe assigned (LU art. 32 §3, 40), left open."""
    return _open_lu(staff, table)


def test_lu_a_seance_open_past_its_gaming_day(lu_session: Any) -> None:
    [breach] = _named("tables.session_past_gaming_day")
    assert breach.article == "LU art. 10" and "BJ03" in breach.object


def test_lu_an_advance_line_unsigned(staff: Any, lu_session: Any) -> None:
    from decimal import Decimal

    from tables.models import AdvanceEntry, EntryKind

    AdvanceEntry.objects.create(
        table=lu_session.table,
        line=99,
        session=lu_session,
        kind=EntryKind.FURTHER_ADVANCE,
        amount=Decimal("20000.00"),
        at=lu_session.opened_at,
        counted_by=staff["croupier"],
    )
    [breach] = _named("tables.entries_unsigned")
    assert breach.article == "LU art. 10" and "99" in breach.detail


# -- the séance's checks, planted as in test_inspection.py, test_corrections.py and
# test_decks_and_breaches.py on an LU séance: each named with its LU article


def _lu_log(seed: int, faults: tuple[str, ...] = (), shoe_id: str | None = None) -> bytes:
    import json

    from tables.blackjack.simulator import simulate_shoe

    doc = simulate_shoe(
        seed, "LU", table="BJ03", limits=("5.00", "500.00"), faults=list(faults), shoe_id=shoe_id
    )
    return json.dumps(doc).encode()


def test_lu_an_interruption_left_open(staff: Any, lu_session: Any) -> None:
    from decimal import Decimal

    from tests.support.builders import at_day

    assert not _named("tables.interruption_open")
    with at_day(DAY, 22):
        services.interrupt_session(  # the only open table: counted (LU art. 23)
            actor=staff["croupier"],
            session=lu_session,
            mode="counted",
            amount=Decimal("19000.00"),
            signed_by=staff["director"],
            cashier=staff["cashier"],
        )
    [breach] = _named("tables.interruption_open")
    assert breach.article == "LU art. 23" and "BJ03" in breach.object


def test_lu_a_replay_not_done(staff: Any, lu_session: Any) -> None:
    from tests.support import builders

    builders.shoe(lu_session, croupier=staff["croupier"])
    with builders.at_day(DAY, 22):
        services.upload_hand_log(actor=staff["croupier"], session=lu_session, raw=_lu_log(1), source="api")
    [breach] = _named("tables.replay_not_done")
    assert breach.article == "LU art. 32 1." and "BJ03" in breach.object


def test_lu_discrepancies_not_acknowledged(
    staff: Any, lu_session: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from tables.models import Discrepancy
    from tests.support import builders

    builders.shoe(lu_session, croupier=staff["croupier"])
    with django_capture_on_commit_callbacks(execute=True):
        services.upload_hand_log(
            actor=staff["croupier"],
            session=lu_session,
            raw=_lu_log(2, ("SETTLEMENT_MISMATCH",)),
            source="api",
        )
    named = [r for r in Discrepancy.objects.all() if r.code != "SHOE_UNKNOWN"]
    assert named
    found = _named("tables.discrepancy_not_acknowledged")
    assert len(found) == len(named)
    assert {b.article for b in found} == {r.article for r in named} and all(
        b.article.startswith("LU art. ") for b in found
    )
    services.acknowledge_discrepancies(
        actor=staff["director"], discrepancies=list(Discrepancy.objects.all()), note="Vu."
    )
    assert not _named("tables.discrepancy_not_acknowledged")


def test_lu_a_log_of_an_unknown_shoe(staff: Any, lu_session: Any) -> None:
    from tests.support import builders

    builders.shoe(lu_session, croupier=staff["croupier"])
    services.upload_hand_log(
        actor=staff["croupier"], session=lu_session, raw=_lu_log(5, shoe_id="BJ03-NOWHERE"), source="api"
    )
    [breach] = _named("tables.hand_log_unknown_shoe")
    assert breach.article == "LU art. 7" and "BJ03-NOWHERE" in breach.detail


def test_lu_a_deck_in_two_live_shoes(staff: Any, lu_session: Any) -> None:
    from decimal import Decimal

    from tables.models import ShoeDeck
    from tests.support import builders

    other = services.create_table(actor=staff["director"], number=4, code="BJ04")
    builders.shoe_for(other, DAY, staff["director"])
    with builders.at_day(DAY):
        second = services.open_session(
            actor=staff["director"],
            table=other,
            day=DAY,
            minimum=Decimal("5.00"),
            maximum=Decimal("500.00"),
            advance_amount=Decimal("20000.00"),
            guarantee_fund=Decimal("25000.00"),
            croupier=staff["croupier"],
        )
    first_shoe = builders.shoe(lu_session, croupier=staff["croupier"])
    second_shoe = builders.shoe(second, croupier=staff["croupier"], prefix="B")
    assert not _named("tables.decks_in_two_live_shoes")
    row = ShoeDeck.objects.filter(shoe=first_shoe).first()
    assert row is not None
    # the deck written into the second séance's live shoe too, behind the service's back
    ShoeDeck.objects.create(shoe=second_shoe, deck=row.deck, serial=row.serial, back_colour=row.back_colour)
    [breach] = _named("tables.decks_in_two_live_shoes")
    assert breach.article == "LU art. 7" and row.serial in breach.detail


def test_lu_a_day_total_that_differs_from_the_lines(staff: Any, lu_session: Any) -> None:
    from decimal import Decimal

    from django.db import connection

    from tests.support import builders

    builders.play(lu_session, croupier=staff["croupier"])
    with builders.at_day(DAY, 23):
        services.close_session(
            actor=staff["director"],
            session=lu_session,
            closing_cash=Decimal("21000.00"),
            counted_by=staff["croupier"],
            certified_exact=True,
            cashier=staff["cashier"],
        )
    services.close_day(actor=staff["director"], day=DAY)
    assert not _named("tables.day_total_differs")
    with connection.cursor() as cursor:  # written outside any act
        cursor.execute("UPDATE tables_controlday SET total = 1234 WHERE day = %s", [DAY])
    [breach] = breaches_of("tables.day_total_differs", DAY)
    assert breach.article == "LU art. 10" and "30/11/2026" in breach.object


def test_lu_the_exercise_start_moved_after_seances(staff: Any, lu_casino: Any, table: Any) -> None:
    from house_books.services.casino import update_casino_settings

    update_casino_settings(actor=staff["director"], exercise_start_month=4, exercise_start_day=1)
    assert not _named("tables.exercise_reset")
    _open_lu(staff, table)
    update_casino_settings(actor=staff["director"], exercise_start_month=1)
    [breach] = _named("tables.exercise_reset")
    assert breach.article == "LU art. 9" and "exercise_start_month 4 → 1" in breach.detail
