"""The hand-log path end to end with a real Celery worker on Redis:
API upload -> stored -> queued on commit -> replayed by the worker -> discrepancies stored;
a duplicate upload is refused without a second replay, and a task run twice stores one result."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from audit.models import AuditEvent
from tables.blackjack.simulator import simulate
from tables.models import Discrepancy, HandLog, Replay

D = Decimal


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_api_upload_replayed_by_a_real_worker(
    celery_worker_on_redis, finished_tasks, client, staff, open_session
):
    from django.conf import settings

    from casino_ops.celery import app
    from tables.tasks import replay_hand_log

    assert not app.conf.task_always_eager and settings.CELERY_BROKER_URL.startswith("redis://")
    client.force_login(staff["croupier"])
    sim = simulate(
        31,
        "FR",
        limits=("10.00", "1000.00"),
        table="BJ03",
        faults=["SETTLEMENT_MISMATCH", "ILLEGAL_INSURANCE"],
    )
    body = json.dumps(sim.log).encode()
    url = f"/api/tables/sessions/{open_session.pk}/hand-logs/"
    response = client.post(url, data=body, content_type="application/json")
    assert response.status_code == 201, response.content
    log_id = response.json()["id"]
    assert finished_tasks.wait(replay_hand_log, log_id), "the worker did not replay the log"
    assert Replay.objects.filter(hand_log_id=log_id).exists()
    codes = set(Discrepancy.objects.filter(hand_log_id=log_id).values_list("code", flat=True))
    assert {"SETTLEMENT_MISMATCH", "ILLEGAL_INSURANCE"} <= codes
    # the engine names the insured stake "amount": it is the recorded column
    insurance = Discrepancy.objects.filter(hand_log_id=log_id, code="ILLEGAL_INSURANCE").first()
    assert insurance.recorded is not None and insurance.recorded > 0
    replay = Replay.objects.get(hand_log_id=log_id)
    assert replay.discrepancy_count == Discrepancy.objects.filter(hand_log_id=log_id).count()

    # the same bytes again: refused, nothing stored, nothing queued
    again = client.post(url, data=body, content_type="application/json")
    assert again.status_code == 400 and again.json()["code"] == "HAND_LOG_DUPLICATE"
    # the task delivered twice (a retry, a redelivery) stores one result
    replay_hand_log.delay(log_id)
    replay_hand_log.delay(log_id)
    assert finished_tasks.wait(replay_hand_log, log_id, count=3), "both deliveries handled by the worker"
    assert HandLog.objects.count() == 1 and Replay.objects.count() == 1
    assert Discrepancy.objects.filter(hand_log_id=log_id).count() == replay.discrepancy_count
    assert AuditEvent.objects.filter(action="hand_log.replayed").count() == 1
