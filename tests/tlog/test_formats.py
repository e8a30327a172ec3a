"""Checkpoints, consistency and inclusion proofs, add-checkpoint bodies, policies and tlog
proofs (the examples of C2SP tlog-checkpoint v1.0.0, tlog-witness v1.0.0, tlog-policy and
tlog-proof, github.com/C2SP/C2SP commit 5ba5ee8)."""

from __future__ import annotations

import base64
import hashlib

import pytest

from audit.merkle import Tree, leaf_hash, root_of
from tlog import checkpoint as checkpoints
from tlog import note as notes
from tlog import policy as policies
from tlog import proof as proofs
from tlog import witness as protocol

SOFA = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"


def test_checkpoint_example_and_refusals() -> None:
    head = checkpoints.parse(SOFA)
    assert (head.origin, head.size, head.root.hex()[:8]) == (
        "example.com/behind-the-sofa",
        20852163,
        "0ac5186a",
    )
    assert head.text == SOFA
    for bad in [SOFA[:-1], "o\n012\n" + SOFA.split("\n")[2] + "\n", "o\n1\nAAAA\n", "o\n1\n\n", "o\n-1\nx\n"]:
        with pytest.raises(checkpoints.CheckpointError):
            checkpoints.parse(bad)
    assert checkpoints.parse(
        "o\n0\n" + base64.b64encode(checkpoints.EMPTY_ROOT).decode() + "\nx\n"
    ).extensions == ("x",)


def _tree(n: int) -> tuple[list[bytes], Tree]:
    leaves = [leaf_hash(str(i).encode()) for i in range(n)]
    return leaves, Tree(lambda keys: {}, lambda s, e: leaves[s:e], 2)


def test_consistency_and_inclusion_against_the_record_s_own_proofs() -> None:
    leaves, tree = _tree(40)
    for second in range(1, 41):
        for first in range(0, second + 1):
            proof = tree.consistency_proof(first, second) if first else []
            old, new = root_of(leaves[:first]), root_of(leaves[:second])
            assert checkpoints.verify_consistency(first, second, old, new, proof), (first, second)
            if proof:
                assert not checkpoints.verify_consistency(first, second, old, new, [*proof[:-1], b"\0" * 32])
                assert not checkpoints.verify_consistency(first, second, b"\1" * 32, new, proof)
        for index in range(second):
            path = tree.inclusion_path(index, second)
            assert checkpoints.verify_inclusion(index, second, leaves[index], path, root_of(leaves[:second]))
    assert not checkpoints.verify_consistency(0, 3, b"", root_of(leaves[:3]), [b"x" * 32])


def test_add_checkpoint_body_example() -> None:
    body = (
        "old 20852014\n"
        "PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=\n"
        "jrJZDmY8Y7SyJE0MWLpLozkIVMSMZcD5kvuKxPC3swk=\n"
        "5+pKlUdi2LeF/BcMHBn+Ku6yhPGNCswZZD1X/6QgPd8=\n"
        "/6WVhPs2CwSsb5rYBH5cjHV/wSmA79abXAwhXw3Kj/0=\n"
        "\n"
        + SOFA
        + "\n— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/"
        "Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n"
    ).encode()
    request = protocol.parse_request(body)
    assert request.old_size == 20852014 and len(request.proof) == 4 and request.checkpoint.startswith(SOFA)
    assert request.body == body
    for bad in [
        b"old 01\n\n" + SOFA.encode(),
        b"new 1\n\n",
        b"old 1\nAAAA\n\n",
        b"old 1\n" + b"\n" * 0,
        b"\xff",
    ]:
        with pytest.raises(protocol.RequestError):
            protocol.parse_request(bad)
    assert protocol.parse_size(b"42\n") == 42


def _vkey(name: str, kind: int) -> tuple[notes.Signer, str]:
    signer = notes.Signer.generate(name, kind)
    return signer, signer.verifier.vkey


