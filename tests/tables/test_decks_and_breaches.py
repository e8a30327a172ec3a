"""No séance without decks from the depot (FR art. 40, 55-4; LU art. 7, 32): no hand log, no
result, no closing with a result unless decks issued to its table for its day are in a shoe,
through the service, the API, the admin and the command. And the breaches the self-inspection
names: séances played without them, hand logs of unknown shoes until the director explains
them, authorised minimums in force unstamped, the exercise start moved."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from audit.models import AuditEvent
from cards_registry.models import Incident
from cards_registry.services import close_incident
from casino_ops.checks import inspect
from house_books.services.casino import update_casino_settings
from tables import services
from tables.blackjack.simulator import simulate_shoe
from tables.models import Discrepancy, DiscrepancyAcknowledgement, HandLog, Session, SessionStatus
from tests.support import builders
from tests.support.builders import assert_refused
from tests.support.guards import behind_the_guard
from tests.support.self_inspection import breaches_of

from .conftest import DAY, at_day

D = Decimal


def _breaches(name, day=None):
    return breaches_of(name, day)


def _log(seed=5, shoe_id=None):
    doc = simulate_shoe(seed, "FR", table="BJ03", limits=("10.00", "1000.00"), shoe_id=shoe_id)
    return json.dumps(doc).encode()


# -- no hand log without decks in a shoe --------------------------------------------------------


@pytest.mark.django_db
def test_no_hand_log_for_a_seance_without_decks(staff, unplayed_session, client, tmp_path):
    session = unplayed_session
    with assert_refused(
        "SESSION_WITHOUT_DECKS", article="FR art. 40", field="session", nothing_recorded=True
    ):
        services.upload_hand_log(actor=staff["croupier"], session=session, raw=_log(), source="api")
    client.force_login(staff["croupier"])
    response = client.post(
        f"/api/tables/sessions/{session.pk}/hand-logs/", _log(), content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert (response.json()["code"], response.json()["article"]) == ("SESSION_WITHOUT_DECKS", "FR art. 40")
    page = client.post(
        f"/admin/tables/session/{session.pk}/act/handlog/",
        {"file": SimpleUploadedFile("log.json", _log(), content_type="application/json")},
    )
    assert page.status_code == 200 and "FR art. 40" in page.content.decode()
    path = tmp_path / "log.json"
    path.write_bytes(_log())
    with pytest.raises(CommandError):
        call_command("import_hand_logs", str(path), session=session.pk, user=staff["croupier"].username)
    assert not HandLog.objects.exists()
    # decks issued to the table for the day, checked there and put in a shoe: received
    shoe = builders.shoe(session, croupier=staff["croupier"])
    log = services.upload_hand_log(
        actor=staff["croupier"], session=session, raw=_log(shoe_id=shoe.label), source="api"
    )
    assert log.shoe == shoe


# -- no result without decks in a shoe ----------------------------------------------------------


def _close(staff, session, cash):
    return services.close_session(
        actor=staff["director"],
        session=session,
        closing_cash=D(cash),
        counted_by=staff["croupier"],
        certified_exact=True,
    )


@pytest.mark.django_db
def test_no_result_for_a_seance_without_decks(staff, unplayed_session, client):
    session = unplayed_session
    with assert_refused(
        "SESSION_WITHOUT_DECKS", article="FR art. 40", field="closing_cash", nothing_recorded=True
    ):
        _close(staff, session, "31000.00")
    client.force_login(staff["director"])
    closing = {"closing_cash": "29500.00", "counted_by": staff["croupier"].username, "certified_exact": True}
    response = client.post(
        f"/api/tables/sessions/{session.pk}/close/", closing, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert (response.json()["code"], response.json()["field"]) == ("SESSION_WITHOUT_DECKS", "closing_cash")
    page = client.post(
        f"/admin/tables/session/{session.pk}/act/close/",
        {"closing_cash": "31000.00", "counted_by": staff["croupier"].pk, "certified_exact": "on"},
    )
    assert page.status_code == 200 and "FR art. 40" in page.content.decode()
    session.refresh_from_db()
    assert session.status == SessionStatus.OPEN and session.result is None
    # no play, no result: the séance closes with its advance intact
    _close(staff, session, "30000.00")
    session.refresh_from_db()
    assert session.status == SessionStatus.CLOSED and session.result == 0
    # nor is a result written later by a correction
    line = session.control_lines.get()
    with assert_refused("SESSION_WITHOUT_DECKS", field="result", nothing_recorded=True):
        services.correct_control_line(
            actor=staff["director"], line=line, result=D("500.00"), approval="Approuvé", reason="recomptage"
        )
    closing_entry = session.entries.get(kind="closing")
    with assert_refused("SESSION_WITHOUT_DECKS", field="amount", nothing_recorded=True):
        services.correct_advance_entry(
            actor=staff["director"],
            entry=closing_entry,
            amount=D("30500.00"),
            approval="Approuvé",
            reason="recomptage",
        )


@pytest.mark.django_db
def test_a_played_seance_closes_with_its_result(staff, open_session):
    with at_day(DAY, 23):
        _close(staff, open_session, "31000.00")
    open_session.refresh_from_db()
    assert open_session.result == D("1000.00")


@pytest.mark.django_db
@pytest.mark.parametrize("profile,article", [("FR", "FR art. 40"), ("LU", "LU art. 7")])
def test_seances_played_without_decks_are_named(staff, unplayed_session, profile, article):
    # the séance was kept under FR, its books now read under ``profile`` (no act changes it)
    builders.books_read_under(profile)
    with behind_the_guard(Session):
        Session.objects.filter(pk=unplayed_session.pk).update(profile=profile)
    assert "tables.session_without_decks" in inspect().checks
    assert not _breaches("tables.session_without_decks")
    # a log stored behind the service's back (before the rule), and a result written so
    raw = _log()
    services._store_hand_log(
        actor=staff["croupier"],
        session=unplayed_session,
        raw=raw,
        doc=services.parse_hand_log(raw, "FR"),
        digest="0" * 64,
        source="api",
    )
    [breach] = _breaches("tables.session_without_decks")
    assert breach.article == article and "BJ03" in breach.object and "journaux" in breach.detail
    assert _breaches("tables.session_without_decks", DAY)
    builders.shoe(unplayed_session)
    assert not _breaches("tables.session_without_decks")


@pytest.mark.django_db
def test_a_result_without_decks_is_named(staff, unplayed_session):
    _close(staff, unplayed_session, "30000.00")
    assert not _breaches("tables.session_without_decks")
    with behind_the_guard(Session):
        Session.objects.filter(pk=unplayed_session.pk).update(result=D("750.00"))
    [breach] = _breaches("tables.session_without_decks")
    # the amount is written in the page's language: "750,00" in French
    assert breach.article == "FR art. 40" and "résultat de 750,00 sans" in breach.detail


# -- a hand log of an unknown shoe, until the director explains it ------------------------------


@pytest.mark.django_db
def test_a_log_of_an_unknown_shoe_is_named_until_the_officer_closes_its_incident(
    staff, open_session, client, django_capture_on_commit_callbacks
):
    log = services.upload_hand_log(
        actor=staff["croupier"], session=open_session, raw=_log(shoe_id="BJ03-NOWHERE"), source="api"
    )
    # named at once, before its replay
    [breach] = _breaches("tables.hand_log_unknown_shoe")
    assert breach.article == "FR art. 40" and "BJ03-NOWHERE" in breach.detail
    services.replay_hand_log(hand_log_id=log.pk)
    unknown = Discrepancy.objects.get(hand_log=log, code="SHOE_UNKNOWN")
    assert len(_breaches("tables.hand_log_unknown_shoe")) == 1
    # not twice: the discrepancy itself is this check's
    assert not [b for b in _breaches("tables.discrepancy_not_acknowledged") if "SHOE_UNKNOWN" in b.detail]
    with assert_refused("EXPLANATION_REQUIRED", article="FR art. 40", field="note", nothing_recorded=True):
        services.acknowledge_discrepancies(actor=staff["director"], discrepancies=[unknown], note="  ")
    client.force_login(staff["director"])
    response = client.post(
        "/api/tables/discrepancies/acknowledge/",
        {"discrepancies": [unknown.pk], "note": ""},
        content_type="application/json",
    )
    assert response.status_code == 400 and response.json()["code"] == "EXPLANATION_REQUIRED"
    # the admin's plain action refuses it too, and its explained act asks for the explanation
    client.post("/admin/tables/discrepancy/", {"action": "acknowledge", "_selected_action": [unknown.pk]})
    assert not DiscrepancyAcknowledgement.objects.exists()
    redirect = client.post(
        "/admin/tables/discrepancy/",
        {"action": "acknowledge_with_explanation", "_selected_action": [unknown.pk]},
    )
    assert redirect.status_code == 302
    url = redirect["Location"]
    assert client.get(url).status_code == 200
    refused = client.post(url, {"note": ""})
    assert refused.status_code == 200 and not DiscrepancyAcknowledgement.objects.exists()
    events = AuditEvent.objects.count()
    done = client.post(url, {"note": "Sabot de secours de la table 3, jeux du même sixain ; vérifié."})
    assert done.status_code == 302
    row = DiscrepancyAcknowledgement.objects.get(discrepancy=unknown)
    assert row.by == staff["director"] and row.note.startswith("Sabot de secours")
    assert AuditEvent.objects.filter(action="discrepancy.acknowledged").count() == 1
    # the acknowledgement, and the incident its explanation opens for the officer
    assert AuditEvent.objects.count() == events + 2
    # explained, still named: until the officer closes the incident (was cleared by the explanation)
    [breach] = _breaches("tables.hand_log_unknown_shoe")
    assert breach.article == "FR art. 40" and "clôture de l'incident par l'officier" in breach.detail
    incident = Incident.objects.get(shoe_reference="BJ03-NOWHERE")
    assert incident.circumstances.startswith("SHOE_UNKNOWN : Sabot de secours")
    close_incident(actor=staff["officer"], incident=incident, finding="Sabot de secours vu, jeux du sixain")
    assert not _breaches("tables.hand_log_unknown_shoe")


@pytest.mark.django_db
def test_the_explanation_through_the_api(staff, open_session, client):
    log = services.upload_hand_log(
        actor=staff["croupier"], session=open_session, raw=_log(shoe_id="BJ03-NOWHERE"), source="api"
    )
    services.replay_hand_log(hand_log_id=log.pk)
    unknown = Discrepancy.objects.get(hand_log=log, code="SHOE_UNKNOWN")
    client.force_login(staff["director"])
    response = client.post(
        "/api/tables/discrepancies/acknowledge/",
        {"discrepancies": [unknown.pk], "note": "Sabot de secours, jeux vérifiés au retour."},
        content_type="application/json",
    )
    assert response.status_code == 200 and response.json()["acknowledged"] == [unknown.pk]
    assert len(_breaches("tables.hand_log_unknown_shoe")) == 1  # until the officer closes it


# -- the authorised minimum unstamped, the exercise reset -------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("profile,article", [("FR", "FR art. 55-5"), ("LU", "LU art. 33")])
def test_an_authorised_minimum_in_force_and_not_stamped_is_named(staff, casino, profile, article):
    update_casino_settings(actor=staff["director"], profile=profile)
    services.record_authorised_minimum(
        actor=staff["director"],
        minimum=D("2.00"),
        decree_reference="Arrêté du 01/09/2030",
        decree_date=dt.date(2030, 9, 1),
        in_force_on=dt.date(2030, 9, 1),
    )
    assert not _breaches("tables.authorised_minimum_not_stamped")  # not in force yet
    act = services.record_authorised_minimum(
        actor=staff["director"],
        minimum=D("2.00"),
        decree_reference="Arrêté du 20/11/2026",
        decree_date=DAY.replace(day=20),
        in_force_on=DAY.replace(day=25),
    )
    [breach] = _breaches("tables.authorised_minimum_not_stamped")
    assert breach.article == article and "Arrêté du 20/11/2026" in breach.object
    assert breach.url == "/inspection/visas/"
    services.stamp_authorised_minimum(actor=staff["officer"], act=act)
    assert not _breaches("tables.authorised_minimum_not_stamped")


@pytest.mark.django_db
def test_the_exercise_start_moved_after_seances_is_named(staff, casino, table):
    # set before any séance: the casino's settings, not a reset
    update_casino_settings(actor=staff["director"], exercise_start_month=4, exercise_start_day=1)
    assert not _breaches("tables.exercise_reset")
    builders.open_session(table, director=staff["director"], croupier=staff["croupier"], day=DAY)
    update_casino_settings(actor=staff["director"], name="Casino du Lac")
    assert not _breaches("tables.exercise_reset")
    update_casino_settings(actor=staff["director"], exercise_start_month=1)
    [breach] = _breaches("tables.exercise_reset")
    assert breach.article == "FR art. 49" and "exercise_start_month 4 → 1" in breach.detail
