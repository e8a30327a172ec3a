"""An event's C2SP tlog proof, checked offline by the officers' verifier under the authority's
tlog-policy alone (the casino's log key, the witnesses' keys, the quorum): a register's issuing
event proves the PDF years later."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction

import audit
from audit import witnesses
from audit.actions import Action
from audit.tlog_proofs import tlog_proof
from inspection import verifier
from tests.support.witness_process import WitnessServer, checkpoint_note, witness_server  # noqa: F401 - the fixture
from tlog import note as notes

pytestmark = pytest.mark.django_db


def _issue(pdf: bytes) -> int:
    with transaction.atomic():
        event = audit.record(
            actor=None,
            action=Action.TABLE_CREATED,  # any event recording a PDF's SHA-256 (the test's stand-in)
            object_type="test.register",
            object_id=1,
            payload={"register": "receipts", "sha256": hashlib.sha256(pdf).hexdigest()},
        )
    assert event is not None and event.seq is not None
    return event.seq


def test_a_register_verified_offline_with_the_authority_s_policy_alone(
    casino_log: WitnessServer,
    django_capture_on_commit_callbacks: Any,
    tmp_path: Path,
    capsys: Any,
) -> None:
    pdf = b"%PDF-1.7 the register as printed"
    seq = _issue(pdf)
    checkpoint_note(django_capture_on_commit_callbacks, 4)
    assert witnesses.push_all()[0].cosigned == [seq + 4]
    proof = tmp_path / f"event-{seq}.tlog-proof"
    proof.write_text(tlog_proof(seq), encoding="utf-8")
    assert proof.read_text().startswith("c2sp.org/tlog-proof@v1\nextra ")
    policy = Path(settings.AUDIT_WITNESS_POLICY)
    register = tmp_path / "register.pdf"
    register.write_bytes(pdf)
    capsys.readouterr()
    assert verifier.main(["tlog-proof", str(proof), "--policy", str(policy)]) == 0
    out = capsys.readouterr().out
    assert f"OK: event #{seq} is in the casino's record" in out and "cosigned by A" in out
    assert verifier.main(["pdf", str(register), "--record", str(proof), "--policy", str(policy)]) == 0
    register.write_bytes(pdf + b" altered")
    assert verifier.main(["pdf", str(register), "--record", str(proof), "--policy", str(policy)]) == 1

    # a policy asking for a second witness, which did not cosign: short of the quorum
    other = notes.Signer.generate("witness.other.example/w", notes.COSIGNATURE_V1)
    stricter = tmp_path / "stricter.txt"
    stricter.write_text(
        policy.read_text().replace(
            "quorum A", f"witness B {other.verifier.vkey}\ngroup AB all A B\nquorum AB"
        )
    )
    capsys.readouterr()
    assert verifier.main(["tlog-proof", str(proof), "--policy", str(stricter)]) == 1
    assert "short of the policy's quorum AB" in capsys.readouterr().err

    # another event's bytes in the proof: not at that index
    lines = proof.read_text().split("\n")
    forged = json.dumps({"register": "receipts", "sha256": "0" * 64}, separators=(",", ":"))
    data = base64.b64decode(lines[1][6:]).decode().split("\x1f")
    data[5] = forged
    lines[1] = "extra " + base64.b64encode("\x1f".join(data).encode()).decode()
    tampered = tmp_path / "tampered.tlog-proof"
    tampered.write_text("\n".join(lines))
    assert verifier.main(["tlog-proof", str(tampered), "--policy", str(policy)]) == 1
    assert "is not at index" in capsys.readouterr().err

    # a witness key the authority never gave: the casino cannot stand in for its witness
    impostor = notes.Signer.generate("witness.authority.example/x", notes.COSIGNATURE_V1)
    wrong = tmp_path / "wrong.txt"
    wrong.write_text(policy.read_text().replace(casino_log.vkey, impostor.verifier.vkey))
    assert verifier.main(["tlog-proof", str(proof), "--policy", str(wrong)]) == 1


def test_officers_see_which_checkpoints_lack_the_policy_s_cosignatures(
    casino_log: WitnessServer,
    django_capture_on_commit_callbacks: Any,
    clients: Any,
    tmp_path: Path,
) -> None:
    from audit import notes as casino_notes
    from casino_ops import roles

    checkpoint_note(django_capture_on_commit_callbacks, 3)
    casino_notes.make_notes()
    client = clients[roles.OFFICER]
    page = client.get("/inspection/preuves/").content.decode()
    assert "sans les cosignatures exigées par la politique" in page
    witnesses.push_all()
    page = client.get("/inspection/preuves/").content.decode()
    assert "cosigné selon la politique" in page and "sans les cosignatures exigées" not in page
    download = client.get("/inspection/preuves/", {"proof": "tlog", "t-seq": "2"})
    assert download.status_code == 200 and download["Content-Disposition"].endswith('event-2.tlog-proof"')
    proof = tmp_path / "event-2.tlog-proof"
    proof.write_bytes(download.content)
    assert verifier.main(["tlog-proof", str(proof), "--policy", settings.AUDIT_WITNESS_POLICY]) == 0
    refused = client.get("/inspection/preuves/", {"proof": "tlog", "t-seq": "99"})
    assert refused.status_code == 400 and "Aucun événement scellé n° 99" in refused.content.decode()


def test_the_casino_makes_its_note_key_with_a_command() -> None:
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    out = StringIO()
    call_command("audit_note_key", "casinos.authority.example/FR-0123", stdout=out)
    skey, vkey = (line.split("=", 1)[-1].split(": ", 1)[-1] for line in out.getvalue().splitlines())
    signer = notes.Signer.from_skey(skey)
    assert signer.verifier.vkey == vkey and signer.name == "casinos.authority.example/FR-0123"
    with pytest.raises(CommandError, match="origin"):
        call_command("audit_note_key", "casino de test")