def test_policy_example_with_groups() -> None:
    log, log_vkey = _vkey("casino.example/log", notes.ED25519)
    w = {n: _vkey(f"{n}.example", notes.COSIGNATURE_V1) for n in ["X1", "X2", "X3", "Y1", "Y2", "Y3"]}
    text = f"# the C2SP example\nlog {log_vkey}\n\n" + "".join(
        f"witness {n} {v}\n" for n, (_s, v) in w.items()
    )
    text += "group X-witnesses 2 X1 X2 X3\n\tgroup Y-witnesses any Y1 Y2 Y3\ngroup X-and-Y all X-witnesses Y-witnesses\n"
    policy = policies.parse(text + "quorum X-and-Y\n")
    assert policy.satisfied({"X1", "X3", "Y2"}) and not policy.satisfied({"X1", "Y2"})
    assert not policy.satisfied({"X1", "X2"}) and policies.parse(f"log {log_vkey}\nquorum none\n").satisfied(
        set()
    )
    note = notes.sign(SOFA.replace("example.com/behind-the-sofa", "casino.example/log"), log)
    cosigned = note + "".join(
        w[n][0].signature_line(note.split("\n\n")[0] + "\n", timestamp=1700000000) for n in ["X1", "X2", "Y3"]
    )
    _note, names, quorum = policy.check(cosigned)
    assert names == {"X1", "X2", "Y3"} and quorum
    for bad, why in [
        (text, "no quorum"),
        (text + "quorum Z\n", "not defined"),
        (text + "quorum X1\nquorum X2\n", "second quorum"),
        (f"log {log_vkey}\nlog {log_vkey}\nquorum none\n", "duplicate key"),
        (f"witness A {log_vkey}\nquorum A\n", "wrong key type"),
        (f"witness A {w['X1'][1]}\ngroup G 2 A\nquorum G\n", "threshold"),
        (f"witness A {w['X1'][1]}\ngroup G any A A\nquorum G\n", "each once"),
        ("frobnicate\nquorum none\n", "line 1"),
    ]:
        with pytest.raises(policies.PolicyError, match=why):
            policies.parse(bad)


def test_tlog_proof_round_trip_and_verification() -> None:
    log, log_vkey = _vkey("casino.example/log", notes.ED25519)
    w1, w1_vkey = _vkey("authority.example/w1", notes.COSIGNATURE_V1)
    leaves, tree = _tree(11)
    head = checkpoints.Checkpoint("casino.example/log", 11, root_of(leaves))
    signed = notes.sign(head.text, log)
    cosigned = signed + w1.signature_line(head.text, timestamp=1700000000)
    proof = proofs.Proof(7, tree.inclusion_path(7, 11), cosigned, extra=b"register")
    assert proofs.parse(proof.text) == proof and proof.text.startswith("c2sp.org/tlog-proof@v1\nextra ")
    policy = policies.parse(f"log {log_vkey}\nwitness W1 {w1_vkey}\nquorum W1\n")
    verified = proofs.verify(proof, leaves[7], policy)
    assert verified.times == {"W1": 1700000000} and verified.checkpoint.size == 11
    with pytest.raises(proofs.ProofError, match="does not lead"):
        proofs.verify(proof, leaves[6], policy)
    with pytest.raises(proofs.ProofError, match="short of the policy"):
        proofs.verify(proofs.Proof(7, proof.path, signed), leaves[7], policy)
    other, _ = _vkey("casino.example/log", notes.ED25519)
    with pytest.raises(proofs.ProofError, match="checkpoint"):
        proofs.verify(proofs.Proof(7, proof.path, notes.sign(head.text, other)), leaves[7], policy)
    with pytest.raises(proofs.ProofError):
        proofs.parse("c2sp.org/tlog-proof@v2\nindex 1\n\n" + cosigned)
    assert hashlib.sha256(b"").digest() == checkpoints.EMPTY_ROOT
