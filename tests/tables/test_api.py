"""The tables' API: hand-log upload (stored, replayed, discrepancies), refusals, and the permission matrix."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEvent
from casino_ops import roles
from tables import services
from tables.blackjack.simulator import simulate, simulate_shoe
from tables.models import Discrepancy, HandLog, Replay

from .conftest import DAY

D = Decimal


def _log(seed=1, **kw):
    kw.setdefault("table", "BJ03")
    kw.setdefault("limits", ("10.00", "1000.00"))
    return json.dumps(simulate_shoe(seed, "FR", **kw)).encode()


def _post(client, session, body):
    return client.post(
        f"/api/tables/sessions/{session.pk}/hand-logs/", data=body, content_type="application/json"
    )


@pytest.mark.django_db
def test_upload_is_stored_unchanged_and_replayed(
    croupier_client, open_session, django_capture_on_commit_callbacks
):
    sim = simulate(
        5, "FR", limits=("10.00", "1000.00"), table="BJ03", faults=["SETTLEMENT_MISMATCH", "BET_ABOVE_MAX"]
    )
    body = json.dumps(sim.log, indent=1).encode()
    with django_capture_on_commit_callbacks(execute=True):
        response = _post(croupier_client, open_session, body)
    assert response.status_code == 201, response.content
    log = HandLog.objects.get(pk=response.json()["id"])
    assert log.raw.encode() == body
    import hashlib

    assert log.sha256 == hashlib.sha256(body).hexdigest() == response.json()["sha256"]
    assert log.rounds == len(sim.log["rounds"]) and log.croupier == open_session.croupier
    replay = Replay.objects.get(hand_log=log)
    codes = sorted(Discrepancy.objects.filter(hand_log=log).values_list("code", flat=True))
    assert "SETTLEMENT_MISMATCH" in codes and "BET_ABOVE_MAX" in codes
    assert replay.discrepancy_count == len(codes) and not replay.ok
    mismatch = Discrepancy.objects.filter(hand_log=log, code="SETTLEMENT_MISMATCH").first()
    assert mismatch.article == "FR art. 55-4 1°" and mismatch.round is not None and mismatch.player
    assert mismatch.delta == mismatch.recorded - mismatch.expected
    detail = croupier_client.get(f"/api/tables/hand-logs/{log.pk}/").json()
    assert detail["replayed"] and len(detail["discrepancies"]) == len(codes)


@pytest.mark.django_db
def test_clean_log_has_no_discrepancy(
    croupier_client, today_session, depot_decks, staff, django_capture_on_commit_callbacks
):
    from tests.support.depot_helpers import issue_and_check

    a1 = [d for d in depot_decks if d.serial.startswith("A1-")]
    issue_and_check(
        director=staff["director"],
        croupier=staff["croupier"],
        table_number=3,
        day=today_session.day,
        decks=a1,
    )
    shoe = services.fill_shoe(actor=staff["croupier"], session=today_session, deck_ids=[d.pk for d in a1])
    with django_capture_on_commit_callbacks(execute=True):
        response = _post(croupier_client, today_session, _log(2, shoe_id=shoe.label))
    replay = Replay.objects.get(hand_log_id=response.json()["id"])
    assert replay.ok and replay.discrepancy_count == 0


@pytest.mark.django_db
def test_bad_field_is_refused_with_the_field_and_nothing_stored(croupier_client, open_session):
    doc = simulate_shoe(3, "FR", table="BJ03", limits=("10.00", "1000.00"))
    doc["rounds"][2]["boxes"][0]["stakes"][0]["amount"] = 10
    events = AuditEvent.objects.count()
    response = _post(croupier_client, open_session, json.dumps(doc))
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "HAND_LOG_REJECTED"
    assert body["field"] == "rounds[2].boxes[0].stakes[0].amount"
    assert "rounds[2].boxes[0].stakes[0].amount" in body["message"]
    assert "article" in body
    assert not HandLog.objects.exists() and AuditEvent.objects.count() == events
    not_json = _post(croupier_client, open_session, b"{not json")
    assert not_json.status_code == 400 and not_json.json()["field"] == "document"
    doc = json.loads(_log(3))
    doc["house_rules"] = {"surrender": "yes"}
    bad_rule = _post(croupier_client, open_session, json.dumps(doc)).json()
    assert (
        bad_rule["field"] == "house_rules.surrender" and bad_rule["article"] == "FR art. 55-4 (house rules)"
    )


@pytest.mark.django_db
def test_log_for_another_table_is_refused(croupier_client, open_session):
    response = _post(croupier_client, open_session, _log(4, table="BJ09"))
    assert response.status_code == 400 and response.json()["field"] == "table"
    assert not HandLog.objects.exists()


@pytest.mark.django_db
def test_limits_profile_house_rules_differing_from_the_session_are_discrepancies(
    croupier_client, open_session, staff, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        wrong_limits = _post(croupier_client, open_session, _log(6, limits=("25.00", "2500.00")))
        wrong_rules = _post(croupier_client, open_session, _log(7, house_rules={"surrender": True}))
    first = Discrepancy.objects.get(hand_log_id=wrong_limits.json()["id"], code="LIMITS_MISMATCH")
    assert first.article == "FR art. 55-5"
    assert first.detail == {
        "log": {"min": "25.00", "max": "2500.00"},
        "session": {"min": "10.00", "max": ["1000.00"]},
    }
    rules = Discrepancy.objects.get(hand_log_id=wrong_rules.json()["id"], code="HOUSE_RULES_MISMATCH")
    assert rules.article == "FR art. 55-4 (house rules)"
    assert rules.detail == {"surrender": {"log": True, "session": False}}
    # a maximum changed during the session (FR art. 55-5) is in force too
    services.change_maximum(
        actor=staff["director"], session=open_session, maximum=D("2000.00"), display_changed=True
    )
    with django_capture_on_commit_callbacks(execute=True):
        old_max = _post(croupier_client, open_session, _log(8, limits=("10.00", "1000.00")))
        new_max = _post(croupier_client, open_session, _log(9, limits=("10.00", "2000.00")))
    for response in (old_max, new_max):
        assert not Discrepancy.objects.filter(
            hand_log_id=response.json()["id"], code="LIMITS_MISMATCH"
        ).exists()


@pytest.mark.django_db
def test_log_for_a_closed_day_is_refused_and_nothing_earlier_changes(
    croupier_client, open_session, staff, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        accepted = _post(croupier_client, open_session, _log(10))
    services.close_session(
        actor=staff["director"],
        session=open_session,
        closing_cash=D("30000.00"),
        counted_by=staff["croupier"],
        certified_exact=True,
    )
    services.close_day(actor=staff["director"], day=DAY)
    before = list(HandLog.objects.values()), list(Discrepancy.objects.values()), list(Replay.objects.values())
    response = _post(croupier_client, open_session, _log(11))
    assert response.status_code == 400
    assert response.json()["code"] == "DAY_CLOSED" and response.json()["article"] == "FR art. 68"
    assert (
        list(HandLog.objects.values()),
        list(Discrepancy.objects.values()),
        list(Replay.objects.values()),
    ) == before
    assert HandLog.objects.get().pk == accepted.json()["id"]


@pytest.mark.django_db
def test_duplicate_upload_refused_without_a_second_replay(
    croupier_client, open_session, django_capture_on_commit_callbacks
):
    body = _log(12)
    with django_capture_on_commit_callbacks(execute=True):
        assert _post(croupier_client, open_session, body).status_code == 201
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        again = _post(croupier_client, open_session, body)
    assert (
        again.status_code == 400
        and again.json()["code"] == "HAND_LOG_DUPLICATE"
        and again.json()["field"] == "sha256"
    )
    assert callbacks == []
    assert HandLog.objects.count() == 1 and Replay.objects.count() == 1
    assert AuditEvent.objects.filter(action="hand_log.replayed").count() == 1


@pytest.mark.django_db
def test_replaying_twice_stores_one_result(croupier_client, open_session, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        log_id = _post(croupier_client, open_session, _log(13, faults=["BET_BELOW_MIN"])).json()["id"]
    from tables.tasks import replay_hand_log

    rows = Discrepancy.objects.count()
    replay_hand_log.delay(log_id)
    assert replay_hand_log(log_id) == rows
    assert Replay.objects.count() == 1 and Discrepancy.objects.count() == rows


# -- reads and the permission matrix -----------------------------------------------------------


ENDPOINTS = [
    ("get", "/api/tables/sessions/"),
    ("get", "/api/tables/sessions/{s}/"),
    ("get", "/api/tables/sessions/{s}/hand-logs/"),
    ("get", "/api/tables/dealer-errors/"),
    ("post", "/api/tables/sessions/{s}/hand-logs/"),
]
ALLOWED = {
    roles.DIRECTOR: {0, 1, 2, 3, 4},
    roles.COMMITTEE: {0, 1, 2, 3, 4},
    roles.CROUPIER: {0, 1, 2, 3, 4},
    roles.CASHIER: {0, 1},
    roles.OFFICER: {0, 1, 2, 3},
    roles.MACHINE: {4},  # the hand-log machine: the upload only
}


@pytest.mark.parametrize("role", [None, *roles.ALL_ROLES])
@pytest.mark.django_db
def test_permission_matrix(client, users, open_session, role, django_capture_on_commit_callbacks):
    if role is not None:
        client.force_login(users[role])
    for i, (method, url) in enumerate(ENDPOINTS):
        url = url.format(s=open_session.pk)
        with django_capture_on_commit_callbacks(execute=True):
            if method == "post":
                response = client.post(url, data=_log(100 + i), content_type="application/json")
            else:
                response = client.get(url)
        if role is None:
            assert response.status_code == 403, (url, response.status_code)
        elif i in ALLOWED[role]:
            assert response.status_code == (201 if method == "post" else 200), (
                role,
                url,
                response.status_code,
                response.content[:200],
            )
        else:
            assert response.status_code == 403, (role, url, response.status_code)
    # methods a view declares nothing for are refused (casino_ops.api.ActPermission)
    if role == roles.DIRECTOR:
        assert client.delete(f"/api/tables/sessions/{open_session.pk}/hand-logs/").status_code == 403
        assert client.put("/api/tables/sessions/").status_code == 403


@pytest.mark.django_db
def test_session_report_and_dealer_errors(croupier_client, open_session, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _post(croupier_client, open_session, _log(20, faults=["SETTLEMENT_MISMATCH"]))
    with CaptureQueriesContext(connection) as one:
        croupier_client.get(f"/api/tables/sessions/{open_session.pk}/")
    with django_capture_on_commit_callbacks(execute=True):
        for seed in range(21, 25):
            _post(croupier_client, open_session, _log(seed, faults=["SETTLEMENT_MISSING"]))
    with CaptureQueriesContext(connection) as five:
        report = croupier_client.get(f"/api/tables/sessions/{open_session.pk}/").json()
    assert len(one.captured_queries) == len(five.captured_queries)
    assert report["summary"]["hand_logs"] == 5 and report["summary"]["replayed"] == 5
    assert report["summary"]["by_code"]["SETTLEMENT_MISSING"] >= 4
    rows = croupier_client.get("/api/tables/dealer-errors/?by=croupier").json()
    assert len(rows) == 1 and rows[0]["hand_logs"] == 5
    assert rows[0]["by_code"] == report["summary"]["by_code"]
    by_table = croupier_client.get("/api/tables/dealer-errors/?by=table").json()
    assert by_table[0]["key"] == 3 and by_table[0]["rounds"] == report["summary"]["rounds"]
    assert croupier_client.get("/api/tables/dealer-errors/?by=nobody").status_code == 400
    assert croupier_client.get("/api/tables/sessions/999999/").status_code == 404


@pytest.mark.django_db
def test_a_log_checked_before_the_day_closed_is_still_refused_when_stored(open_session, staff):
    """The day closes between the upload's first check and its storing transaction: the
    storing transaction checks again under a share lock of the day, so nothing is stored."""
    import hashlib

    from casino_ops.regulations import RegulationError

    services.close_session(
        actor=staff["director"],
        session=open_session,
        closing_cash=D("30000.00"),
        counted_by=staff["croupier"],
        certified_exact=True,
    )
    services.close_day(actor=staff["director"], day=DAY)
    raw = _log(12)
    with pytest.raises(RegulationError) as refused:
        services._store_hand_log(
            actor=staff["croupier"],
            session=open_session,
            raw=raw,
            doc=json.loads(raw),
            digest=hashlib.sha256(raw).hexdigest(),
            source="api",
        )
    assert refused.value.code == "DAY_CLOSED"
    assert not HandLog.objects.exists()


@pytest.mark.django_db
def test_a_hand_log_post_reads_the_shoe_once_and_the_day_once_under_its_lock(croupier_client, open_session):
    """One POST: the sign-in (session, user, roles), the séance, the day (a closed day refused
    before any other check), its shoe (the labelled one, or any shoe of the séance: FR art. 40),
    the breaks of the bank, then the day read under its share lock, the row, its read-back for
    the chain, the commit: nothing read twice in the transaction (the busy day's bench,
    docs/development.md)."""
    body = _log(31, shoe_id="BJ03-S1")
    with CaptureQueriesContext(connection) as posted:
        response = _post(croupier_client, open_session, body)
    assert response.status_code == 201, response.content
    statements = [q["sql"] for q in posted.captured_queries]
    assert sum("tables_controlday" in sql for sql in statements) == 2, statements
    assert sum('FROM "tables_shoe"' in sql for sql in statements) == 1, statements
    # the croupier who sends his own log is the signed-in user: his row and roles read once
    assert sum('FROM "auth_group"' in sql for sql in statements) == 1, statements
    # 15 statements: the sign-in's session (1), user (2) and roles (3); the séance (4); the
    # approvals' gate of the act, for the day of the upload (5, LU art. 51); the day, a closed
    # day refused first (6); the shoe (7); the croupier's approval on the séance's day, when he
    # dealt (8, LU art. 51, 54, 63); the breaks of the bank (9); the savepoint (10), the day under
    # its share lock (11), the row (12), its read-back for the chain (13), the release (14); the
    # replay's state for the answer (15)
    assert len(statements) <= 15, statements
