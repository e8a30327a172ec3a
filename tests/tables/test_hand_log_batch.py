"""Several hand logs of one séance in one request (``POST sessions/<id>/hand-logs/batch/``,
docs/hand-log.md section 7): each log received on its own, in order, as the single upload
receives it (the same refusals, the same answer, the same audit event), its bytes exactly those
sent in base64; their replays queued as one task, each log still replayed in its own
transaction."""

from __future__ import annotations

import base64
import json
from typing import Any
from unittest import mock

import pytest

from audit.actions import Action
from audit.models import AuditEvent
from tables import services
from tables.blackjack.simulator import simulate_shoe
from tables.models import HandLog, Replay
from tables.serializers import MAX_HAND_LOGS_PER_BATCH
from tables.services import hand_logs

SINGLE = "/api/tables/sessions/{}/hand-logs/"
BATCH = "/api/tables/sessions/{}/hand-logs/batch/"


def _log(seed: int, **kw: Any) -> bytes:
    kw.setdefault("table", "BJ03")
    kw.setdefault("limits", ("10.00", "1000.00"))
    return json.dumps(simulate_shoe(seed, "FR", **kw)).encode()


def _batch(client: Any, session: Any, logs: list[bytes]) -> Any:
    body = {"logs": [base64.b64encode(raw).decode() for raw in logs]}
    return client.post(BATCH.format(session.pk), data=json.dumps(body), content_type="application/json")


def _single(client: Any, session: Any, raw: bytes) -> Any:
    return client.post(SINGLE.format(session.pk), data=raw, content_type="application/json")


def _received() -> int:
    return AuditEvent.objects.filter(action=Action.HAND_LOG_RECEIVED).count()


@pytest.mark.django_db
def test_each_log_is_received_or_refused_on_its_own_with_the_single_uploads_answer(
    croupier_client, open_session
):
    good, other = _log(1), _log(2)
    pretty = json.dumps(json.loads(_log(3)), indent=2).encode()  # newlines kept byte for byte
    wrong_table = _log(4, table="BJ09")
    response = _batch(croupier_client, open_session, [good, wrong_table, good, pretty, other])
    assert response.status_code == 200, response.content
    results = response.json()["results"]
    assert [r["status"] for r in results] == [201, 400, 400, 201, 201]
    assert results[1]["body"]["code"] == "HAND_LOG_TABLE"
    assert results[2]["body"]["code"] == "HAND_LOG_DUPLICATE"
    # the logs stored byte for byte, in order, one audit event each; nothing of the refused ones
    stored = list(HandLog.objects.order_by("pk"))
    assert [log.raw.encode() for log in stored] == [good, pretty, other]
    assert [r["body"]["id"] for r in results if r["status"] == 201] == [log.pk for log in stored]
    assert _received() == 3
    # a refusal is the single upload's very body for the same bytes
    for raw, result in ((wrong_table, results[1]), (good, results[2])):
        alone = _single(croupier_client, open_session, raw)
        assert alone.status_code == 400 and alone.json() == result["body"]
    # an answer is the single upload's, key for key (the replay still pending here)
    answer = _single(croupier_client, open_session, _log(5))
    assert answer.status_code == 201
    assert set(results[0]["body"]) == set(answer.json())
    assert results[0]["body"]["replay"]["state"] == "pending"
    assert results[0]["body"]["sha256"] == stored[0].sha256
    assert _received() == 4


