"""Checkpoints chained, guarded by the database and written to a witness outside it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.db import connection, transaction
from django.db.utils import DatabaseError

import audit
from audit.actions import Action
from audit.chain import GENESIS, event_bytes, format_time
from audit.checkpoints import checkpoint_on_commit, make_checkpoint, witness_name
from audit.merkle import leaf_hash, root_of
from audit.models import AuditEvent, Checkpoint, MerkleNode
from tests.support.guards import restore_event_guard
from tests.support.tampering import (
    as_superuser_without_guard,
    checkpoints_and_merkle_nodes_deleted,
    checkpoints_as_superuser_without_guard,
    record_numbered_events,
    rewrite_whole_chain_with_recomputed_hashes,
)


def _leaves(upto: int) -> list[bytes]:
    return [
        leaf_hash(
            event_bytes(
                recorded_at=format_time(e.recorded_at),
                actor_name=e.actor_name,
                action=e.action,
                object_type=e.object_type,
                object_id=e.object_id,
                payload=e.payload,
            )
        )
        for e in AuditEvent.objects.filter(seq__lte=upto).order_by("seq")
    ]


@pytest.fixture
def checkpoint(django_capture_on_commit_callbacks: Any) -> Any:
    """make_checkpoint() and what follows its commit (the witness written)."""

    def make() -> Checkpoint | None:
        with django_capture_on_commit_callbacks(execute=True):
            return make_checkpoint()

    return make


def _verify_fails(capsys: Any) -> str:
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        call_command("verify_audit")
    assert exit_info.value.code == 1
    captured = capsys.readouterr()
    assert "OK:" not in captured.out
    return captured.err


@pytest.mark.django_db
def test_checkpoints_are_numbered_chained_sign_the_tree_head_and_are_witnessed(
    checkpoint: Any, witness: Path, capsys: Any
) -> None:
    record_numbered_events(3)
    first = checkpoint()
    record_numbered_events(300)
    second = checkpoint()
    assert (first.number, second.number) == (1, 2)
    assert first.prev_hash == GENESIS
    assert second.prev_hash == hashlib.sha256(first.statement.encode()).hexdigest() == first.statement_hash
    signed = json.loads(second.statement)
    assert signed["number"] == 2 and signed["prev"] == first.statement_hash
    assert signed["tree_size"] == signed["seq"] == 303
    assert signed["root"] == second.root_hash == root_of(_leaves(303)).hex()
    assert json.loads(first.statement)["root"] == root_of(_leaves(3)).hex()
    assert MerkleNode.objects.filter(level=8, index=0).exists()  # the first 256 events' subtree
    files = sorted(p.name for p in witness.iterdir())
    assert files == [witness_name(1), witness_name(2)]
    held = json.loads((witness / witness_name(2)).read_text())
    assert held["statement"] == second.statement and held["number"] == 2
    call_command("verify_audit")
    assert "2 signed checkpoint(s) hold, 2 witnessed in" in capsys.readouterr().out


@pytest.mark.django_db
def test_a_checkpoint_missing_from_the_witness_is_written_at_the_next_one(
    checkpoint: Any, witness: Path
) -> None:
    record_numbered_events(2)
    checkpoint()
    (witness / witness_name(1)).chmod(0o644)
    (witness / witness_name(1)).unlink()
    assert checkpoint().number == 1  # same head: nothing new signed, the witness caught up
    assert (witness / witness_name(1)).is_file()


@pytest.mark.django_db
def test_the_database_guards_the_checkpoints_and_the_merkle_nodes(checkpoint: Any, witness: Path) -> None:
    record_numbered_events(300)
    made = checkpoint()
    for sql in (
        "UPDATE audit_checkpoint SET head_hash = 'x'",
        "DELETE FROM audit_checkpoint",
        "TRUNCATE audit_checkpoint",
        "UPDATE audit_merkle_node SET hash = 'x'",
        "DELETE FROM audit_merkle_node",
        "TRUNCATE audit_merkle_node",
        "INSERT INTO audit_checkpoint (number, seq, head_hash, root_hash, prev_hash, statement_hash, made_at, "
        "statement, signature, signer) VALUES (3, 400, 'a', '', 'b', 'c', now(), '{}', '', 'x')",
        "INSERT INTO audit_checkpoint (number, seq, head_hash, root_hash, prev_hash, statement_hash, made_at, "
        f"statement, signature, signer) VALUES (2, 400, 'a', '', '{'0' * 64}', "
        "encode(sha256('{}'), 'hex'), now(), '{}', '', 'x')",
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL session_replication_role = replica")
                cursor.execute(sql)
    assert Checkpoint.objects.get().head_hash == made.head_hash
    assert MerkleNode.objects.count() == 1


def test_beat_signs_a_checkpoint_every_few_minutes() -> None:
    entries = [
        e for e in django_settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "audit.tasks.make_checkpoint"
    ]
    assert entries and entries[0]["schedule"] <= 600


@pytest.mark.django_db(transaction=True)
def test_checkpoint_on_commit_signs_once_the_day_is_closed(witness: Path) -> None:
    from celery import Celery

    from casino_ops.celery import app

    Celery(broker="memory://")  # another application made current (as a test's sender does)
    try:
        with transaction.atomic():
            audit.record(
                actor=None,
                action=Action.CONTROL_REGISTER_DAY_CLOSED,
                object_type="test.day",
                object_id=1,
                payload={},
            )
            checkpoint_on_commit()
            assert not Checkpoint.objects.exists()
    finally:
        app.set_current()
    made = Checkpoint.objects.get()
    assert made.seq == 1 and (witness / witness_name(1)).is_file()


@pytest.mark.django_db
def test_the_witness_may_be_any_django_storage(
    checkpoint: Any, settings: Any, signing_configured: Any, tmp_path: Path, capsys: Any
) -> None:
    settings.STORAGES = {
        **django_settings.STORAGES,
        "audit_witness": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path / "bucket")},
        },
    }
    settings.AUDIT_WITNESS_STORAGE = "audit_witness"
    settings.AUDIT_WITNESS_DIR = ""
    record_numbered_events(2)
    checkpoint()
    assert (tmp_path / "bucket" / witness_name(1)).is_file()
    checkpoints_as_superuser_without_guard("DELETE FROM audit_checkpoint")
    err = _verify_fails(capsys)
    assert "point de contrôle témoin n° 1 (séquence 2" in err and "storage audit_witness" not in err


# --- Tamper tests -------------------------------------------------------------


@pytest.mark.django_db
def test_checkpoints_deleted_and_the_chain_rewritten_with_recomputed_hashes_are_caught_by_the_witness(
    checkpoint: Any, witness: Path, capsys: Any
) -> None:
    """The attacker holds the database and the application's keys (event key and signing key)."""
    record_numbered_events(5)
    first = checkpoint()
    record_numbered_events(3)
    checkpoint()
    call_command("verify_audit")
    rewrite_whole_chain_with_recomputed_hashes(from_seq=2)
    checkpoints_and_merkle_nodes_deleted()
    err = _verify_fails(capsys)
    assert f"point de contrôle témoin n° 1 (séquence 5, signé le {format_time(first.made_at)}" in err
    assert "la base de données ne le contient plus" in err
    assert first.head_hash in err  # the signed hash the chain no longer has
    # the attacker signs fresh checkpoints over the rewritten chain: the witness keeps refusing it
    with pytest.raises(Exception, match="(?i)checkpoint|contrôle|témoin|conflict"):
        checkpoint()
    err = _verify_fails(capsys)
    assert "point de contrôle témoin n° 1 (séquence 5" in err


