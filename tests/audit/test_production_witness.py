"""Production refuses to run without a witness: ``check --deploy`` fails with DEBUG off and no
witness, and ``verify_audit`` exits 1 without one unless told ``--no-witness`` (and says so), so
that a chain rewritten with a re-signed checkpoint never passes in the production default."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from audit.checkpoints import make_checkpoint
from tests.support.tampering import (
    record_events,
    rewrite_and_re_sign,
    run_verify_audit,
)


@pytest.fixture
def no_witness(settings: Any) -> None:
    settings.AUDIT_WITNESS_DIR = ""
    settings.AUDIT_WITNESS_STORAGE = ""


@pytest.fixture
def no_demo_authority(settings: Any) -> None:
    """As in production: no demo authority's key, no demo passkey on the server (casino_ops.E104)."""
    settings.OFFICER_AUTHORITY_DEMO_KEY = ""
    settings.OFFICER_DEMO_PASSKEY = False


@pytest.mark.django_db  # check --deploy names the superusers (house_books.W001)
def test_check_deploy_fails_without_a_witness_when_debug_is_off(
    settings: Any, no_witness: None, no_demo_authority: None
) -> None:
    settings.DEBUG = False
    with pytest.raises(SystemCheckError, match=r"audit\.E001.*AUDIT_WITNESS_DIR"):
        call_command("check", deploy=True)


@pytest.mark.django_db  # check --deploy names the superusers (house_books.W001)
def test_check_deploy_passes_with_a_witness_directory_or_storage(
    settings: Any, tmp_path: Path, no_demo_authority: None
) -> None:
    settings.DEBUG = False
    settings.AUDIT_WITNESS_DIR = str(tmp_path / "witness")
    settings.AUDIT_WITNESS_STORAGE = ""
    call_command("check", deploy=True)
    settings.AUDIT_WITNESS_DIR = ""
    settings.AUDIT_WITNESS_STORAGE = "nowhere"
    with pytest.raises(SystemCheckError, match=r"audit\.E002.*nowhere"):
        call_command("check", deploy=True)
    settings.STORAGES = {
        **settings.STORAGES,
        "nowhere": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path)},
        },
    }
    call_command("check", deploy=True)


@pytest.mark.django_db
def test_verify_audit_without_a_witness_exits_1_unless_told_no_witness(
    signing_configured: Any, no_witness: None, capsys: Any
) -> None:
    record_events(3)
    code, out, err = run_verify_audit(capsys)
    assert code == 1 and "OK:" not in out
    assert "--no-witness" in err and "AUDIT_WITNESS_DIR" in err
    code, out, _err = run_verify_audit(capsys, "--no-witness")
    assert code == 0 and "OK: 3 events" in out
    assert "no witness (--no-witness)" in out


@pytest.mark.django_db
def test_a_rewrite_with_a_re_signed_checkpoint_fails_verify_audit_merkle_in_the_production_default(
    signing_configured: Any, no_witness: None, capsys: Any
) -> None:
    """The attacker holds the database and the application's keys: the chain rewritten with
    recomputed hashes, the checkpoints deleted and one signed again over the rewritten chain."""
    record_events(5)
    make_checkpoint()
    record_events(2)
    rewrite_and_re_sign(from_seq=2)
    code, out, _err = run_verify_audit(capsys, "--merkle")
    assert code == 1 and "OK:" not in out