@pytest.mark.django_db
def test_the_replays_of_a_batch_are_queued_as_one_task_once_committed(
    croupier_client, open_session, django_capture_on_commit_callbacks
):
    with (
        mock.patch.object(hand_logs.replay_batch_task, "delay") as batch,
        mock.patch.object(hand_logs.replay_task, "delay") as single,
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = _batch(croupier_client, open_session, [_log(1), _log(2), _log(1), _log(3)])
    assert [r["status"] for r in response.json()["results"]] == [201, 201, 400, 201]
    ids = list(HandLog.objects.order_by("pk").values_list("pk", flat=True))
    batch.assert_called_once_with(ids)
    single.assert_not_called()
    # one log received alone in a batch is queued as the single upload queues it
    with (
        mock.patch.object(hand_logs.replay_batch_task, "delay") as batch,
        mock.patch.object(hand_logs.replay_task, "delay") as single,
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = _batch(croupier_client, open_session, [_log(4), _log(4)])
    single.assert_called_once_with(HandLog.objects.latest("pk").pk)
    batch.assert_not_called()


@pytest.mark.django_db(transaction=True)
def test_a_batch_replayed_at_once_answers_each_replay_as_the_single_upload_does(
    croupier_client, open_session
):
    """Without a worker (the tasks run in the request), each log is replayed in its own
    transaction before the answer, which then says each replay's outcome."""
    logs = [_log(1), _log(2, faults=["SETTLEMENT_MISMATCH"])]
    response = _batch(croupier_client, open_session, logs)
    results = response.json()["results"]
    assert [r["body"]["replay"]["state"] for r in results] == ["done", "done"]
    for result in results:
        replay = Replay.objects.get(hand_log_id=result["body"]["id"])
        assert result["body"]["replay"]["ok"] is replay.ok
        assert result["body"]["replay"]["discrepancies"] == replay.discrepancy_count
        assert result["body"]["incidents"] == []
    assert results[1]["body"]["replay"]["ok"] is False
    assert Replay.objects.count() == 2
    replayed = AuditEvent.objects.filter(action=Action.HAND_LOG_REPLAYED).count()
    assert replayed == 2


@pytest.mark.django_db
def test_the_batch_task_replays_each_log_once_and_the_others_when_one_fails(staff, open_session):
    logs = [
        services.upload_hand_log(actor=staff["croupier"], session=open_session, raw=_log(s), source="api")
        for s in (1, 2)
    ]
    ids = [log.pk for log in logs]
    with pytest.raises(HandLog.DoesNotExist):
        services.replay_hand_logs(hand_log_ids=[ids[0], 10**9, ids[1]])
    assert Replay.objects.filter(hand_log_id__in=ids).count() == 2
    again = services.replay_hand_logs(hand_log_ids=ids)  # a retried task stores nothing more
    assert [r.hand_log_id for r in again] == ids and Replay.objects.count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"logs": ["not base64!"]}, "FIELD_INVALID", "logs"),
        ({"logs": []}, "FIELD_INVALID", "logs"),
        ({"logs": ["e30="] * (MAX_HAND_LOGS_PER_BATCH + 1)}, "FIELD_INVALID", "logs"),
        ({}, "FIELD_REQUIRED", "logs"),
    ],
)
def test_a_bad_batch_is_refused_whole_and_nothing_is_stored(croupier_client, open_session, body, code, field):
    response = croupier_client.post(
        BATCH.format(open_session.pk), data=json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 400, response.content
    refusal = response.json()
    assert refusal["field"] == field and refusal["code"] == code
    assert not HandLog.objects.exists() and _received() == 0


@pytest.mark.django_db
def test_a_batch_not_json_or_for_no_seance_is_refused(croupier_client, open_session):
    bad = croupier_client.post(BATCH.format(open_session.pk), data=b"{", content_type="application/json")
    assert bad.status_code == 400 and bad.json()["code"] == "PARSE_ERROR"
    assert _batch(croupier_client, type(open_session)(pk=10**9), [_log(1)]).status_code == 404
    assert not HandLog.objects.exists()


@pytest.mark.django_db
def test_a_log_too_large_in_a_batch_is_refused_alone(croupier_client, open_session):
    with mock.patch("tables.rules.logs.MAX_HAND_LOG_BYTES", 64 * 1024):
        response = _batch(croupier_client, open_session, [b"[" + b" " * 70_000 + b"]", _log(1)])
    results = response.json()["results"]
    assert [r["status"] for r in results] == [400, 201]
    assert results[0]["body"]["code"] == "HAND_LOG_TOO_LARGE" and HandLog.objects.count() == 1


@pytest.mark.django_db
def test_a_batch_needs_the_right_to_upload(client, staff, open_session):
    client.force_login(staff["officer"])
    response = _batch(client, open_session, [_log(1)])
    assert response.status_code == 403
    assert not HandLog.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("entry", ["e30=\n", "e30", "e3\u00000=", "é30=", 12])
def test_an_entry_other_than_padded_base64_is_refused(croupier_client, open_session, entry):
    response = croupier_client.post(
        BATCH.format(open_session.pk), data=json.dumps({"logs": [entry]}), content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["field"] == "logs", response.content
    assert not HandLog.objects.exists()


@pytest.mark.django_db
def test_the_hand_log_machines_token_sends_a_batch_and_nothing_else(users, open_session):
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from casino_ops import roles

    token = Token.objects.create(user=users[roles.MACHINE])
    machine = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = _batch(machine, open_session, [_log(1), _log(2)])
    assert response.status_code == 200, response.content
    assert [r["status"] for r in response.json()["results"]] == [201, 201]
    refused = machine.post(
        f"/api/tables/sessions/{open_session.pk}/hand-logs/batch/x/",
        data=b"{}",
        content_type="application/json",
    )
    assert refused.status_code in (403, 404)
    assert machine.get(BATCH.format(open_session.pk)).json()["code"] == "TOKEN_NOT_ALLOWED"


@pytest.mark.django_db
def test_a_batch_over_its_size_is_refused_whole(croupier_client, open_session):
    with mock.patch("tables.rules.logs.MAX_HAND_LOG_BATCH_BYTES", 1024):
        response = _batch(croupier_client, open_session, [_log(1)])
    assert response.status_code == 400 and response.json()["code"] == "HAND_LOG_TOO_LARGE"
    assert not HandLog.objects.exists()
