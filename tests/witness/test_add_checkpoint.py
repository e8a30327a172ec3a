"""The authority's witness, a real process on its own PostgreSQL database: ``POST
/add-checkpoint`` answered as C2SP tlog-witness v1.0.0 says (200 with a timestamped
cosignature/v1, 400, 403, 404, 409 with the size held, 422), the new size stored before the
answer, and the refused requests of a known log kept as evidence."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import threading
import time
import uuid

from audit.merkle import leaf_hash
from tests.support.witness_process import (
    CasinoLog,
    WitnessServer,
)
from tlog import checkpoint as checkpoints
from tlog import note as notes
from tlog.witness import AddCheckpoint


def test_first_then_next_checkpoint_cosigned_with_the_witness_s_time(witness_server: WitnessServer) -> None:
    casino = CasinoLog(witness_server, leaves=5)
    before = int(time.time())
    status, body, _type = witness_server.post(casino.request(0))
    assert status == 200, body
    note = notes.open_note(casino.checkpoint() + body, [casino.key.verifier, witness_server.key.verifier])
    cosignature = note.signed_by(witness_server.key.verifier)
    assert cosignature is not None and before <= (cosignature.timestamp or 0) <= time.time() + 1
    # stored before the answer came back: the size, and the cosigned checkpoint to serve
    assert witness_server.sql("SELECT size FROM witness_log WHERE origin = %s", casino.origin) == [(5,)]
    casino.grow(7)
    status, body, _type = witness_server.post(casino.request(5))
    assert status == 200, body
    status, served = witness_server.get(f"/{witness_server.origin_hash(casino.origin)}/checkpoint")
    assert status == 200 and served.startswith(casino.origin + "\n12\n")
    assert notes.open_note(served, [witness_server.key.verifier]).signed_by(witness_server.key.verifier)
    # the same size again (a push repeated): cosigned again
    assert witness_server.post(casino.request(12))[0] == 200


def test_unknown_log_404_bad_signature_403_bad_request_400(witness_server: WitnessServer) -> None:
    casino = CasinoLog(witness_server, leaves=3)
    stranger = notes.Signer.generate("stranger.example/log")
    head = checkpoints.Checkpoint("stranger.example/log", 1, leaf_hash(b"x"))
    assert witness_server.post(AddCheckpoint(0, [], notes.sign(head.text, stranger)).body)[0] == 404
    # signed by another key of the casino's name: not its key (ignored), so no trusted signature
    impostor = notes.Signer.generate(casino.origin)
    assert witness_server.post(casino.request(0, key=impostor))[0] == 403
    # the casino's key ID with a signature that fails
    body = casino.request(0).decode()
    line = body.rsplit(" ", 1)
    tampered = line[0] + " " + line[1][:10] + ("A" if line[1][10] != "A" else "B") + line[1][11:]
    assert witness_server.post(tampered.encode())[0] == 403
    assert witness_server.post(b"old 4\n\n" + casino.checkpoint().encode())[0] == 400  # old above size
    assert witness_server.post(b"garbage")[0] == 400
    assert witness_server.sql("SELECT size FROM witness_log WHERE origin = %s", casino.origin) == [(0,)]


def test_older_or_forked_view_409_with_the_size_held_and_kept_as_evidence(
    witness_server: WitnessServer,
) -> None:
    casino = CasinoLog(witness_server, leaves=10)
    assert witness_server.post(casino.request(0))[0] == 200
    # a casino restored to an older point presents an older view
    status, body, content_type = witness_server.post(casino.request(0, 6))
    assert (status, body, content_type) == (409, "10\n", "text/x.tlog.size")
    status, body, _ = witness_server.post(casino.request(4))
    assert (status, body) == (409, "10\n")
    refusals = witness_server.sql(
        "SELECT r.status, r.old_size, r.size, r.held_size, r.body FROM witness_refusal r "
        "JOIN witness_log l ON l.id = r.log_id WHERE l.origin = %s ORDER BY r.id",
        casino.origin,
    )
    assert [r[:4] for r in refusals] == [(409, 0, 6, 10), (409, 4, 10, 10)]
    assert refusals[0][4] == casino.request(0, 6).decode()


def test_bad_proof_fork_and_split_view_422(witness_server: WitnessServer) -> None:
    casino = CasinoLog(witness_server, leaves=8)
    assert witness_server.post(casino.request(0))[0] == 200
    # a fork: the log rewritten below size 8, grown to 12; its proof from 8 cannot hold
    forked = CasinoLog.__new__(CasinoLog)
    forked.origin, forked.key = casino.origin, casino.key
    forked.leaves = [leaf_hash(b"rewritten")] + casino.leaves[1:8] + [leaf_hash(b"n%d" % i) for i in range(4)]
    assert witness_server.post(forked.request(8))[0] == 422
    # the same size with another root: a split view
    status, body, _ = witness_server.post(casino.request(8, root=hashlib.sha256(b"other").digest()))
    assert status == 422 and "split view" in body
    # size 0 must be the empty tree; no proof from size 0
    empty = CasinoLog(witness_server)
    assert witness_server.post(empty.request(0, 0, root=b"\1" * 32))[0] == 422
    assert witness_server.post(empty.request(0, 0))[0] == 200
    reasons = witness_server.sql(
        "SELECT r.status, r.size, r.held_root <> r.root FROM witness_refusal r JOIN witness_log l ON l.id = r.log_id "
        "WHERE l.origin = %s ORDER BY r.id",
        casino.origin,
    )
    assert reasons == [(422, 12, True), (422, 8, True)]
    assert witness_server.sql("SELECT size FROM witness_log WHERE origin = %s", casino.origin) == [(8,)]


def test_requests_at_once_never_roll_the_size_back(witness_server: WitnessServer) -> None:
    """Two pushes from the same old size at once: one is cosigned, the other gets 409 (the
    check of the old size and the store of the new one are one transaction)."""
    casino = CasinoLog(witness_server, leaves=4)
    assert witness_server.post(casino.request(0))[0] == 200
    casino.grow(20)
    bodies = [casino.request(4, size) for size in (9, 24, 15, 20)]
    results: list[int] = []
    threads = [threading.Thread(target=lambda b=b: results.append(witness_server.post(b)[0])) for b in bodies]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results).count(200) == 1 and sorted(results).count(409) == 3
    size = witness_server.sql("SELECT size FROM witness_log WHERE origin = %s", casino.origin)[0][0]
    assert size in (9, 24, 15, 20)
    assert witness_server.sql(
        "SELECT count(*) FROM witness_cosigned c JOIN witness_log l ON l.id = c.log_id WHERE l.origin = %s",
        casino.origin,
    ) == [(2,)]


def test_one_witness_many_casinos(witness_server: WitnessServer) -> None:
    casinos = [CasinoLog(witness_server, leaves=n) for n in (1, 2, 3)]
    for casino in casinos:
        assert witness_server.post(casino.request(0))[0] == 200
    for casino in casinos:
        casino.grow(1)
        assert witness_server.post(casino.request(len(casino.leaves) - 1))[0] == 200
    sizes = dict(
        witness_server.sql(
            "SELECT origin, size FROM witness_log WHERE origin = ANY(%s)", [c.origin for c in casinos]
        )
    )
    assert [sizes[c.origin] for c in casinos] == [2, 3, 4]


def test_the_authority_adds_a_casino_s_log_with_its_command(witness_server: WitnessServer) -> None:
    key = notes.Signer.generate(f"casino-{uuid.uuid4().hex[:8]}.example/audit")
    done = witness_server.manage("witness_add_log", key.verifier.vkey, "--name", "CasinoLog de Test")
    assert f"added: {key.name} (size 0)" in done.stdout
    assert witness_server.sql("SELECT name, vkeys FROM witness_log WHERE origin = %s", key.name) == [
        ("CasinoLog de Test", key.verifier.vkey)
    ]
    witness_key = notes.Signer.generate("w.example/x", notes.COSIGNATURE_V1)
    refused = subprocess.run(
        [sys.executable, "-m", "witness", "witness_add_log", witness_key.verifier.vkey],
        env=witness_server.env,
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 1 and "type 0x01" in refused.stderr


def test_a_witness_without_its_key_says_so(witness_server: WitnessServer) -> None:
    refused = witness_server.manage("check", check=False, WITNESS_KEY="")
    assert refused.returncode == 1 and "witness.E001" in refused.stderr and "witness_keygen" in refused.stderr
    assert witness_server.manage("check").returncode == 0
