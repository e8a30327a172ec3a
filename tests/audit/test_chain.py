"""The hash-chained audit record: recording, sealing, the database guard, verification."""

from __future__ import annotations

import threading

import pytest
from django.core.management import call_command
from django.db import connection, connections, transaction
from django.db.utils import DatabaseError

import audit
from audit.actions import Action
from audit.chain import GENESIS, canonical_json, event_hash, format_time, seal_pending, verify_chain
from audit.models import AuditEvent
from tests.support.guards import AUDIT_EVENT_TRIGGERS
from tests.support.tampering import as_superuser_without_guard


def _record(n: int = 1, actor=None, **payload) -> list[AuditEvent]:
    events = []
    with transaction.atomic():
        for i in range(n):
            events.append(
                audit.record(
                    actor=actor,
                    action=Action.TABLE_CREATED,
                    object_type="test.thing",
                    object_id=i,
                    payload=payload,
                )
            )
    return events


def test_canonical_json_sorts_keys_and_is_stable():
    assert canonical_json({"b": 1, "a": {"d": "é", "c": [1, 2]}}) == '{"a":{"c":[1,2],"d":"é"},"b":1}'


@pytest.mark.django_db
def test_record_seals_an_event_with_seq_and_chained_hash(director):
    first, second = _record(2, actor=director, amount="10.00")
    assert (first.seq, second.seq) == (1, 2)
    assert first.prev_hash == GENESIS
    assert second.prev_hash == first.hash
    assert first.actor_name == director.username
    expected = event_hash(
        prev_hash=GENESIS,
        seq=1,
        recorded_at=format_time(first.recorded_at),
        actor_name=director.username,
        action=Action.TABLE_CREATED,
        object_type="test.thing",
        object_id="0",
        payload='{"amount":"10.00"}',
    )
    assert first.hash == expected


@pytest.mark.django_db(transaction=True)
def test_record_outside_a_transaction_is_refused():
    with pytest.raises(RuntimeError, match="inside the transaction"):
        audit.record(actor=None, action=Action.TABLE_CREATED, object_type="t", object_id=1, payload={})


@pytest.mark.django_db
def test_an_act_that_rolls_back_leaves_no_event():
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        audit.record(actor=None, action=Action.TABLE_CREATED, object_type="t", object_id=1, payload={})
        1 / 0  # noqa: B018
    assert AuditEvent.objects.count() == 0


