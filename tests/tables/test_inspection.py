"""The tables' self-inspection checks: sessions open past their gaming day, advances or counts
unsigned, LU notices missing, interruptions left open, replays not done, discrepancies not
acknowledged by the director."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest

from casino_ops.checks import inspect
from casino_ops.regulations import RegulationError
from tables import services
from tables.blackjack.simulator import simulate_shoe
from tables.models import AdvanceEntry, Discrepancy, EntryKind, Session
from tests.support import builders
from tests.support.guards import behind_the_guard
from tests.support.self_inspection import breaches_of

from .conftest import DAY, at_day

D = Decimal


def _breaches(name, day=None):
    return breaches_of(name, day)


def _close(staff, session, **kw):
    with at_day(session.day, 23):
        services.close_session(
            actor=staff["director"],
            session=session,
            closing_cash=D("31000.00"),
            counted_by=staff["croupier"],
            certified_exact=True,
            **kw,
        )


@pytest.mark.django_db
def test_the_tables_checks_are_declared(casino):
    names = set(inspect().checks)
    assert {
        "tables.session_past_gaming_day",
        "tables.entries_unsigned",
        "tables.lu_notice_missing",
        "tables.interruption_open",
        "tables.replay_not_done",
        "tables.discrepancy_not_acknowledged",
    } <= names
    assert not [b for b in inspect().breaches if b.check.startswith("tables.")]


@pytest.mark.django_db
def test_a_session_open_past_its_gaming_day(staff, open_session):
    [breach] = _breaches("tables.session_past_gaming_day")
    assert breach.article == "FR art. 69" and "BJ03" in breach.object
    assert breach.url == f"/inspection/seances/{open_session.pk}/"
    assert _breaches("tables.session_past_gaming_day", DAY)
    _close(staff, open_session)
    assert not _breaches("tables.session_past_gaming_day")


@pytest.mark.django_db
def test_an_interruption_left_open(staff, open_session):
    with at_day(DAY, 22):
        services.interrupt_session(
            actor=staff["croupier"], session=open_session, mode="locked", key_holder=staff["committee"]
        )
    [breach] = _breaches("tables.interruption_open")
    assert breach.article == "FR art. 69"


@pytest.mark.django_db
def test_advances_or_counts_unsigned(staff, open_session):
    # a line written without its signature (as a book kept before the checks would hold one)
    AdvanceEntry.objects.create(
        table=open_session.table,
        line=99,
        session=open_session,
        kind=EntryKind.FURTHER_ADVANCE,
        amount=D("30000.00"),
        at=open_session.opened_at,
        counted_by=staff["croupier"],
    )
    [breach] = _breaches("tables.entries_unsigned")
    assert breach.article == "FR art. 69" and "99" in breach.detail


@pytest.mark.django_db
def test_lu_notice_missing(lu_casino, staff, table):
    builders.shoe_for(table, DAY, staff["director"])  # LU art. 32 §3, 40
    notice = builders.ministry_notice("10.00", DAY, days_before=8, reference="MF/2026/002")
    late = builders.ministry_notice("10.00", DAY, days_before=2, reference="MF/2026/003")
    with at_day(DAY):
        session = services.open_session(
            actor=staff["director"],
            table=table,
            minimum=D("10.00"),
            maximum=D("1000.00"),
            advance_amount=D("20000.00"),
            croupier=staff["croupier"],
            guarantee_fund=D("50000.00"),
            ministry_notice=notice,
        )
    assert not _breaches("tables.lu_notice_missing")
    # the séance's citation of its notice taken away behind the application
    with behind_the_guard(Session):
        Session.objects.filter(pk=session.pk).update(ministry_notice=None)
    [breach] = _breaches("tables.lu_notice_missing")
    assert breach.article == "LU art. 26" and "non informé" in str(breach.detail)
    # a notice recorded two days before the séance, whatever day it declares
    with behind_the_guard(Session):
        Session.objects.filter(pk=session.pk).update(ministry_notice=late)
    [breach] = _breaches("tables.lu_notice_missing")
    assert breach.article == "LU art. 26" and "moins de huit jours" in str(breach.detail)
    with behind_the_guard(Session):
        Session.objects.filter(pk=session.pk).update(ministry_notice=notice)
    assert not _breaches("tables.lu_notice_missing")


@pytest.mark.django_db
def test_lu_a_notice_declared_sent_before_its_recording_is_named(lu_casino, staff):
    """LU art. 26: the day the director declares he sent the notice is kept beside the moment the
    system recorded it; a declared day earlier than the recording is named, with both."""
    builders.ministry_notice("10.00", DAY, days_before=9, reference="MF/2026/020")  # sent that day
    assert not _breaches("tables.ministry_notice_backdated")
    builders.ministry_notice(
        "20.00", DAY, days_before=3, sent_on=DAY - dt.timedelta(days=12), reference="MF/2026/021"
    )
    [breach] = _breaches("tables.ministry_notice_backdated")
    assert breach.article == "LU art. 26"
    assert "MF/2026/021" in breach.object and "20,00" in breach.object
    assert "déclarée envoyée le 18/11/2026" in breach.detail
    assert "inscrite le 27/11/2026 12:00" in breach.detail and "(9 jours plus tard)" in breach.detail
    # the notice is named as of its recording's day, not before
    assert not _breaches("tables.ministry_notice_backdated", DAY - dt.timedelta(days=4))
    assert _breaches("tables.ministry_notice_backdated", DAY)


@pytest.mark.django_db
def test_under_fr_no_notice_is_asked_nor_named(casino, staff, table):
    """FR: the notice to the minister is Luxembourg's (LU art. 26); a French séance cites none and
    the check names nothing."""
    with at_day(DAY):
        session = services.open_session(
            actor=staff["director"],
            table=table,
            minimum=D("10.00"),
            maximum=D("1000.00"),
            advance_amount=D("30000.00"),
            croupier=staff["croupier"],
        )
    assert session.ministry_notice is None
    assert not _breaches("tables.lu_notice_missing") and not _breaches("tables.ministry_notice_backdated")


def _log(seed, faults=()):
    return json.dumps(
        simulate_shoe(seed, "FR", table="BJ03", limits=("10.00", "1000.00"), faults=list(faults))
    ).encode()


@pytest.mark.django_db
def test_a_replay_not_done(staff, open_session):
    with at_day(DAY, 22):
        services.upload_hand_log(actor=staff["croupier"], session=open_session, raw=_log(1), source="api")
    [breach] = _breaches("tables.replay_not_done")
    assert breach.article == "FR art. 55-4 1°"


@pytest.mark.django_db
def test_discrepancies_acknowledged_by_the_director(staff, open_session, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.upload_hand_log(
            actor=staff["croupier"], session=open_session, raw=_log(2, ["SETTLEMENT_MISMATCH"]), source="api"
        )
    rows = list(Discrepancy.objects.all())
    assert rows
    # a log of an unknown shoe is named by its own check, until explained
    named = [r for r in rows if r.code != "SHOE_UNKNOWN"]
    breaches = _breaches("tables.discrepancy_not_acknowledged")
    assert len(breaches) == len(named) and breaches[0].article == named[0].article
    with pytest.raises(RegulationError) as error:
        services.acknowledge_discrepancies(actor=staff["committee"], discrepancies=rows)
    assert (error.value.code, error.value.article) == ("DIRECTOR_REQUIRED", "FR art. 68")
    done = services.acknowledge_discrepancies(actor=staff["director"], discrepancies=rows, note="Vu.")
    assert len(done) == len(rows)
    assert services.acknowledge_discrepancies(actor=staff["director"], discrepancies=rows) == []
    assert not _breaches("tables.discrepancy_not_acknowledged")


@pytest.mark.django_db
def test_decks_in_two_live_shoes_and_logs_of_unknown_shoes(
    staff, table, open_session, depot_decks, django_capture_on_commit_callbacks
):
    from django.utils import timezone

    from tables.models import Shoe, ShoeDeck

    assert {"tables.decks_in_two_live_shoes", "tables.hand_log_unknown_shoe"} <= set(inspect().checks)
    # a log of an unknown shoe is named until the director explains it
    log = simulate_shoe(2, "FR", table="BJ03", shoe_id="BJ03-NOWHERE", limits=("10.00", "1000.00"))
    with django_capture_on_commit_callbacks(execute=True):
        services.upload_hand_log(
            actor=staff["croupier"], session=open_session, raw=json.dumps(log).encode(), source="api"
        )
    [unknown] = _breaches("tables.hand_log_unknown_shoe")
    assert unknown.article == "FR art. 40" and "BJ03-NOWHERE" in unknown.detail
    # a deck written into the live shoes of two sessions (behind the service's back)
    other = services.create_table(actor=staff["director"], number=4, code="BJ04")
    with at_day(DAY):
        second = services.open_session(
            actor=staff["director"],
            table=other,
            day=DAY,
            minimum=D("10.00"),
            maximum=D("1000.00"),
            advance_amount=D("30000.00"),
            croupier=staff["croupier"],
        )
    from cards_registry.models import Deck

    deck = Deck.objects.get(pk=depot_decks[0].pk)
    for number, session in enumerate((open_session, second), start=1):
        shoe = Shoe.objects.create(
            session=session,
            number=session.shoes.count() + 1,
            label=f"L{number}",
            filled_at=timezone.now(),
            croupier=staff["croupier"],
        )
        ShoeDeck.objects.create(shoe=shoe, deck=deck, serial=deck.serial, back_colour=deck.back_colour)
    found = _breaches("tables.decks_in_two_live_shoes")
    assert len(found) == 1 and deck.serial in found[0].detail and found[0].article == "FR art. 40"
