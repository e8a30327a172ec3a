"""Events authenticated at the source: the MAC of each event, forged events never sealed."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.db.utils import DatabaseError

import audit
from audit.actions import Action
from audit.chain import (
    FORGED_ACTION,
    GENESIS,
    event_bytes,
    event_hash,
    event_mac,
    format_time,
    seal_pending,
    verify_chain,
)
from audit.models import AuditEvent
from tests.support.tampering import as_superuser_without_guard, record_numbered_events


def _forge_by_sql(mac: str | None = None) -> int:
    """Anyone with INSERT on the table (the application's role) adds an unsealed event."""
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO audit_event (recorded_at, actor_name, action, object_type, object_id, payload, mac) "
            "VALUES (now() - interval '3 days', 'directeur', 'tables.advance', 'tables.advance', '7', "
            '\'{"amount":"100000.00"}\', %s) RETURNING id',
            [mac],
        )
        return cursor.fetchone()[0]


@pytest.mark.django_db
def test_each_event_carries_the_hmac_of_its_canonical_bytes(settings):
    (event,) = record_numbered_events(1)
    stored = AuditEvent.objects.get(pk=event.pk)
    content = event_bytes(
        recorded_at=format_time(stored.recorded_at),
        actor_name="system",
        action=Action.TABLE_CREATED,
        object_type="test.thing",
        object_id="0",
        payload='{"i":0}',
    )
    assert stored.mac == event_mac(content) and len(stored.mac) == 64
    import hashlib
    import hmac

    assert stored.mac == hmac.new(settings.AUDIT_EVENT_KEY.encode(), content, hashlib.sha256).hexdigest()


@pytest.mark.parametrize("mode", ["inline", "sealer", "command"])
@pytest.mark.django_db
def test_a_forged_event_inserted_by_sql_is_never_sealed_and_is_reported(settings, capsys, mode):
    settings.AUDIT_SEALING = "inline" if mode == "inline" else "sealer"
    record_numbered_events(2)
    forged = [_forge_by_sql(None), _forge_by_sql("ab" * 32)]
    if mode == "inline":
        record_numbered_events(1)  # the next act's sealing pass meets them
    elif mode == "sealer":
        seal_pending()
    else:
        call_command("audit_sealer", "--once")
    seal_pending()  # a second pass raises no second alarm
    assert list(AuditEvent.objects.filter(pk__in=forged).values_list("seq", flat=True)) == [None, None]
    alarms = AuditEvent.objects.filter(action=FORGED_ACTION).order_by("seq")
    assert sorted(int(a.object_id) for a in alarms) == forged
    assert all(a.seq is not None for a in alarms)
    result = verify_chain()
    assert result.chain_ok and not result.ok and result.pending == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        call_command("verify_audit")
    assert exit_info.value.code == 1
    err = capsys.readouterr().err
    for event_id in forged:
        assert f"FORGED: event id {event_id} (tables.advance" in err


@pytest.mark.django_db
def test_a_genuine_event_copied_again_is_refused():
    (event,) = record_numbered_events(1)
    stored = AuditEvent.objects.get(pk=event.pk)
    with pytest.raises(DatabaseError), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO audit_event (recorded_at, actor_name, action, object_type, object_id, payload, mac) "
                "SELECT recorded_at, actor_name, action, object_type, object_id, payload, mac "
                "FROM audit_event WHERE id = %s",
                [stored.pk],
            )


@pytest.mark.django_db
def test_a_genuine_event_copied_at_another_moment_is_never_sealed(settings):
    """The copy refused by the database is the exact one ((recorded_at, mac) unique);
    with its moment changed, its MAC no longer matches: never sealed, an alarm instead."""
    settings.AUDIT_SEALING = "sealer"
    with transaction.atomic():
        audit.record(
            actor=None, action=Action.TABLE_CREATED, object_type="test.thing", object_id=1, payload={}
        )
    seal_pending()
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO audit_event (recorded_at, actor_name, action, object_type, object_id, payload, mac) "
            "SELECT recorded_at + interval '1 microsecond', actor_name, action, object_type, object_id, "
            "payload, mac FROM audit_event WHERE seq = 1 RETURNING id"
        )
        (copy,) = cursor.fetchone()
    seal_pending()
    assert AuditEvent.objects.get(pk=copy).seq is None
    assert list(AuditEvent.objects.filter(action=FORGED_ACTION).values_list("object_id", flat=True)) == [
        str(copy)
    ]


@pytest.mark.django_db
def test_a_tip_rewritten_without_the_key_fails_on_its_mac(capsys):
    """Database credentials alone: every hash recomputed after the last event, the MAC cannot be."""
    record_numbered_events(4)
    last = AuditEvent.objects.get(seq=4)
    forged_payload = '{"i":999}'
    digest = event_hash(
        prev_hash=last.prev_hash,
        seq=4,
        recorded_at=format_time(last.recorded_at),
        actor_name=last.actor_name,
        action=last.action,
        object_type=last.object_type,
        object_id=last.object_id,
        payload=forged_payload,
    )
    as_superuser_without_guard(
        "UPDATE audit_event SET payload = %s, hash = %s WHERE seq = 4", [forged_payload, digest]
    )
    result = verify_chain()
    assert result.broken_at == 4 and "MAC" in result.reason
    with pytest.raises(SystemExit) as exit_info:
        call_command("verify_audit")
    assert exit_info.value.code == 1
    assert "BROKEN at event #4" in capsys.readouterr().err
    assert GENESIS  # the first event's predecessor is still the genesis


@pytest.mark.django_db
def test_verify_audit_prints_no_traceback(settings, capsys, caplog, signing_configured):
    """pyHanko once logged a 13-line traceback on every run, all being well."""
    from audit.checkpoints import make_checkpoint

    record_numbered_events(2)
    make_checkpoint()
    caplog.clear()
    call_command("verify_audit")
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    assert captured.err == ""
    assert [r.getMessage() for r in caplog.records if r.exc_info or r.levelname != "INFO"] == []


def test_settings_require_the_event_key_when_debug_is_off() -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE", "AUDIT_EVENT_KEY"}
    }
    root = Path(__file__).resolve().parents[2]

    def manage(**env: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", "check"],
            cwd=root,
            env={**clean, **env},
            capture_output=True,
            text=True,
            timeout=120,
        )

    refused = manage(DEBUG="0", SECRET_KEY="x" * 50)
    assert refused.returncode == 2
    assert refused.stderr.startswith("manage.py: AUDIT_EVENT_KEY must be set when DEBUG is off")
    assert "Traceback" not in refused.stderr