@pytest.mark.django_db
def test_the_database_refuses_update_delete_and_truncate():
    _record(2)
    for sql in (
        "UPDATE audit_event SET payload = '{}' WHERE seq = 1",
        "UPDATE audit_event SET seq = 7 WHERE seq = 1",
        "DELETE FROM audit_event WHERE seq = 2",
        "TRUNCATE audit_event",
        "INSERT INTO audit_event (recorded_at, actor_name, action, object_type, object_id, payload, "
        "seq, prev_hash, hash, sealed_at) VALUES (now(), 'x', 'x', 'x', '1', '{}', 3, 'a', 'b', now())",
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(sql)
    assert AuditEvent.objects.filter(seq__isnull=False).count() == 2


@pytest.mark.django_db
def test_the_guard_lets_through_only_the_one_seal_of_a_pending_event(settings):
    """The guard's WHEN conditions: an unsealed event may be sealed (seq, prev_hash,
    hash, sealed_at, all four, nothing else), once; every other change is refused,
    pending or sealed, NULLs included."""
    settings.AUDIT_SEALING = "sealer"
    _record(1)  # pending: inline mode would have sealed it
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, mac FROM audit_event WHERE seq IS NULL")
        ((event_id, mac),) = cursor.fetchall()
    seal = "seq = 1, prev_hash = 'p', hash = 'h', sealed_at = now()"
    refused = [
        "payload = '{\"forged\":1}'",
        "mac = NULL",
        f"mac = '{'0' * 64}'",
        "actor_id = 42",
        "seq = 1",  # a seal without its hashes
        "seq = 1, prev_hash = 'p', hash = 'h'",  # without its moment
        f"{seal}, payload = '{{\"forged\":1}}'",  # a seal that also rewrites the content
        f"{seal}, object_id = 'x'",
        f"{seal}, recorded_at = now()",
        f"{seal}, mac = NULL",
        f"{seal}, actor_name = 'someone else'",
    ]
    for change in refused:
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(f"UPDATE audit_event SET {change} WHERE id = %s", [event_id])
    for column in ("seq", "hash", "prev_hash", "sealed_at"):
        value = "1" if column == "seq" else "now()" if column == "sealed_at" else "'x'"
        with pytest.raises(DatabaseError, match="inserted unsealed"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(
                    "INSERT INTO audit_event (recorded_at, actor_name, action, object_type, object_id, "
                    f"payload, {column}) VALUES (now(), 'x', 'x', 'x', '1', '{{}}', {value})"
                )
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE audit_event SET {seal} WHERE id = %s", [event_id])  # the seal passes
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:  # and a sealed event is never sealed again
            cursor.execute("UPDATE audit_event SET seq = 2, prev_hash = 'q', hash = 'i', sealed_at = now()")
    event = AuditEvent.objects.get()
    assert (event.seq, event.hash, event.mac) == (1, "h", mac)


@pytest.mark.django_db
def test_every_guard_trigger_of_the_record_fires_always():
    """Each of the record's triggers is ENABLE ALWAYS (replica mode skips none); the list
    the tests restore after tampering is the whole of it."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = 'audit_event'::regclass "
            "AND NOT tgisinternal ORDER BY tgname"
        )
        found = dict(cursor.fetchall())
    assert found == dict.fromkeys(sorted(AUDIT_EVENT_TRIGGERS), "A")


@pytest.mark.django_db
def test_the_guard_holds_in_replica_mode():
    """ENABLE ALWAYS: session_replication_role = replica does not skip the triggers."""
    _record(1)
    with pytest.raises(DatabaseError), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = replica")
            cursor.execute("DELETE FROM audit_event")
    assert AuditEvent.objects.count() == 1


@pytest.mark.django_db
def test_verify_holds_on_an_intact_chain():
    _record(5)
    result = verify_chain()
    assert result.ok and result.events == 5
    assert result.head_hash == AuditEvent.objects.get(seq=5).hash


@pytest.mark.django_db
def test_verify_finds_an_edited_payload():
    _record(5, note="a\\b\ttab")  # escapes travel through COPY too
    assert verify_chain().ok
    as_superuser_without_guard('UPDATE audit_event SET payload = \'{"note":"forged"}\' WHERE seq = 3')
    result = verify_chain()
    assert result.broken_at == 3
    assert "content" in result.reason


@pytest.mark.django_db
def test_verify_finds_a_deleted_event():
    _record(5)
    as_superuser_without_guard("DELETE FROM audit_event WHERE seq = 2")
    result = verify_chain()
    assert result.broken_at == 2
    assert "missing" in result.reason


@pytest.mark.django_db
def test_verify_finds_an_event_inserted_in_the_middle():
    _record(5)
    fake_prev = AuditEvent.objects.get(seq=3).hash
    as_superuser_without_guard(
        "UPDATE audit_event SET seq = seq + 1000 WHERE seq >= 4; "
        "UPDATE audit_event SET seq = seq - 999 WHERE seq >= 1004"
    )
    as_superuser_without_guard(
        "INSERT INTO audit_event (recorded_at, actor_name, action, object_type, object_id, payload, "
        "seq, prev_hash, hash, sealed_at) VALUES (now(), 'intruder', 'x', 'x', '1', '{}', 4, %s, %s, now())",
        [fake_prev, "f" * 64],
    )
    result = verify_chain()
    assert result.broken_at == 4


@pytest.mark.django_db
def test_verify_audit_command_exit_codes(capsys):
    _record(3)
    call_command("verify_audit")
    assert "OK: 3 events" in capsys.readouterr().out
    as_superuser_without_guard("UPDATE audit_event SET action = 'forged' WHERE seq = 2")
    with pytest.raises(SystemExit) as exit_info:
        call_command("verify_audit")
    assert exit_info.value.code == 1
    assert "#2" in capsys.readouterr().err


@pytest.mark.django_db
def test_sealer_mode_leaves_events_pending_until_sealed(settings):
    settings.AUDIT_SEALING = "sealer"
    assert _record(3) == [None, None, None]  # held for the commit: no event to return yet
    assert verify_chain().pending == 3
    assert seal_pending() == 3
    assert list(AuditEvent.objects.values_list("seq", flat=True)) == [1, 2, 3]
    assert verify_chain().ok


def _concurrent_writers(n_threads: int, per_thread: int, sealer: bool) -> None:
    barrier = threading.Barrier(n_threads)
    errors: list[BaseException] = []

    def work(index: int) -> None:
        try:
            barrier.wait()
            for _ in range(per_thread):
                with transaction.atomic():
                    audit.record(
                        actor=None,
                        action=Action.TABLE_CREATED,
                        object_type="thread",
                        object_id=index,
                        payload={},
                    )
                if sealer and index % 4 == 0:
                    seal_pending()
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n_threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


@pytest.mark.parametrize("mode", ["inline", "sealer"])
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_transactions_leave_one_unbroken_chain(settings, mode):
    settings.AUDIT_SEALING = mode
    _concurrent_writers(20, 10, sealer=mode == "sealer")
    seal_pending()
    seqs = list(AuditEvent.objects.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, 201))  # no gap, no duplicate, nothing left unsealed
    result = verify_chain()
    assert result.ok and result.events == 200 and result.pending == 0


def test_record_builds_its_event_in_the_fields_order():
    """record() builds the event positionally (the cheaper way): the order it relies on."""
    names = [f.attname for f in AuditEvent._meta.concrete_fields]
    assert names[:10] == [
        "id", "seq", "recorded_at", "actor_id", "actor_name", "action", "object_type", "object_id", "payload", "mac"
    ]  # fmt: skip
