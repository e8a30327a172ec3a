"""The card procedure cannot be bypassed (FR art. 39-40, LU art. 6-7): every discovery is an
incident, only checked decks reach play, every deck comes back."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from cards_registry import rules, selectors, services
from cards_registry.models import Deck, DeckStatus, Incident, IncidentRoute
from casino_ops.regulations import RegulationError
from tests.support.builders import books_read_under, late_reported_incident
from tests.support.depot_helpers import issue_and_check

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate


def dashboard_lists(officer: Any, incident: Incident) -> bool:
    client = Client()
    client.force_login(officer)
    page = client.get("/inspection/").content.decode()
    return f"Incident n° {incident.number} —" in page


def status(deck: Deck) -> str:
    return Deck.objects.get(pk=deck.pk).status


# -- 1. incidents from every route -----------------------------------------------------------


def test_a_return_with_a_marked_card_opens_an_incident(
    director: Any, officer: Any, croupier: Any, decks: list[Deck]
) -> None:
    issue_and_check(director=director, croupier=croupier, table_number=1, day=TODAY(), decks=decks[:2])
    services.return_decks(
        actor=director,
        table_number=1,
        day=TODAY(),
        results=[(decks[0], "marked", "ongle", 52), (decks[1], "fit", "", 52)],
    )
    incident = Incident.objects.get(route=IncidentRoute.RETURN)
    assert incident.kind == "marked" and list(incident.decks.all()) == [decks[0]]
    assert status(decks[0]) == DeckStatus.QUARANTINED
    assert dashboard_lists(officer, incident)


def test_a_return_with_a_damaged_card_opens_an_incident(
    director: Any, officer: Any, croupier: Any, decks: list[Deck]
) -> None:
    issue_and_check(director=director, croupier=croupier, table_number=1, day=TODAY(), decks=decks[:1])
    services.return_decks(
        actor=director, table_number=1, day=TODAY(), results=[(decks[0], "damaged", "", 52)]
    )
    incident = Incident.objects.get(route=IncidentRoute.RETURN, kind="damaged")
    assert status(decks[0]) == DeckStatus.QUARANTINED
    assert dashboard_lists(officer, incident)


def test_a_return_counts_the_cards_and_a_short_deck_is_an_incident(
    director: Any, officer: Any, croupier: Any, decks: list[Deck]
) -> None:
    issue_and_check(director=director, croupier=croupier, table_number=1, day=TODAY(), decks=decks[:2])
    back = services.return_decks(
        actor=director,
        table_number=1,
        day=TODAY(),
        results=[(decks[0], "fit", "", 51), (decks[1], "fit", "", 52)],
        officer_informed=officer,
        officer_informed_at=timezone.now(),
    )
    assert sorted(back.lines.values_list("cards_counted", flat=True)) == [51, 52]
    incident = Incident.objects.get(route=IncidentRoute.RETURN, kind="missing")
    assert incident.officer_informed == officer and incident.told_at is not None
    assert status(decks[0]) == DeckStatus.QUARANTINED and status(decks[1]) == DeckStatus.IN_CABINET
    assert dashboard_lists(officer, incident)


def test_a_worn_deck_back_complete_opens_no_incident(director: Any, croupier: Any, decks: list[Deck]) -> None:
    issue_and_check(director=director, croupier=croupier, table_number=1, day=TODAY(), decks=decks[:1])
    services.return_decks(actor=director, table_number=1, day=TODAY(), results=[(decks[0], "worn", "", 52)])
    assert not Incident.objects.exists() and status(decks[0]) == DeckStatus.OUT_OF_USE


def test_a_destruction_finding_a_card_missing_opens_an_incident(
    director: Any, officer: Any, croupier: Any, decks: list[Deck]
) -> None:
    issue_and_check(director=director, croupier=croupier, table_number=1, day=TODAY(), decks=decks[:2])
    services.return_decks(
        actor=director, table_number=1, day=TODAY(), results=[(d, "worn", "", 52) for d in decks[:2]]
    )
    destruction = services.destroy_decks(
        actor=director,
        officer=officer,
        checks=[
            {"deck": decks[0], "complete": False, "unmarked": True, "remark": "51 cartes"},
            {"deck": decks[1], "complete": True, "unmarked": True},
        ],
    )
    assert [line.deck for line in destruction.lines.all()] == [decks[1]]
    incident = Incident.objects.get(route=IncidentRoute.DESTRUCTION, kind="missing")
    assert incident.officer_informed == officer
    assert status(decks[0]) == DeckStatus.QUARANTINED
    assert dashboard_lists(officer, incident)


def test_a_destruction_finding_a_deck_marked_opens_an_incident(
    director: Any, officer: Any, croupier: Any, decks: list[Deck]
) -> None:
    issue_and_check(director=director, croupier=croupier, table_number=1, day=TODAY(), decks=decks[:1])
    services.return_decks(actor=director, table_number=1, day=TODAY(), results=[(decks[0], "worn", "", 52)])
    assert (
        services.destroy_decks(
            actor=director, officer=officer, checks=[{"deck": decks[0], "complete": True, "unmarked": False}]
        )
        is None
    )
    incident = Incident.objects.get(route=IncidentRoute.DESTRUCTION, kind="marked")
    assert status(decks[0]) == DeckStatus.QUARANTINED
    assert dashboard_lists(officer, incident)


def test_a_replay_card_count_exceeded_opens_an_incident(
    director: Any, officer: Any, croupier: Any, decks: list[Deck]
) -> None:
    issue_and_check(director=director, croupier=croupier, table_number=1, day=TODAY(), decks=decks[:6])
    incident = services.report_incident_from_replay(
        code="CARD_COUNT_EXCEEDED",
        table_number=1,
        day=TODAY(),
        shoe_reference="BJ01-S1",
        decks=decks[:6],
        detail="313 cartes tirées d'un sabot de 312",
    )
    assert incident is not None and incident.kind == "extra" and incident.reported_by is None
    assert {status(d) for d in decks[:6]} == {DeckStatus.QUARANTINED}
    assert dashboard_lists(officer, incident)
    # the replay run again finds the same incident; another code opens nothing
    again = services.report_incident_from_replay(
        code="CARD_COUNT_EXCEEDED", table_number=1, day=TODAY(), shoe_reference="BJ01-S1", decks=[], detail=""
    )
    assert again == incident and Incident.objects.count() == 1
    assert (
        services.report_incident_from_replay(
            code="ROUND_NUMBERING", table_number=1, day=TODAY(), shoe_reference="BJ01-S1", decks=[], detail=""
        )
        is None
    )


def test_a_replay_invalid_card_opens_an_incident(
    director: Any, officer: Any, croupier: Any, decks: list[Deck]
) -> None:
    issue_and_check(director=director, croupier=croupier, table_number=1, day=TODAY(), decks=decks[:6])
    incident = services.report_incident_from_replay(
        code="INVALID_CARD", table_number=1, day=TODAY(), shoe_reference="S2", decks=decks[:6], detail="ZZ"
    )
    assert incident.kind == "foreign"
    assert status(decks[0]) == DeckStatus.QUARANTINED
    assert dashboard_lists(officer, incident)


def test_a_manual_report_opens_an_incident(director: Any, officer: Any, decks: list[Deck]) -> None:
    now = timezone.now()
    incident = services.report_incident(
        actor=director,
        kind="marked",
        occurred_at=now - dt.timedelta(minutes=2),
        day=TODAY(),
        decks=decks[:1],
        officer_informed=officer,
        officer_informed_at=now,
        circumstances="Corne",
    )
    assert incident.route == IncidentRoute.REPORT
    assert status(decks[0]) == DeckStatus.QUARANTINED
    assert dashboard_lists(officer, incident)


def test_a_foreign_card_outside_any_deck_is_recorded(director: Any, officer: Any, casino: Any) -> None:
    now = timezone.now()
    incident = services.report_incident(
        actor=director,
        kind="foreign",
        occurred_at=now - dt.timedelta(minutes=1),
        day=TODAY(),
        decks=[],
        card="As de pique, dos vert, fabricant inconnu",
        officer_informed=officer,
        officer_informed_at=now,
        circumstances="Trouvée au sol près de la table 2",
        table_number=2,
    )
    assert incident.decks.count() == 0 and incident.card.startswith("As de pique")
    assert dashboard_lists(officer, incident)
    with pytest.raises(RegulationError) as info:
        services.report_incident(
            actor=director,
            kind="foreign",
            occurred_at=now - dt.timedelta(minutes=1),
            day=TODAY(),
            decks=[],
            officer_informed=officer,
            officer_informed_at=now,
            circumstances="Trouvée au sol",
        )
    assert (info.value.code, info.value.field, info.value.article) == ("INCIDENT_CARD", "card", "FR art. 40")


def test_fr_no_officer_present_the_police_judiciaire_head_is_named(director: Any, decks: list[Deck]) -> None:
    now = timezone.now()
    incident = services.report_incident(
        actor=director,
        kind="missing",
        occurred_at=now - dt.timedelta(minutes=5),
        day=TODAY(),
        decks=decks[:1],
        officer_informed=None,
        authority_informed="Commissaire divisionnaire J. Martin, chef du SRPJ",
        officer_informed_at=now,
        circumstances="Dame de trèfle manquante",
    )
    # told at the recording (the moment typed is kept beside it)
    assert incident.told_whom.startswith("Commissaire") and incident.declared_told_at == now
    assert dt.timedelta(minutes=5) <= incident.report_delay < dt.timedelta(minutes=6)


def test_lu_knows_only_the_officer(director: Any, decks: list[Deck]) -> None:

    books_read_under("LU")
    now = timezone.now()
    with pytest.raises(RegulationError) as info:
        services.report_incident(
            actor=director,
            kind="missing",
            occurred_at=now - dt.timedelta(minutes=5),
            day=TODAY(),
            decks=decks[:1],
            officer_informed=None,
            authority_informed="Police grand-ducale",
            officer_informed_at=now,
            circumstances="Carte manquante",
        )
    assert (info.value.code, info.value.article) == ("OFFICER_NOT_TOLD", "LU art. 7")


def test_the_delay_is_measured_and_a_late_report_flagged(
    director: Any, officer: Any, croupier: Any, decks: list[Deck]
) -> None:
    now = timezone.now()
    late_reported_incident(director, officer, decks[0], TODAY())
    issue_and_check(director=director, croupier=croupier, table_number=1, day=TODAY(), decks=decks[1:2])
    services.return_decks(actor=director, table_number=1, day=TODAY(), results=[(decks[1], "marked", "", 52)])
    returned = Incident.objects.get(route=IncidentRoute.RETURN)
    assert returned.told_at is None
    found = dict(
        (i.number, why) for i, why in selectors.late_or_unreported_incidents(now + dt.timedelta(hours=1))
    )
    assert found == {1: "late", returned.number: "unreported"}
    report = services.record_incident_report(
        actor=officer, incident=returned, officer_informed=officer, informed_at=timezone.now()
    )
    assert Incident.objects.get(pk=returned.pk).told_at == report.recorded_at
    with pytest.raises(RegulationError) as info:
        services.record_incident_report(
            actor=officer, incident=returned, officer_informed=officer, informed_at=timezone.now()
        )
    assert info.value.code == "INCIDENT_ALREADY_REPORTED"
    assert rules.report_is_late(dt.timedelta(minutes=16), 15) and not rules.report_is_late(
        dt.timedelta(minutes=15), 15
    )


# -- 2. only checked decks in play -------------------------------------------------------------


def test_only_decks_checked_at_that_table_that_day_are_playable(
    director: Any, croupier: Any, decks: list[Deck]
) -> None:
    services.issue_decks(actor=director, table_number=1, day=TODAY(), decks=decks[:6])
    assert list(selectors.decks_checked_for_play(table_number=1, day=TODAY())) == []
    issue_and_check(director=director, croupier=croupier, table_number=2, day=TODAY(), decks=decks[6:12])
    playable = selectors.decks_checked_for_play(table_number=2, day=TODAY())
    assert {d.pk for d in playable} == {d.pk for d in decks[6:12]}
    assert not selectors.decks_checked_for_play(table_number=1, day=TODAY()).exists()
    serials = {d.pk: d.serial for d in decks}
    with pytest.raises(RegulationError) as info:
        rules.check_decks_playable(
            deck_ids=[d.pk for d in decks[:6]],
            checked_ids=set(),
            other_shoe_ids=set(),
            serials=serials,
            profile="FR",
        )
    assert (info.value.code, info.value.article, info.value.field) == (
        "DECK_NOT_CHECKED",
        "FR art. 40",
        "decks",
    )
    with pytest.raises(RegulationError) as info:
        rules.check_decks_playable(
            deck_ids=[d.pk for d in decks[6:12]],
            checked_ids={d.pk for d in playable},
            other_shoe_ids={decks[6].pk},
            serials=serials,
            profile="LU",
        )
    assert (info.value.code, info.value.article) == ("DECK_IN_ANOTHER_SHOE", "LU art. 7")


# -- 3. every deck comes back ----------------------------------------------------------------


def test_decks_out_lists_what_has_not_come_back(
    director: Any, croupier: Any, officer: Any, decks: list[Deck]
) -> None:
    issue_and_check(director=director, croupier=croupier, table_number=1, day=TODAY(), decks=decks[:2])
    services.issue_decks(actor=director, table_number=2, day=TODAY(), decks=decks[2:3])
    now = timezone.now()
    services.report_incident(
        actor=croupier,
        kind="marked",
        occurred_at=now - dt.timedelta(minutes=1),
        day=TODAY(),
        decks=decks[1:2],
        officer_informed=officer,
        officer_informed_at=now,
        circumstances="Corne",
        table_number=1,
    )
    assert set(selectors.decks_out(table_number=1, day=TODAY())) == {decks[0], decks[1]}
    assert set(selectors.decks_out(day=TODAY())) == {decks[0], decks[1], decks[2]}
    services.return_decks(
        actor=director, table_number=1, day=TODAY(), results=[(d, "fit", "", 52) for d in decks[:2]]
    )
    assert not selectors.decks_out(table_number=1, day=TODAY()).exists()
    assert list(selectors.decks_out()) == [decks[2]]


def test_a_deck_s_history_names_an_incident_not_yet_reported(
    director: Any, officer: Any, croupier: Any, decks: list[Deck]
) -> None:
    issue_and_check(director=director, croupier=croupier, table_number=1, day=TODAY(), decks=decks[:1])
    services.return_decks(actor=director, table_number=1, day=TODAY(), results=[(decks[0], "marked", "", 52)])
    lines = [line.what for line in selectors.deck_history(decks[0])]
    assert any("pas encore signalé" in line for line in lines), lines
    incident = Incident.objects.get()
    services.record_incident_report(
        actor=officer, incident=incident, officer_informed=officer, informed_at=timezone.now()
    )
    client = Client()
    client.force_login(officer)
    assert client.get(f"/inspection/jeux/{decks[0].pk}/").status_code == 200
    assert any("avisé à" in line.what for line in selectors.deck_history(decks[0]))
