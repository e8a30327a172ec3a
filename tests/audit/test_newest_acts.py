"""Removing the newest acts whole is seen: the sealer witnesses the chain's head every few
seconds outside the database (a head mark, authenticated with the event key), verify_audit
fails when the chain no longer holds a witnessed head and prints the window after the last
witnessed point; the events' ids are checked for gaps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from audit.checkpoints import latest_head_mark, make_checkpoint, witness_head
from tests.support.tampering import as_superuser_without_guard, record_events, run_verify_audit


@pytest.mark.django_db
def test_removing_the_newest_events_after_a_witnessed_head_fails_verify_audit(
    witness: Path, capsys: Any
) -> None:
    record_events(4)
    make_checkpoint()  # checkpoint no. 1 at event 4 (stored; the witness gets it after commit)
    record_events(3)
    mark = witness_head()
    assert mark is not None and mark.seq == 7
    assert latest_head_mark().seq == 7
    code, out, err = run_verify_audit(capsys)
    assert code == 0, err
    assert "WINDOW: 0 event(s) after the last witnessed head #7" in out
    record_events(2)
    code, out, err = run_verify_audit(capsys)
    assert code == 0, err
    assert "WINDOW: 2 event(s) after the last witnessed head #7" in out

    # a superuser removes the newest acts whole (events 6 to 9): the chain alone still holds
    as_superuser_without_guard("DELETE FROM audit_event WHERE seq > 5")
    code, out, err = run_verify_audit(capsys)
    assert code == 1 and "OK:" not in out
    assert "tête témoin #7" in err and "des événements ont disparu" in err


@pytest.mark.django_db
def test_a_head_mark_not_made_with_the_event_key_is_reported(
    witness: Path, capsys: Any, settings: Any
) -> None:
    record_events(3)
    witness_head()
    mark_file = next((witness / "heads").rglob("head-*.json"))
    data = json.loads(mark_file.read_text())
    data["hash"] = "0" * 64
    mark_file.chmod(0o644)
    mark_file.write_text(json.dumps(data))
    code, _out, err = run_verify_audit(capsys)
    assert code == 1 and "MAC" in err


@pytest.mark.django_db
def test_the_sealer_witnesses_the_head_every_few_seconds(witness: Path, settings: Any) -> None:
    from audit.chain import run_sealer
    from audit.management.commands.audit_sealer import head_witnessing

    settings.AUDIT_SEALING = "sealer"
    record_events(5)
    passes = iter(range(3))
    hook = head_witnessing(every=0.0, close_connections=False)  # the test's own connection
    run_sealer(lambda: next(passes, None) is None, interval=0.0, between_passes=hook)
    hook()
    assert latest_head_mark().seq == 5


@pytest.mark.django_db
def test_event_ids_are_checked_for_gaps(witness: Path, capsys: Any) -> None:
    record_events(6)
    as_superuser_without_guard("DELETE FROM audit_event WHERE seq > 4")
    record_events(1)  # the next act: its id leaves those of the removed events missing
    code, out, err = run_verify_audit(capsys)
    assert "ID GAP: 2 event id(s) missing" in out + err


@pytest.mark.django_db
def test_the_event_id_sequence_set_back_after_the_newest_acts_removed_is_named(
    witness: Path, capsys: Any, settings: Any
) -> None:
    """The newest acts, recorded (their ids given) but not yet sealed when the head was witnessed,
    removed whole, and the id sequence set back so that no id is missing: the head mark kept the
    highest id given, so the sequence set back below it is named (exit 1)."""
    from django.db import connection

    from audit.chain import seal_pending
    from audit.models import AuditEvent

    record_events(3)
    settings.AUDIT_SEALING = "sealer"
    record_events(2)  # ids given, waiting to be sealed
    mark = witness_head()
    assert mark is not None and mark.seq == 3
    highest = AuditEvent.objects.order_by("-id").values_list("id", flat=True).first()
    assert mark.last_id == highest
    code, _out, err = run_verify_audit(capsys)
    assert code == 0, err
    as_superuser_without_guard("DELETE FROM audit_event WHERE seq IS NULL")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence('audit_event', 'id'), (SELECT max(id) FROM audit_event))"
        )
    seal_pending()
    code, out, err = run_verify_audit(capsys)
    assert "ID GAP" not in out + err  # the sequence set back hides the ids
    assert code == 1
    assert "séquence des identifiants d'événements est revenue" in err and str(highest) in err
