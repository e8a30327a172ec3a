"""Signed checkpoints of the audit chain: made, checked by verify_audit, exported."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command

from audit.chain import verify_chain
from audit.checkpoints import check_export, export, make_checkpoint
from audit.models import AuditEvent, Checkpoint
from audit.record_tasks import make_checkpoint as checkpoint_task
from tests.support.tampering import (
    as_superuser_without_guard,
    checkpoints_as_superuser_without_guard,
    record_events,
    rewrite_whole_chain_with_recomputed_hashes,
)


@pytest.mark.django_db
def test_a_checkpoint_signs_the_head_once(signing_configured: Any) -> None:
    assert make_checkpoint() is None  # empty record: nothing to sign
    record_events(3)
    first = make_checkpoint()
    assert first is not None and first.seq == 3
    assert first.head_hash == AuditEvent.objects.get(seq=3).hash
    statement = json.loads(first.statement)
    assert statement["seq"] == 3 and statement["hash"] == first.head_hash
    assert make_checkpoint().pk == first.pk  # same head, same checkpoint
    record_events(2)
    assert checkpoint_task.delay().get() == 5
    assert Checkpoint.objects.count() == 2
    result = verify_chain()
    assert result.ok and result.checkpoints == 2


def test_beat_signs_checkpoints() -> None:
    tasks = {entry["task"] for entry in django_settings.CELERY_BEAT_SCHEDULE.values()}
    assert "audit.tasks.make_checkpoint" in tasks and "audit.tasks.seal_chain" in tasks


@pytest.mark.django_db
def test_a_chain_rewritten_with_recomputed_hashes_fails_verify_audit_naming_the_checkpoint(
    signing_configured: Any, capsys: Any
) -> None:
    record_events(5)
    checkpoint = make_checkpoint()
    record_events(3)
    call_command("verify_audit")
    assert "1 signed checkpoint(s) hold" in capsys.readouterr().out

    rewrite_whole_chain_with_recomputed_hashes(from_seq=2)
    result = verify_chain(checkpoints=False)
    assert result.ok  # the chain alone holds: every hash was recomputed
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_audit")
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert f"point de contrôle n° {checkpoint.number} (séquence 5" in err
    assert "CHECKPOINT FAILED" in err and checkpoint.head_hash in err


@pytest.mark.django_db
def test_a_checkpoint_changed_in_the_database_is_reported(signing_configured: Any) -> None:
    record_events(2)
    checkpoint = make_checkpoint()
    forged = checkpoint.statement.replace('"seq":2', '"seq":1')
    checkpoints_as_superuser_without_guard(
        "UPDATE audit_checkpoint SET statement = %s WHERE id = %s", [forged, checkpoint.pk]
    )
    result = verify_chain()
    assert not result.ok and result.chain_ok
    assert any("signature n'est pas valide" in p for p in result.checkpoint_problems)


@pytest.mark.django_db
def test_events_removed_after_a_checkpoint_are_reported(signing_configured: Any) -> None:
    record_events(4)
    make_checkpoint()
    as_superuser_without_guard("DELETE FROM audit_event WHERE seq = 4")
    result = verify_chain()
    assert result.chain_ok and not result.ok
    assert "la chaîne s'arrête à 3" in result.checkpoint_problems[0]


@pytest.mark.django_db
def test_no_checkpoint_is_signed_over_a_broken_chain(signing_configured: Any) -> None:
    from casino_ops.regulations import RegulationError

    record_events(3)
    as_superuser_without_guard("UPDATE audit_event SET payload = '{\"x\":1}' WHERE seq = 2")
    with pytest.raises(RegulationError, match="aucun point de contrôle"):
        make_checkpoint()
    assert not Checkpoint.objects.exists()


@pytest.mark.django_db
def test_the_export_is_a_signed_file_openssl_checks_and_verify_audit_uses(
    signing_configured: Any, tmp_path: Path, capsys: Any
) -> None:
    record_events(3)
    call_command("audit_checkpoint")
    record_events(2)
    out = tmp_path / "checkpoints.p7m"
    call_command("audit_checkpoint", "--export", str(out))
    assert Checkpoint.objects.count() == 2
    checked = subprocess.run(
        [
            "openssl",
            "cms",
            "-verify",
            "-inform",
            "DER",
            "-in",
            str(out),
            "-CAfile",
            str(signing_configured.ca_pem),
            "-purpose",
            "any",
        ],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr
    document = json.loads(checked.stdout)
    assert [c["seq"] for c in document["checkpoints"]] == [3, 5]
    assert check_export(out.read_bytes()) == (2, [])
    call_command("verify_audit", "--against", str(out))
    assert "2 exported checkpoint(s) match the chain" in capsys.readouterr().out

    # the officer's copy still catches a rewrite even if the database's checkpoints are replaced
    rewrite_whole_chain_with_recomputed_hashes(from_seq=1)
    checkpoints_as_superuser_without_guard("DELETE FROM audit_checkpoint")
    assert verify_chain().ok  # no witness configured here: only the officer's export catches it
    with pytest.raises(SystemExit):
        call_command("verify_audit", "--against", str(out))
    assert "point de contrôle exporté (séquence 3" in capsys.readouterr().err

    tampered = bytearray(out.read_bytes())
    tampered[len(tampered) // 3] ^= 1
    (tmp_path / "bad.p7m").write_bytes(bytes(tampered))
    with pytest.raises(Exception, match="n'est pas intact"):
        call_command("verify_audit", "--against", str(tmp_path / "bad.p7m"))


@pytest.mark.django_db
def test_export_holds_only_what_is_asked(signing_configured: Any) -> None:
    from audit.signing import verify_data

    record_events(1)
    make_checkpoint()
    record_events(1)
    make_checkpoint()
    check = verify_data(export(since_seq=1))
    assert [c["seq"] for c in json.loads(check.content)["checkpoints"]] == [2]


@pytest.mark.django_db
def test_a_checkpoint_signed_with_another_key_is_reported(
    signing_configured: Any, settings: Any, tmp_path: Path
) -> None:
    from audit.devcert import make_dev_certificate

    record_events(2)
    make_checkpoint()
    assert verify_chain().ok
    other = make_dev_certificate(tmp_path / "other", casino="Casino de test")
    settings.SIGNING_PKCS12, settings.SIGNING_PKCS12_PASSWORD = str(other.pkcs12), other.password
    result = verify_chain()
    assert not result.ok and "pas signée par le certificat du casino" in result.checkpoint_problems[0]
    settings.SIGNING_PKCS12_PASSWORD = "wrong"  # an unusable certificate here: signatures still checked
    assert verify_chain().ok
