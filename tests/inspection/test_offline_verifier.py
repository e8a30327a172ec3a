"""The officers' offline verifier never says OK on a rewritten record, and runs as the README
says (``python inspection/verifier.py …``) from the repository root and from any other folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from audit.checkpoints import make_checkpoint
from tests.support.tampering import (
    kept_checkpoint,
    record_events,
    rewrite_and_re_sign,
)

ROOT = Path(__file__).resolve().parents[2]


def _verifier(
    *args: str, cwd: Path, script: str = "inspection/verifier.py"
) -> subprocess.CompletedProcess[str]:
    """``python inspection/verifier.py …`` as written in the README (no -I: the folder of the script is
    on sys.path, as when an officer runs it)."""
    return subprocess.run(
        [sys.executable, script, *args], cwd=cwd, capture_output=True, text=True, timeout=60
    )


@pytest.mark.django_db
def test_inclusion_against_a_kept_checkpoint_fails_on_a_rewritten_record(
    signing_configured: Any, tmp_path: Path
) -> None:
    kept = kept_checkpoint(6, tmp_path)
    record_events(4)
    rewrite_and_re_sign(from_seq=3)
    proof = tmp_path / "inclusion-3.json"
    call_command("audit_proof", "3", "--output", str(proof))
    ca = str(signing_configured.ca_pem)
    done = _verifier("inclusion", str(proof), "--ca", ca, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr  # the rewritten record holds on its own
    done = _verifier("inclusion", str(proof), "--ca", ca, "--trusted", str(kept), cwd=ROOT)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "OK: event" not in done.stdout
    assert "FAILED: the proof's checkpoint" in done.stderr and "--consistency" in done.stderr
    # the consistency proof the rewritten record gives from the kept tree size does not hold
    consistency = tmp_path / "consistency.json"
    call_command("audit_proof", "--from-size", "6", "--output", str(consistency))
    done = _verifier(
        "inclusion",
        str(proof),
        "--ca",
        ca,
        "--trusted",
        str(kept),
        "--consistency",
        str(consistency),
        cwd=ROOT,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "OK: event" not in done.stdout
    assert "does not extend the checkpoint you kept" in done.stderr


@pytest.mark.django_db
def test_inclusion_against_a_kept_checkpoint_holds_with_the_proof_that_the_record_extends_it(
    signing_configured: Any, tmp_path: Path
) -> None:
    kept = kept_checkpoint(7, tmp_path)
    record_events(290)
    make_checkpoint()
    ca = str(signing_configured.ca_pem)
    proof = tmp_path / "inclusion-200.json"
    call_command("audit_proof", "200", "--output", str(proof))
    consistency = tmp_path / "consistency.json"
    call_command("audit_proof", "--from-size", "7", "--output", str(consistency))
    done = _verifier(
        "inclusion",
        str(proof),
        "--ca",
        ca,
        "--trusted",
        str(kept),
        "--consistency",
        str(consistency),
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK: event 200 (table.created test.thing:" in done.stdout
    assert "extends the checkpoint you kept" in done.stdout
    # the same checkpoint as the one kept needs no other proof
    old = tmp_path / "inclusion-old.json"
    call_command("audit_proof", "5", "--checkpoint", "1", "--output", str(old))
    done = _verifier("inclusion", str(old), "--ca", ca, "--trusted", str(kept), cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.django_db
def test_the_readme_command_runs_from_the_repository_root_and_from_another_folder(
    signing_configured: Any, tmp_path: Path
) -> None:
    record_events(3)
    make_checkpoint()
    proof = tmp_path / "inclusion-2.json"
    checkpoint = tmp_path / "checkpoint.json"
    call_command("audit_proof", "2", "--output", str(proof), "--checkpoint-file", str(checkpoint))
    ca = str(signing_configured.ca_pem)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for cwd, script in (
        (ROOT, "inspection/verifier.py"),
        (elsewhere, str(ROOT / "inspection" / "verifier.py")),
    ):
        done = _verifier("inclusion", str(proof), "--ca", ca, cwd=cwd, script=script)
        assert done.returncode == 0, (cwd, done.stdout + done.stderr)
        assert "OK: event 2" in done.stdout
        done = _verifier("checkpoint", str(checkpoint), "--ca", ca, cwd=cwd, script=script)
        assert done.returncode == 0 and "OK: checkpoint no. 1" in done.stdout, done.stderr


def test_no_module_of_the_verifiers_folder_shadows_the_standard_library() -> None:
    """``python inspection/verifier.py`` puts ``inspection/`` first on sys.path: a module there named like
    one of the standard library (``selectors``, ``signal``…) would be imported in its place."""
    folder = ROOT / "inspection"
    names = {p.stem for p in folder.glob("*.py")} | {p.name for p in folder.iterdir() if p.is_dir()}
    assert not names & set(sys.stdlib_module_names), sorted(names & set(sys.stdlib_module_names))
