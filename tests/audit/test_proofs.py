"""Merkle tree heads and proofs (RFC 9162), and the officers' offline verifier."""

from __future__ import annotations

import ast
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from audit.checkpoints import make_checkpoint
from audit.merkle import Tree, TreeBuilder, leaf_hash, root_of
from inspection import verifier
from tests.support.tampering import (
    kept_checkpoint,
    record_events,
    rewrite_and_re_sign,
)

VERIFIER = Path(verifier.__file__)

# RFC 6962 / RFC 9162 test vectors (certificate-transparency's merkle_tree_test)
VECTOR_LEAVES = [
    "",
    "00",
    "10",
    "2021",
    "3031",
    "40414243",
    "5051525354555657",
    "606162636465666768696a6b6c6d6e6f",
]
VECTOR_ROOT_1 = "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"
VECTOR_ROOT_8 = "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"


def test_tree_heads_match_the_rfc_test_vectors() -> None:
    leaves = [leaf_hash(bytes.fromhex(x)) for x in VECTOR_LEAVES]
    assert root_of(leaves[:1]).hex() == VECTOR_ROOT_1
    assert root_of(leaves).hex() == VECTOR_ROOT_8
    builder = TreeBuilder()
    for leaf in leaves:
        builder.add(leaf)
    assert builder.root().hex() == VECTOR_ROOT_8


def test_every_proof_of_a_small_tree_verifies_with_the_offline_verifier() -> None:
    leaves = [leaf_hash(f"event {i}".encode()) for i in range(40)]
    builder = TreeBuilder(store_level=2)
    stored: dict[tuple[int, int], bytes] = {}
    roots = {}
    for i, leaf in enumerate(leaves, 1):
        builder.add(leaf)
        roots[i] = builder.root()
        assert roots[i] == root_of(leaves[:i])
    for level, index, digest in builder.nodes:
        stored[(level, index)] = digest
        assert digest == root_of(leaves[index << level : (index + 1) << level])
    tree = Tree(
        lambda keys: {key: stored[key] for key in keys if key in stored},
        lambda a, b: leaves[a:b],
        store_level=2,
    )
    for n in range(1, 41):
        for m in range(n):
            path = tree.inclusion_path(m, n)
            assert verifier.verify_inclusion(m, n, leaves[m], path, roots[n])
            assert not verifier.verify_inclusion(m, n, leaves[m - 1 if m else 1], path, roots[n])
        for m in range(1, n + 1):
            proof = tree.consistency_proof(m, n)
            assert verifier.verify_consistency(m, n, roots[m], roots[n], proof), (m, n)
            if m < n:
                assert not verifier.verify_consistency(m, n, roots[m], leaves[0], proof)
                other = root_of([leaf_hash(b"forged")] + leaves[1:m])
                assert not verifier.verify_consistency(m, n, other, roots[n], proof)


