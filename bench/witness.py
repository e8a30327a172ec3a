"""Benchmark of the authority's witness and of the officers' offline check of a tlog proof.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/witness.py
        [--casinos 200] [--rounds 10] [--clients 8] [--workers 2] [--threads 4] [--leaves 1000000]

The benchmark makes its own database ``bench_witness`` (the server of DATABASE_URL; dropped at
the end), migrates it with ``python -m witness migrate``, adds ``--casinos`` logs (one note key
each) and starts gunicorn serving ``witness.wsgi`` (``--workers`` processes of ``--threads``
threads) on loopback. Then ``--rounds`` times every casino pushes its next checkpoint (its log
grown by 30 to 300 leaves, a real consistency proof from the size last cosigned), from
``--clients`` concurrent clients (threads, one keep-alive connection each), and it prints:

* add-checkpoint requests per second, median, p95 and max time per request, and how many
  casinos pushing every minute that rate serves;
* the offline verifier's time for one event's tlog proof in a record of ``--leaves`` events
  (``inspection/verifier.py tlog-proof`` in-process: policy, note and cosignature, inclusion);
* the load average before and after: the figures depend on what else the machine runs.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import io
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit.merkle import Tree, TreeBuilder, leaf_hash  # noqa: E402
from tlog import checkpoint as checkpoints  # noqa: E402
from tlog import note as notes  # noqa: E402
from tlog.proof import Proof  # noqa: E402
from tlog.witness import AddCheckpoint  # noqa: E402

DB_NAME = "bench_witness"


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--casinos", type=int, default=200)
    p.add_argument("--rounds", type=int, default=10, help="checkpoints pushed by each casino")
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--workers", type=int, default=2, help="gunicorn processes")
    p.add_argument("--threads", type=int, default=4, help="threads per gunicorn process")
    p.add_argument(
        "--leaves", type=int, default=1_000_000, help="events in the record of the verifier's proof"
    )
    return p.parse_args()


class Log:
    """A casino's log kept as leaf hashes (its Merkle tree rebuilt by the project's own code)."""

    def __init__(self, number: int) -> None:
        self.key = notes.Signer.generate(f"casinos.bench.example/{number:04d}")
        self.leaves: list[bytes] = []
        self.cosigned = 0

    def next_request(self) -> tuple[bytes, int]:
        grow = random.randint(30, 300)
        start = len(self.leaves)
        self.leaves += [leaf_hash(f"{self.key.name} {i}".encode()) for i in range(start, start + grow)]
        size = len(self.leaves)
        tree = Tree(lambda keys: {}, lambda s, e: self.leaves[s:e], 4)
        old = self.cosigned  # the size the previous request will have had cosigned
        proof = tree.consistency_proof(old, size) if old else []
        head = checkpoints.Checkpoint(self.key.name, size, tree.mth(0, size))
        self.cosigned = size
        return AddCheckpoint(old, proof, notes.sign(head.text, self.key)).body, size


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    args = parse_args()
    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    parts = urlsplit(url)
    admin = parts._replace(path="/postgres").geturl()
    witness_db = parts._replace(path=f"/{DB_NAME}").geturl()
    import psycopg

    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    key = notes.Signer.generate("witness.bench.example/w1", notes.COSIGNATURE_V1)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "witness.settings",
        "WITNESS_DATABASE_URL": witness_db,
        "WITNESS_SECRET_KEY": "bench",
        "WITNESS_KEY": key.skey,
    }
    subprocess.run([sys.executable, "-m", "witness", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    logs = [Log(i) for i in range(args.casinos)]
    with psycopg.connect(witness_db, autocommit=True) as conn:
        for log in logs:
            conn.execute(
                "INSERT INTO witness_log (origin, name, vkeys, size, root, checkpoint, added_at) "
                "VALUES (%s, '', %s, 0, '', '', now())",
                (log.key.name, log.key.verifier.vkey),
            )
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", str(args.workers)]
        + ["--threads", str(args.threads), "--keep-alive", "30", "--log-level", "warning", "witness.wsgi"],
        cwd=ROOT,
        env=env,
    )
    try:
        _wait(port)
        print(f"load average before: {os.getloadavg()[0]:.2f}")
        _measure(args, logs, port)
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        server.terminate()
        server.wait(timeout=30)
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
    _verifier_time(args.leaves)


def _wait(port: int) -> None:
    for _ in range(600):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/0/checkpoint")
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the witness did not start")


def _measure(args: argparse.Namespace, logs: list[Log], port: int) -> None:
    # the requests made beforehand (the clients' signing and proofs are not the witness's work)
    rounds = []
    for _ in range(args.rounds):
        rounds.append([(log, *log.next_request()) for log in logs])
    times: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def client(batch: list[tuple[Log, bytes, int]]) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for _log, body, _size in batch:
            started = time.perf_counter()
            conn.request("POST", "/add-checkpoint", body=body, headers={"Content-Type": "text/plain"})
            answer = conn.getresponse()
            answer.read()
            with lock:
                times.append(time.perf_counter() - started)
                statuses[answer.status] = statuses.get(answer.status, 0) + 1
        conn.close()

    started = time.perf_counter()
    for requests in rounds:  # each casino's checkpoints in order, the casinos spread over the clients
        batches = [requests[i :: args.clients] for i in range(args.clients)]
        threads = [threading.Thread(target=client, args=(b,)) for b in batches]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    elapsed = time.perf_counter() - started
    rate = len(times) / elapsed
    ordered = sorted(times)
    print(
        f"add-checkpoint: {len(times)} requests ({args.casinos} casinos x {args.rounds}) in {elapsed:.1f} s: "
        f"{rate:.0f} requests/s; per request median {statistics.median(ordered) * 1000:.1f} ms, "
        f"p95 {ordered[int(len(ordered) * 0.95)] * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms; answers {statuses}"
    )
    print(
        f"  {args.casinos} casinos pushing every minute need {args.casinos / 60:.1f} requests/s; this witness "
        f"serves {rate * 60:.0f} casinos pushing every minute"
    )


def _verifier_time(leaves: int) -> None:
    from inspection import verifier

    log = notes.Signer.generate("casinos.bench.example/verify")
    witness = notes.Signer.generate("witness.bench.example/w1", notes.COSIGNATURE_V1)
    data = b"2026-12-04T22:00:00.000000Z\x1fdirecteur\x1fregister.issued\x1faudit.report\x1f1\x1f{}"
    index = leaves // 3
    builder = TreeBuilder(store_level=64)
    hashes = []
    for i in range(leaves):
        h = leaf_hash(data) if i == index else leaf_hash(i.to_bytes(8, "big"))
        hashes.append(h)
        builder.add(h)
    tree = Tree(lambda keys: {}, lambda s, e: hashes[s:e], 12)
    head = checkpoints.Checkpoint(log.name, leaves, builder.root())
    cosigned = notes.sign(head.text, log) + witness.signature_line(head.text, timestamp=int(time.time()))
    with tempfile.TemporaryDirectory() as directory:
        proof = Path(directory) / "event.tlog-proof"
        proof.write_text(Proof(index, tree.inclusion_path(index, leaves), cosigned, extra=data).text)
        policy = Path(directory) / "policy.txt"
        policy.write_text(f"log {log.verifier.vkey}\nwitness W1 {witness.verifier.vkey}\nquorum W1\n")
        runs = []
        for _ in range(20):
            started = time.perf_counter()
            with contextlib.redirect_stdout(io.StringIO()):
                code = verifier.main(["tlog-proof", str(proof), "--policy", str(policy)])
            runs.append(time.perf_counter() - started)
            assert code == 0
    print(
        f"verifier tlog-proof, one event in a record of {leaves} events: median "
        f"{statistics.median(runs) * 1000:.2f} ms (20 runs, in-process, cryptography imported once)"
    )


if __name__ == "__main__":
    main()
