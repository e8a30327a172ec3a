"""Inline sealing on PostgreSQL: one round trip for the event and its seal's reads,
the seal itself sent with the COMMIT (audit.chain.seal.insert_and_seal), and the
backend's batch that carries them (casino_ops.postgresql)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.db import IntegrityError, connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import audit
from audit.actions import Action
from audit.chain import FORGED_ACTION, verify_chain
from audit.chain.seal import INSERT_SQL
from audit.models import AuditEvent


@pytest.fixture
def inline(settings):
    settings.AUDIT_SEALING = "inline"


@pytest.fixture
def batches(monkeypatch) -> list[str]:
    """The simple queries the connection sends for its held writes and batches."""
    sent: list[str] = []
    send = connection._send_held

    def spy(sql: str) -> None:
        sent.append(sql)
        send(sql)

    monkeypatch.setattr(connection, "_send_held", spy)
    return sent


def _act(name: str) -> tuple[Group, AuditEvent | None]:
    with transaction.atomic():
        group = Group.objects.create(name=f"t-{name}")
        event = audit.record(actor=None, action=Action.TABLE_CREATED, obj=group, payload={"name": name})
    return group, event


@pytest.mark.django_db(transaction=True)
def test_an_inline_record_is_one_round_trip_and_its_seal_goes_with_the_commit(inline, batches):
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        group = Group.objects.create(name="t-table 1")
        event = audit.record(actor=None, action=Action.TABLE_CREATED, obj=group, payload={"name": "t"})
        held = list(connection._deferred)
    # Nothing through Django's cursor; one batch: the lock, the INSERT, the two reads.
    assert not any("audit_event" in q["sql"] for q in queries.captured_queries)
    first, commit = batches
    assert first.index("pg_advisory_xact_lock") < first.index("EXECUTE audit_event_insert_id(")
    assert first.index("EXECUTE audit_event_insert_id(") < first.index("EXECUTE audit_event_pending;")
    assert first.endswith("EXECUTE audit_event_head")
    # The seal was held, then sent with the COMMIT.
    assert held[-1].startswith("EXECUTE audit_event_seal(1, '0000")
    assert commit.startswith(held[0]) and commit.endswith("; COMMIT")
    stored = AuditEvent.objects.get()
    assert event is not None and (event.pk, event.seq, event.hash) == (stored.pk, 1, stored.hash)
    assert stored.sealed_at is not None and stored.object_id == str(group.pk)
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_statements_are_prepared_once_per_connection(inline, batches):
    connection.close()
    _act("first")
    _act("second")
    assert "PREPARE audit_event_insert_id AS" in batches[0]
    assert "PREPARE audit_event_seal AS" in batches[1]
    assert not any("PREPARE" in sql for sql in batches[2:])
    assert [e.seq for e in AuditEvent.objects.order_by("id")] == [1, 2]
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_acts_in_one_transaction_are_chained_in_order(inline):
    with transaction.atomic():
        first = audit.record(actor=None, action=Action.TABLE_CREATED, object_type="t", object_id=1)
        second = audit.record(actor=None, action=Action.TABLE_CREATED, object_type="t", object_id=2)
        # the transaction reads its own seals (the held one is sent before the read)
        assert list(AuditEvent.objects.values_list("object_id", "seq")) == [("1", 1), ("2", 2)]
    assert first is not None and second is not None
    assert (first.seq, second.seq, second.prev_hash) == (1, 2, first.hash)
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_an_inline_act_seals_what_was_left_pending_first(inline, settings):
    settings.AUDIT_SEALING = "sealer"
    waiting, _ = _act("waiting")
    settings.AUDIT_SEALING = "inline"
    _, event = _act("now")
    assert event is not None and event.seq == 2
    assert list(AuditEvent.objects.order_by("seq").values_list("object_id", flat=True))[0] == str(waiting.pk)
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_a_savepoint_rolled_back_takes_its_event_and_seal(inline):
    with transaction.atomic():
        _act("kept")
        try:
            with transaction.atomic():
                _act("dropped")
                raise ValueError
        except ValueError:
            pass
        _act("after")
    assert list(AuditEvent.objects.order_by("seq").values_list("seq", "payload")) == [
        (1, '{"name":"kept"}'),
        (2, '{"name":"after"}'),
    ]
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_a_forged_pending_event_is_left_out_and_reported(inline):
    with connection.cursor() as cursor:
        cursor.execute(
            f"{INSERT_SQL} RETURNING id",
            [timezone.now(), None, "system", "table.created", "t", "9", "{}", "0" * 64],
        )
        (forged,) = cursor.fetchone()
    _, event = _act("genuine")
    assert AuditEvent.objects.get(pk=forged).seq is None
    alarm = AuditEvent.objects.get(action=FORGED_ACTION)
    assert (alarm.object_id, alarm.seq, event.seq) == (str(forged), 2, 1)  # alarms after the genuine
    assert verify_chain().chain_ok


@pytest.mark.django_db(transaction=True)
def test_concurrent_inline_writers_never_fork_the_chain(inline):
    """Four threads, each its own connection, each 15 acts: one unbroken chain."""
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def writer(n: int) -> None:
        try:
            start.wait()
            for i in range(15):
                with transaction.atomic():
                    audit.record(
                        actor=None, action=Action.TABLE_CREATED, object_type="t", object_id=f"{n}-{i}"
                    )
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(AuditEvent.objects.values_list("seq", flat=True)) == list(range(1, 61))
    result = verify_chain()
    assert result.ok and result.pending == 0


# -- the backend's batch ------------------------------------------------------------


def _rows(statements: list[tuple[str, list[Any], str | None]]) -> list[list[tuple[Any, ...]]]:
    return connection.batch(statements)


@pytest.mark.django_db(transaction=True)
def test_a_batch_sends_the_held_writes_first_and_returns_each_statements_rows(batches):
    with transaction.atomic():
        connection.defer("INSERT INTO auth_group (name) VALUES (%s)", ["t-held"])
        counted, none, names = _rows(
            [
                ("SELECT count(*) FROM auth_group WHERE name = %s", ["t-held"], None),
                ("UPDATE auth_group SET name = %s WHERE name = %s", ["t-renamed", "t-held"], None),
                ("SELECT name FROM auth_group WHERE name LIKE %s ORDER BY name", ["t-%"], "test_names"),
            ]
        )
        assert connection._deferred == []
    assert (counted, none, names) == ([(1,)], [], [("t-renamed",)])
    assert len(batches) == 1 and batches[0].startswith("INSERT INTO auth_group")
    assert "PREPARE test_names AS SELECT name FROM auth_group WHERE name LIKE $1" in batches[0]


@pytest.mark.django_db(transaction=True)
def test_a_prepared_statement_without_parameters_is_executed_bare(batches):
    connection.close()
    with transaction.atomic():
        assert _rows([("SELECT 41 + 1", [], "test_answer")]) == [[(42,)]]
        assert _rows([("SELECT 41 + 1", [], "test_answer")]) == [[(42,)]]
    assert batches[1] == "EXECUTE test_answer"


@pytest.mark.django_db(transaction=True)
def test_a_batch_is_refused_outside_a_transaction():
    with pytest.raises(RuntimeError, match="transaction"):
        _rows([("SELECT 1", [], None)])


@pytest.mark.django_db(transaction=True)
def test_a_wrong_batch_keeps_the_held_writes_and_prepares_nothing(batches):
    connection.close()
    with transaction.atomic():
        connection.defer("INSERT INTO auth_group (name) VALUES (%s)", ["t-kept"])
        with pytest.raises(ValueError, match="1 placeholders for 2 values"):
            _rows([("SELECT %s::int", [1], "test_one"), ("SELECT %s", [1, 2], None)])
        assert len(connection._deferred) == 1
    assert Group.objects.filter(name="t-kept").exists()
    with transaction.atomic():
        assert _rows([("SELECT %s::int", [7], "test_one")]) == [[(7,)]]
    assert "PREPARE test_one AS SELECT $1::int" in batches[-1]


@pytest.mark.django_db(transaction=True)
def test_a_failing_batch_fails_the_transaction_with_its_held_writes():
    with pytest.raises(IntegrityError), transaction.atomic():
        connection.defer("INSERT INTO auth_group (name) VALUES (%s)", ["t-lost"])
        _rows([("INSERT INTO auth_group (name) VALUES (%s)", ["t-lost"], None)])  # unique name
    assert not Group.objects.filter(name="t-lost").exists()
    with transaction.atomic():
        assert _rows([("SELECT 1", [], None)]) == [[(1,)]]  # the connection is usable again