def test_the_verifier_is_one_file_without_django() -> None:
    tree = ast.parse(VERIFIER.read_text())
    imported = {
        (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert not any(
        name.split(".")[0] in {"django", "audit", "casino_ops", "pyhanko", "asn1crypto"} for name in imported
    )


def _run(*args: str) -> subprocess.CompletedProcess:
    """The verifier as an officer runs it: a copy of the file, in an empty directory."""
    return subprocess.run([sys.executable, "-I", *args], capture_output=True, text=True, timeout=60)


@pytest.fixture
def officer_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "officer"
    directory.mkdir()
    (directory / "verifier.py").write_bytes(VERIFIER.read_bytes())
    return directory


@pytest.mark.django_db
def test_an_inclusion_proof_from_audit_proof_verifies_offline(
    signing_configured: Any, officer_dir: Path, capsys: Any, django_assert_num_queries: Any
) -> None:
    record_events(300)
    make_checkpoint()
    record_events(213)
    make_checkpoint()
    ca = str(signing_configured.ca_pem)
    for seq in (1, 257, 300, 301, 513):
        proof = officer_dir / f"proof-{seq}.json"
        call_command("audit_proof", str(seq), "--output", str(proof))
        done = _run(str(officer_dir / "verifier.py"), "inclusion", str(proof), "--ca", ca)
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"OK: event {seq} (table.created test.thing:" in done.stdout
        assert "signed by" in done.stdout
    call_command("audit_proof", "5", "--checkpoint", "1", "--output", str(officer_dir / "old.json"))
    assert json.loads((officer_dir / "old.json").read_text())["tree_size"] == 300
    with django_assert_num_queries(3):
        from audit.proofs import inclusion_proof

        assert inclusion_proof(400)["holds"]

    data = json.loads((officer_dir / "proof-257.json").read_text())
    data["event"]["payload"] = '{"forged":true}'
    (officer_dir / "forged.json").write_text(json.dumps(data))
    done = _run(str(officer_dir / "verifier.py"), "inclusion", str(officer_dir / "forged.json"), "--ca", ca)
    assert done.returncode == 1 and "FAILED: event 257 is not in the tree of 513 events" in done.stderr


@pytest.mark.django_db
def test_the_verifier_checks_a_checkpoint_signature_against_the_ca(
    signing_configured: Any, officer_dir: Path, tmp_path: Path
) -> None:
    from audit.devcert import make_dev_certificate

    record_events(3)
    make_checkpoint()
    checkpoint = officer_dir / "checkpoint.json"
    call_command(
        "audit_proof", "2", "--output", str(officer_dir / "p.json"), "--checkpoint-file", str(checkpoint)
    )
    ca = str(signing_configured.ca_pem)
    done = _run(str(officer_dir / "verifier.py"), "checkpoint", str(checkpoint), "--ca", ca)
    assert done.returncode == 0 and "OK: checkpoint no. 1 (seq 3" in done.stdout, done.stderr
    other = make_dev_certificate(tmp_path / "other", casino="Autre casino")
    done = _run(str(officer_dir / "verifier.py"), "checkpoint", str(checkpoint), "--ca", str(other.ca_pem))
    assert done.returncode == 1 and "not issued by the given CA" in done.stderr
    data = json.loads(checkpoint.read_text())
    data["statement"] = data["statement"].replace('"seq":3', '"seq":2')
    (officer_dir / "changed.json").write_text(json.dumps(data))
    done = _run(str(officer_dir / "verifier.py"), "checkpoint", str(officer_dir / "changed.json"), "--ca", ca)
    assert done.returncode == 1 and "statement was changed" in done.stderr


def test_the_verifier_checks_a_register_pdf_against_its_recorded_sha256(officer_dir: Path) -> None:
    pdf = officer_dir / "register.pdf"
    pdf.write_bytes(b"%PDF-1.7 a register")
    digest = hashlib.sha256(pdf.read_bytes()).hexdigest()
    (officer_dir / "report.json").write_text(json.dumps({"id": 4, "sha256": digest}))
    script = str(officer_dir / "verifier.py")
    assert _run(script, "pdf", str(pdf), "--sha256", digest).returncode == 0
    assert _run(script, "pdf", str(pdf), "--record", str(officer_dir / "report.json")).returncode == 0
    pdf.write_bytes(b"%PDF-1.7 another register")
    done = _run(script, "pdf", str(pdf), "--record", str(officer_dir / "report.json"))
    assert done.returncode == 1 and "not the register issued" in done.stderr
    assert _run(script, "pdf", str(pdf), "--record", str(officer_dir / "missing.json")).returncode == 2


@pytest.mark.django_db
def test_a_consistency_proof_shows_today_extends_yesterday(
    signing_configured: Any, officer_dir: Path
) -> None:
    kept = kept_checkpoint(7, officer_dir, "yesterday.json")
    record_events(290)
    make_checkpoint()
    proof = officer_dir / "consistency.json"
    call_command("audit_proof", "--consistency", "1", "2", "--output", str(proof))
    ca = str(signing_configured.ca_pem)
    done = _run(
        str(officer_dir / "verifier.py"), "consistency", str(proof), "--ca", ca, "--trusted", str(kept)
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK: the record of 297 events extends the record of 7 events" in done.stdout


@pytest.mark.django_db
def test_a_consistency_proof_between_a_saved_checkpoint_and_a_rewritten_chain_fails_offline(
    signing_configured: Any, settings: Any, officer_dir: Path
) -> None:
    """Tamper test: the attacker holds the database and every key of the
    application, rewrites event 3, recomputes every MAC and hash, replaces the checkpoints
    with new ones signed by the casino's own key; the officer kept yesterday's checkpoint."""
    kept = kept_checkpoint(6, officer_dir)
    record_events(4)
    make_checkpoint()

    # the rewritten record's checkpoint no. 1, at event 10, signed with the casino's key
    rewrite_and_re_sign(from_seq=3)
    proof = officer_dir / "consistency.json"
    call_command("audit_proof", "--from-size", "6", "--output", str(proof))  # from the officer's tree size
    assert json.loads(proof.read_text())["first_size"] == 6
    ca = str(signing_configured.ca_pem)
    done = _run(str(officer_dir / "verifier.py"), "checkpoint", str(kept), "--ca", ca)
    assert done.returncode == 0  # the officer's checkpoint is genuine
    done = _run(str(officer_dir / "verifier.py"), "consistency", str(proof), "--ca", ca)
    assert done.returncode == 0  # on its own, the rewritten record is consistent with itself
    done = _run(
        str(officer_dir / "verifier.py"), "consistency", str(proof), "--ca", ca, "--trusted", str(kept)
    )
    assert done.returncode == 1, done.stdout
    assert (
        "FAILED: the earlier tree head is not the one of the checkpoint you kept (no. 1, size 6"
        in done.stderr
    )
    assert "FAILED: the tree of 10 events does not extend the tree of 6" in done.stderr