@pytest.mark.django_db
def test_truncating_both_tables_is_caught_by_the_witness(checkpoint: Any, witness: Path, capsys: Any) -> None:
    record_numbered_events(4)
    made = checkpoint()
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE audit_event DISABLE TRIGGER USER")
        cursor.execute("ALTER TABLE audit_checkpoint DISABLE TRIGGER USER")
        cursor.execute("TRUNCATE audit_event, audit_checkpoint")
        restore_event_guard(cursor)
        cursor.execute("ALTER TABLE audit_checkpoint ENABLE ALWAYS TRIGGER audit_checkpoint_guard_rows")
        cursor.execute("ALTER TABLE audit_checkpoint ENABLE ALWAYS TRIGGER audit_checkpoint_guard_truncate")
    err = _verify_fails(capsys)
    assert f"point de contrôle témoin n° 1 (séquence 4, signé le {format_time(made.made_at)}" in err
    assert "la chaîne s'arrête à 0" in err


@pytest.mark.django_db
def test_deleting_the_last_events_and_checkpoint_is_caught_by_the_witness(
    checkpoint: Any, witness: Path, capsys: Any
) -> None:
    record_numbered_events(3)
    checkpoint()
    record_numbered_events(2)
    second = checkpoint()
    as_superuser_without_guard("DELETE FROM audit_event WHERE seq > 3")
    checkpoints_as_superuser_without_guard("DELETE FROM audit_checkpoint WHERE number = 2")
    err = _verify_fails(capsys)
    assert f"point de contrôle témoin n° 2 (séquence 5, signé le {format_time(second.made_at)}" in err


@pytest.mark.django_db
def test_verify_audit_merkle_rebuilds_the_tree_heads_and_the_stored_subtrees(
    checkpoint: Any, witness: Path, capsys: Any
) -> None:
    record_numbered_events(300)
    checkpoint()
    record_numbered_events(20)
    checkpoint()
    call_command("verify_audit", "--merkle")
    assert (
        "2 witnessed in" in (out := capsys.readouterr().out)
        and "Merkle tree heads and stored subtrees hold" in out
    )
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE audit_merkle_node DISABLE TRIGGER USER")
        cursor.execute("UPDATE audit_merkle_node SET hash = repeat('ab', 32) WHERE level = 8 AND index = 0")
        cursor.execute("ALTER TABLE audit_merkle_node ENABLE ALWAYS TRIGGER audit_merkle_node_guard_rows")
    call_command("verify_audit")  # the chain itself holds
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        call_command("verify_audit", "--merkle")
    assert exit_info.value.code == 1
    assert "le nœud 8/0 de l'arbre de Merkle ne correspond pas aux événements" in capsys.readouterr().err


@pytest.mark.django_db(transaction=True)
def test_the_close_of_a_day_signs_a_checkpoint(witness: Path, director: Any) -> None:
    import datetime as dt

    from tables.services import close_day

    close_day(actor=director, day=dt.date(2026, 11, 30))
    made = Checkpoint.objects.get()
    assert (witness / witness_name(made.seq)).is_file()
