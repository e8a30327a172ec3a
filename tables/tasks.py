"""Celery tasks of the tables: they take ids and call a service; each is idempotent."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from . import services


@shared_task(  # type: ignore[untyped-decorator]  # celery ships no type hints
    name="tables.replay_hand_log",
    ignore_result=True,  # the outcome is the Replay row; no task-result row per log
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def replay_hand_log(hand_log_id: int) -> int:
    """Replay a stored hand log (FR art. 55-4, 55-5; LU art. 32, 33); returns its discrepancies."""
    return services.replay_hand_log(hand_log_id=hand_log_id).discrepancy_count


@shared_task(  # type: ignore[untyped-decorator]  # celery ships no type hints
    name="tables.replay_hand_logs",
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def replay_hand_logs(hand_log_ids: list[int]) -> int:
    """Replay stored hand logs received together, each in its own transaction (a retry replays
    only those not yet replayed: each replay is idempotent); returns their discrepancies."""
    return sum(r.discrepancy_count for r in services.replay_hand_logs(hand_log_ids=hand_log_ids))
