"""The casino pushes its checkpoints to the authority's witnesses (a real witness process on
its own PostgreSQL database) and stores their cosignatures; a refusal, a witness out of reach
past the delay, a witness that lost its state each seal their alarm in the record."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from audit import notes as casino_notes
from audit import witnesses
from audit.actions import Action
from audit.models import AuditEvent, CheckpointNote, Cosignature, WitnessState
from tests.support.tampering import record_numbered_events, run_verify_audit
from tests.support.witness_process import (  # noqa: F401 - the fixtures
    WitnessServer,
    checkpoint_note,
    second_witness_server,
    witness_server,
)
from tlog import checkpoint as checkpoints
from tlog import note as notes

pytestmark = pytest.mark.django_db


def _alarms(action: Action) -> list[dict[str, Any]]:
    import json

    return [json.loads(e.payload) for e in AuditEvent.objects.filter(action=action).order_by("seq")]


def test_the_checkpoint_is_a_c2sp_signed_note(
    settings: Any, signing_configured: Any, django_capture_on_commit_callbacks: Any
) -> None:
    note = checkpoint_note(django_capture_on_commit_callbacks, 5)
    key = notes.Signer.from_skey(settings.AUDIT_NOTE_KEY)
    opened = notes.open_note(note.note, [key.verifier])
    head = checkpoints.parse(opened.text)
    assert (head.origin, head.size, head.root.hex()) == (key.name, 5, note.checkpoint.root_hash)
    assert note.checkpoint.seq == 5 and casino_notes.note_for(note.checkpoint) == note  # made once


def test_pushed_cosigned_and_stored_in_order(
    casino_log: WitnessServer, django_capture_on_commit_callbacks: Any
) -> None:
    first = checkpoint_note(django_capture_on_commit_callbacks, 3)
    second = checkpoint_note(django_capture_on_commit_callbacks, 4)
    [outcome] = witnesses.push_all()
    assert outcome.cosigned == [3, 7] and not outcome.refused and not outcome.failing
    for note in (first, second):
        names, quorum = witnesses.cosigned_by(note)
        assert names == {"A"} and quorum
    assert WitnessState.objects.get(witness="A").size == 7
    third = checkpoint_note(django_capture_on_commit_callbacks, 2)
    assert witnesses.push_all()[0].cosigned == [9]
    times = list(Cosignature.objects.order_by("note__size").values_list("timestamp", flat=True))
    assert times == sorted(times) and len(times) == 3
    assert witnesses.cosigned_by(third) == ({"A"}, True)


def test_a_cosignature_whose_answer_was_lost_is_obtained_again(
    casino_log: WitnessServer, django_capture_on_commit_callbacks: Any
) -> None:
    """The witness cosigned the checkpoint but its answer never came back (the request timed
    out): the next push gets 409 with that size, and pushes that very note again from its own
    size, which the witness cosigns anew."""
    from tlog import witness as protocol

    note = checkpoint_note(django_capture_on_commit_callbacks, 3)
    status, _line = witnesses._post(casino_log.url, protocol.AddCheckpoint(0, [], note.note).body)
    assert status == 200 and not Cosignature.objects.exists()  # cosigned, the answer lost
    [outcome] = witnesses.push_all()
    assert outcome.cosigned == [3] and not outcome.failing and not outcome.refused
    assert witnesses.cosigned_by(note) == ({"A"}, True)


def test_a_witness_down_for_an_hour_loses_nothing(
    casino_log: WitnessServer, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.AUDIT_WITNESS_ALARM_AFTER = 3600  # the configured delay: an hour
    checkpoint_note(django_capture_on_commit_callbacks, 2)
    assert witnesses.push_all()[0].cosigned == [2]
    casino_log.stop()
    try:
        now = timezone.now()
        for i in range(3):
            checkpoint_note(django_capture_on_commit_callbacks, 1)
            outcome = witnesses.push_all(now=now + dt.timedelta(minutes=20 * i))
            assert outcome[0].failing and not outcome[0].cosigned
        assert not _alarms(Action.WITNESS_UNREACHABLE)  # 40 minutes: within the delay
        outcome = witnesses.push_all(now=now + dt.timedelta(minutes=61))
        [alarm] = _alarms(Action.WITNESS_UNREACHABLE)
        assert alarm["witness"] == "A" and "Connection refused" in alarm["error"]
        witnesses.push_all(now=now + dt.timedelta(minutes=62))
        assert len(_alarms(Action.WITNESS_UNREACHABLE)) == 1  # once per failure
    finally:
        casino_log.start()
    # back: every checkpoint made meanwhile cosigned, in order (and the alarm's own checkpoint)
    checkpoint_note(django_capture_on_commit_callbacks, 1)
    outcome = witnesses.push_all()[0]
    assert outcome.cosigned == sorted(outcome.cosigned) and outcome.cosigned[:3] == [3, 4, 5]
    assert set(CheckpointNote.objects.values_list("size", flat=True)) == set(
        Cosignature.objects.values_list("note__size", flat=True)
    )
    assert WitnessState.objects.get(witness="A").failing_since is None


def test_a_casino_database_restored_to_an_older_point_is_refused_with_409(
    casino_log: WitnessServer, django_capture_on_commit_callbacks: Any, settings: Any, tmp_path: Path
) -> None:
    """The witness cosigned size 8; the casino's record is restored to size 5 (its checkpoint
    of 5 and what it knew of the witness then): the witness answers 409 with 8, above the
    record: the alarm is sealed."""
    checkpoint_note(django_capture_on_commit_callbacks, 5)
    assert witnesses.push_all()[0].cosigned == [5]
    checkpoint_note(django_capture_on_commit_callbacks, 3)
    assert witnesses.push_all()[0].cosigned == [8]
    # the restore, as the casino's tables stand after it: the checkpoint of 8 and the state gone
    Cosignature.objects.filter(note__size=8).delete()
    _delete_checkpoint_above(5)
    WitnessState.objects.filter(witness="A").update(size=0)
    outcome = witnesses.push_all()[0]
    assert "above the record's 5" in outcome.refused and not outcome.retired
    [alarm] = _alarms(Action.WITNESS_REFUSED)
    assert alarm["held_size"] == 8 and alarm["our_size"] == 5
    assert casino_log.sql(
        "SELECT r.status, r.held_size FROM witness_refusal r JOIN witness_log l ON l.id = r.log_id "
        "WHERE l.origin = %s",
        casino_notes.signer().name,  # type: ignore[union-attr]
    ) == [(409, 8)]


def _delete_checkpoint_above(size: int) -> None:
    from django.db import connection

    from tests.support.tampering import checkpoints_as_superuser_without_guard

    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_checkpointnote WHERE size > %s", [size])
    checkpoints_as_superuser_without_guard("DELETE FROM audit_checkpoint WHERE seq > %s", [size])


def test_a_forked_record_is_refused_with_422_and_the_alarm_sealed(
    casino_log: WitnessServer, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    checkpoint_note(django_capture_on_commit_callbacks, 4)
    assert witnesses.push_all()[0].cosigned == [4]
    # the next note signs another root than the tree the witness saw grow (a forked record),
    # signed with the casino's key
    note = checkpoint_note(django_capture_on_commit_callbacks, 3)
    key = casino_notes.signer()
    assert key is not None
    forged = checkpoints.Checkpoint(key.name, 7, b"\7" * 32)
    CheckpointNote.objects.filter(pk=note.pk).update(note=notes.sign(forged.text, key))
    outcome = witnesses.push_all()[0]
    assert "not consistent" in outcome.refused and not outcome.cosigned
    [alarm] = _alarms(Action.WITNESS_REFUSED)
    assert (alarm["size"], alarm["old_size"]) == (7, 4)
    assert witnesses.cosigned_by(CheckpointNote.objects.get(size=7)) == (set(), False)


def test_a_witness_restored_from_an_older_backup_is_retired(
    casino_log: WitnessServer, django_capture_on_commit_callbacks: Any
) -> None:
    checkpoint_note(django_capture_on_commit_callbacks, 2)
    assert witnesses.push_all()[0].cosigned == [2]
    backup = casino_log.db + "_backup"
    casino_log.stop()
    casino_log.backup(backup)
    casino_log.start()
    checkpoint_note(django_capture_on_commit_callbacks, 2)
    assert witnesses.push_all()[0].cosigned == [4]
    casino_log.stop()
    casino_log.restore(backup)  # the witness's state at size 2 again
    casino_log.start()
    checkpoint_note(django_capture_on_commit_callbacks, 2)
    outcome = witnesses.push_all()[0]
    assert outcome.retired and "lost its state" in outcome.refused
    [alarm] = _alarms(Action.WITNESS_RETIRED)
    assert alarm["held_size"] == 2 and alarm["last_cosigned"] == 4
    checkpoint_note(django_capture_on_commit_callbacks, 1)
    assert witnesses.push_all()[0].retired  # never pushed to again
    assert WitnessState.objects.get(witness="A").retired_at is not None


def test_the_clock_set_back_three_hours_is_named(
    casino_log: WitnessServer, django_capture_on_commit_callbacks: Any, capsys: Any
) -> None:
    """The independent audit's probe: the server's clock set back 3 hours, the séance written
    with the earlier time: the events are dated before the witness's cosignature of a
    checkpoint that came before them, and verify_audit names them."""
    import time_machine

    checkpoint_note(django_capture_on_commit_callbacks, 3)
    assert witnesses.push_all()[0].cosigned == [3]
    code, out, err = run_verify_audit(capsys)
    assert code == 0, err
    assert "1 checkpoint(s) cosigned per the policy, every event's time within the witnesses'" in out
    with time_machine.travel(timezone.now() - dt.timedelta(hours=3), tick=True):
        record_numbered_events(2)  # events 4 and 5, dated three hours back
    code, out, err = run_verify_audit(capsys)
    assert code == 1
    assert "TIME: event #4 is dated" in err and "TIME: event #5 is dated" in err
    assert "the server's clock was set back" in err and "event #3" not in err


def test_a_clock_ahead_is_named_against_the_cosignature_covering_the_event(
    casino_log: WitnessServer, django_capture_on_commit_callbacks: Any, capsys: Any
) -> None:
    import time_machine

    checkpoint_note(django_capture_on_commit_callbacks, 2)
    with time_machine.travel(timezone.now() + dt.timedelta(hours=3), tick=True):
        record_numbered_events(1)  # event 3, dated three hours ahead
    # event 4, at the right time again, is three hours behind event 3: the sealing pass seals the
    # clock's alarm just after it (event 5, audit.clock_backwards)
    checkpoint_note(django_capture_on_commit_callbacks, 1)
    assert witnesses.push_all()[0].cosigned == [2, 5]
    code, _out, err = run_verify_audit(capsys)
    assert code == 1
    assert (
        "TIME: event #3 is dated" in err
        and "the server's clock ran ahead" in err
        and "TIME: event #4" not in err
    )


def test_an_rfc3161_time_stamp_bounds_the_events_as_a_second_source(
    signing_configured: Any,
    settings: Any,
    mock_tsa: Any,  # the fixture imported above
    tmp_path: Path,
    django_capture_on_commit_callbacks: Any,
    capsys: Any,
) -> None:
    """Without a witness, the time-stamp server's time (mocked: the one thing outside the
    project) bounds the events a note covers: a clock run ahead is named."""
    import time_machine
    from rfc3161_client import decode_timestamp_response

    from audit import note_timestamps
    from audit.models import NoteTimeStamp

    url, seen = mock_tsa
    settings.TIMESTAMP_URL = url
    settings.AUDIT_WITNESS_DIR = str(tmp_path / "dir-witness")
    note = checkpoint_note(django_capture_on_commit_callbacks, 2)
    assert witnesses.push_all() == [] and len(seen) >= 1  # no policy: no witness, but the time-stamp
    stamp = NoteTimeStamp.objects.get(note=note)
    response = decode_timestamp_response(bytes(stamp.response))
    assert note_timestamps.check(response, note.note.encode()) == stamp.gen_time
    with pytest.raises(note_timestamps.TimeStampError, match="not over this note"):
        note_timestamps.check(response, b"another note")
    code, _out, err = run_verify_audit(capsys)
    assert code == 0, err
    with time_machine.travel(timezone.now() + dt.timedelta(hours=3), tick=True):
        record_numbered_events(1)  # event 3, dated three hours ahead
    checkpoint_note(django_capture_on_commit_callbacks, 1)
    witnesses.push_all()
    code, _out, err = run_verify_audit(capsys)
    assert (
        code == 1 and "TIME: event #3 is dated" in err and "after the RFC 3161 time-stamp covering it" in err
    )


def test_a_policy_that_cannot_be_read_is_reported_never_a_traceback(
    settings: Any, tmp_path: Path, capsys: Any, signing_configured: Any
) -> None:
    bad = tmp_path / "policy.txt"
    bad.write_text("witness A not-a-vkey\nquorum A\n")
    settings.AUDIT_WITNESS_POLICY = str(bad)
    settings.AUDIT_WITNESS_DIR = str(tmp_path / "dir-witness")
    assert witnesses.policy() is None and witnesses.push_all() == []
    code, _out, err = run_verify_audit(capsys)
    assert code == 1 and f"TIME: AUDIT_WITNESS_POLICY {bad}: line 1 (witness A not-a-vkey): bad vkey" in err
