"""The proofs in the officers' API and portal: downloaded, then checked by the offline verifier."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from audit.checkpoints import make_checkpoint
from casino_ops import roles
from tests.support.tampering import record_numbered_events

VERIFIER = Path(__file__).resolve().parents[2] / "inspection" / "verifier.py"


def _verify(tmp_path: Path, kind: str, data: bytes, ca: Path, *extra: str) -> subprocess.CompletedProcess:
    proof = tmp_path / f"{kind}.json"
    proof.write_bytes(data)
    return subprocess.run(
        [sys.executable, "-I", str(tmp_path / "verifier.py"), kind, str(proof), "--ca", str(ca), *extra],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.django_db
def test_the_api_gives_both_proofs_and_the_verifier(
    clients: Any,
    signing_configured: Any,
    tmp_path: Path,
) -> None:
    record_numbered_events(20)
    make_checkpoint()
    record_numbered_events(5)
    make_checkpoint()
    client = clients[roles.OFFICER]
    verifier = client.get("/api/inspection/proofs/verifier/")
    assert verifier.status_code == 200
    (tmp_path / "verifier.py").write_bytes(b"".join(verifier.streaming_content))
    assert (tmp_path / "verifier.py").read_bytes() == VERIFIER.read_bytes()

    response = client.get("/api/inspection/proofs/inclusion/", {"seq": 7, "checkpoint": 1})
    assert response.status_code == 200 and response.json()["tree_size"] == 20
    done = _verify(tmp_path, "inclusion", response.content, signing_configured.ca_pem)
    assert done.returncode == 0, done.stderr

    kept = client.get("/api/inspection/proofs/checkpoint/", {"number": 1})
    assert kept.status_code == 200
    (tmp_path / "kept.json").write_bytes(kept.content)
    response = client.get("/api/inspection/proofs/consistency/", {"first": 1, "second": 2})
    assert response.status_code == 200
    done = _verify(
        tmp_path,
        "consistency",
        response.content,
        signing_configured.ca_pem,
        "--trusted",
        str(tmp_path / "kept.json"),
    )
    assert done.returncode == 0 and "extends the record of 20 events" in done.stdout, done.stderr
    response = client.get("/api/inspection/proofs/consistency/", {"first_size": 20})
    assert response.status_code == 200 and response.json()["first"] is None

    refused = client.get("/api/inspection/proofs/inclusion/", {"seq": 99})
    assert refused.status_code == 400 and refused.json()["field"] == "seq"
    assert client.get("/api/inspection/proofs/inclusion/", {"seq": "x"}).status_code == 400
    assert client.get("/api/inspection/proofs/consistency/").status_code == 400
    assert client.get("/api/inspection/proofs/checkpoint/", {"number": 9}).status_code == 404
    assert clients[roles.DIRECTOR].get("/api/inspection/proofs/inclusion/", {"seq": 1}).status_code == 404


@pytest.mark.django_db
def test_the_portal_page_gives_the_verifier_the_checkpoints_and_the_proofs(
    clients: Any,
    signing_configured: Any,
    tmp_path: Path,
) -> None:
    record_numbered_events(3)
    make_checkpoint()
    client = clients[roles.OFFICER]
    page = client.get("/inspection/preuves/")
    assert page.status_code == 200
    html = page.content.decode()
    assert (
        "/inspection/preuves/verificateur.py" in html and "/inspection/preuves/points-de-controle/1/" in html
    )
    # the inclusion command as the verifier takes it against a kept checkpoint (and the option it reads)
    assert "verifier.py inclusion inclusion-N.json --ca ca.pem --trusted" in html
    assert "--consistency coherence.json" in html and '"--consistency"' in VERIFIER.read_text(
        encoding="utf-8"
    )
    assert 'href="/inspection/preuves/"' in client.get("/inspection/").content.decode()  # in the navigation
    verifier = client.get("/inspection/preuves/verificateur.py")
    (tmp_path / "verifier.py").write_bytes(b"".join(verifier.streaming_content))
    proof = client.get("/inspection/preuves/", {"proof": "inclusion", "i-seq": 2})
    assert (
        proof.status_code == 200 and proof["Content-Disposition"] == 'attachment; filename="inclusion-2.json"'
    )
    done = _verify(tmp_path, "inclusion", proof.content, signing_configured.ca_pem)
    assert done.returncode == 0, done.stderr
    checkpoint = client.get("/inspection/preuves/points-de-controle/1/")
    assert json.loads(checkpoint.content)["number"] == 1
    refused = client.get("/inspection/preuves/", {"proof": "inclusion", "i-seq": 50})
    assert refused.status_code == 400 and "Aucun événement scellé n° 50" in refused.content.decode()
    refused = client.get("/inspection/preuves/", {"proof": "consistency", "c-first": "x"})
    assert refused.status_code == 400
    assert clients[roles.DIRECTOR].get("/inspection/preuves/").status_code == 404
