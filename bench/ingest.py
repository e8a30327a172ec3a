"""Benchmark of the hand-log ingestion path: one busy day, end to end.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
    BENCH_REDIS_URL=redis://127.0.0.1:6379/0 python bench/ingest.py [--tables 30]
        [--hours 12] [--rate 60] [--workers 2] [--clients 2] [--keep-db]

One busy day: ``--tables`` tables (30), each with one open session, dealing
``--rate`` rounds an hour (60) for ``--hours`` (12): 21,600 rounds in shoes
simulated by the engine's simulator (a few with faults), sent as hand logs
through the API (``POST /api/tables/sessions/<id>/hand-logs/``, Django test
client in ``--clients`` processes, each its own connection), each stored and
queued on commit to Celery on Redis, replayed by a real worker (a
``celery worker`` subprocess, prefork, ``--workers`` processes) that stores
every discrepancy row.

The benchmark makes its own database ``bench_ingest`` (dropped and made again
with ``migrate``; the server of DATABASE_URL), and prints:

* rounds per second end to end: from the first POST until every log has its
  replay row stored by the worker;
* the API's time per log: median, p95 and max.

With ``--batch N`` (the default, 10) each client sends the logs of a séance ``N`` at a time to
the batch endpoint (``POST /api/tables/sessions/<id>/hand-logs/batch/``, each log received on
its own; their replays queued as one task); ``--batch 1`` sends each log alone to the single
upload. The API's time is then per request.

Simulating the shoes is done before the clock starts.
"""

from __future__ import annotations

import argparse
import base64
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.checks import create_database, database_name, expect_equal, finish, load  # noqa: E402

DB_NAME = database_name("bench_ingest")


TICK = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int, *, reaped: bool = False) -> float:
    """Seconds of CPU the process ``pid`` has used (user + system; 0 once it is gone), with
    ``reaped`` that of its children it has waited for as well (a worker's recycled processes)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    used = int(fields[11]) + int(fields[12])
    if reaped:
        used += int(fields[13]) + int(fields[14])
    return used / TICK


def worker_cpu_now(pid: int) -> float:
    """The CPU of the worker ``pid``: its own, its living processes' and its recycled ones'."""
    return sum(process_cpu(p, reaped=True) for p in family(pid))


def family(pid: int) -> list[int]:
    """``pid`` and its descendants (the worker and its prefork children)."""
    out = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in children:
            out.extend(family(int(child)))
    return out


def backends_cpu(exclude: int) -> float:
    """The CPU of the bench database's PostgreSQL backends (but ``exclude``, this process's own):
    the server must be on this machine."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> %s", [exclude]
        )
        return sum(process_cpu(pid) for (pid,) in cursor.fetchall())


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=30)
    p.add_argument("--hours", type=int, default=12)
    p.add_argument("--rate", type=int, default=60, help="rounds an hour at each table")
    p.add_argument("--workers", type=int, default=2, help="worker processes (prefork)")
    p.add_argument(
        "--max-tasks-per-child",
        type=int,
        default=None,
        help="worker processes are replaced after this many tasks (default: the setting, 50)",
    )
    p.add_argument("--clients", type=int, default=2, help="API client processes")
    p.add_argument(
        "--batch",
        type=int,
        default=10,
        help="logs of a séance per request to the batch endpoint (1: each log alone to the single upload)",
    )
    p.add_argument(
        "--sealing",
        choices=["inline", "sealer"],
        default="inline",
        help="AUDIT_SEALING: inline (each act seals its event) or sealer (an audit_sealer process seals after commit)",
    )
    p.add_argument("--keep-db", action="store_true", help="keep the bench database afterwards")
    p.add_argument(
        "--timeout", type=float, default=600, help="seconds to wait for the replays and the sealing"
    )
    return p.parse_args()


def make_database(server_url: str) -> str:
    """Drop and create the bench database on the server of ``server_url``; return its URL."""
    import psycopg

    parts = urlsplit(server_url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        create_database(conn, DB_NAME)
    return urlunsplit(parts._replace(path=f"/{DB_NAME}"))


def drop_database(server_url: str) -> None:
    import psycopg

    parts = urlsplit(server_url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def simulate_day(tables: list[str], rounds_per_table: int) -> dict[str, list[bytes]]:
    """Per table code, the hand logs (JSON bytes) of its shoes, ``rounds_per_table`` rounds in all."""
    from tables.blackjack.simulator import simulate_shoe

    faults = (("SETTLEMENT_MISMATCH",), ("ILLEGAL_DOUBLE",), ("BET_BELOW_MIN",), ("SETTLEMENT_MISSING",))
    out: dict[str, list[bytes]] = {}
    for t_index, code in enumerate(tables):
        logs: list[bytes] = []
        left = rounds_per_table
        shoe = 0
        while left > 0:
            shoe += 1
            seed = t_index * 10_000 + shoe
            fault = faults[seed % len(faults)] if seed % 7 == 0 else ()
            doc = simulate_shoe(
                seed, "FR", limits=("10.00", "1000.00"), table=code, shoe_id=f"{code}-S{shoe}", faults=fault
            )
            if len(doc["rounds"]) > left:
                doc["rounds"] = doc["rounds"][:left]
            left -= len(doc["rounds"])
            logs.append(json.dumps(doc).encode())
        out[code] = logs
    return out


def main() -> None:
    args = parse_args()
    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
    db_url = make_database(server)
    os.environ["DATABASE_URL"] = db_url
    os.environ["CELERY_BROKER_URL"] = redis_url
    os.environ["AUDIT_SEALING"] = args.sealing
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    os.environ.setdefault("TWO_FACTOR_REQUIRED", "0")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)

    from django.db import connection

    from casino_ops.celery import app
    from tables.models import Discrepancy, HandLog, Replay

    croupier, sessions, jobs, total_rounds, wanted = set_up_day(args.tables, args.hours * args.rate)

    app.conf.update(broker_url=redis_url, task_always_eager=False)
    app.control.purge()
    connection.close()
    env = {**os.environ, "DATABASE_URL": db_url, "CELERY_BROKER_URL": redis_url}
    if args.max_tasks_per_child:
        env["CELERY_WORKER_MAX_TASKS_PER_CHILD"] = str(args.max_tasks_per_child)
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "casino_ops",
            "worker",
            "--pool=prefork",
            f"--concurrency={args.workers}",
            "--loglevel=WARNING",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-n",
            f"bench-ingest-{os.getpid()}@%h",
        ],  # fmt: skip
        cwd=ROOT,
        env=env,
    )
    sealer = None
    if args.sealing == "sealer":
        sealer = subprocess.Popen([sys.executable, "manage.py", "audit_sealer"], cwd=ROOT, env=env)
    try:
        time.sleep(4)  # let the worker connect
        # API clients in separate processes (forked after setup, each with its own connection)
        ctx = multiprocessing.get_context("fork")
        units = batches(jobs, args.batch)
        chunks = [units[i :: args.clients] for i in range(args.clients)]
        results = ctx.Queue()
        ready = ctx.Barrier(len(chunks) + 1)
        procs = [
            ctx.Process(target=client_loop, args=(croupier.pk, chunk, args.batch, results, ready))
            for chunk in chunks
        ]
        for proc in procs:
            proc.start()
        ready.wait(
            timeout=600
        )  # each client has loaded the URLs and signed in: the clock starts with the first POST
        t0 = time.perf_counter()
        latencies: list[float] = []
        errors: list[str] = []
        api_cpu = [0.0, 0.0]  # the clients' processes, their backends
        worker_cpu0 = worker_cpu_now(worker.pid)
        sealer_cpu0 = process_cpu(sealer.pid) if sealer is not None else 0.0
        for _proc in procs:
            lat, errs, cpu = results.get()
            latencies.extend(lat)
            errors.extend(errs)
            api_cpu[0] += cpu[0]
            api_cpu[1] += cpu[1]
        for proc in procs:
            proc.join()
        t_api = time.perf_counter() - t0
        stored = HandLog.objects.count()
        deadline = time.monotonic() + args.timeout
        while Replay.objects.count() < stored and time.monotonic() < deadline:
            if worker.poll() is not None:
                raise SystemExit("bench FAILED: the worker stopped")
            time.sleep(0.1)
        from audit.models import AuditEvent

        # every act sealed in the chain
        while AuditEvent.objects.filter(seq__isnull=True).exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        t_all = time.perf_counter() - t0
        worker_cpu = worker_cpu_now(worker.pid) - worker_cpu0
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            own = cursor.fetchone()[0]
        # the backends still open (the workers' and the sealer's; a worker process recycled
        # after its tasks took its backend with it, whose CPU is then not counted)
        worker_db_cpu = backends_cpu(own)
        sealer_cpu = process_cpu(sealer.pid) - sealer_cpu0 if sealer is not None else 0.0
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        if sealer is not None:
            sealer.terminate()
            sealer.wait(timeout=30)
    latencies.sort() if latencies else latencies.append(float("nan"))
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(
        f"api     : {len(jobs)} logs posted in {len(latencies)} requests ({args.batch} a request at most) "
        f"in {t_api:.1f} s ({args.clients} client processes), {len(errors)} refused"
    )
    print(
        f"api     : per request median {statistics.median(latencies) * 1000:.0f} ms, "
        f"p95 {p95 * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms"
    )
    for err in errors[:3]:
        print(f"refused : {err}")
    _check_work(len(jobs), errors, wanted)
    print(
        f"stored  : {HandLog.objects.count()} logs, {Replay.objects.count()} replays, "
        f"{Discrepancy.objects.count()} discrepancy rows"
    )
    n = max(len(jobs), 1)
    print(
        f"cpu     : per log: API {api_cpu[0] / n * 1e3:.1f} ms (its backends {api_cpu[1] / n * 1e3:.1f} ms), "
        f"workers {worker_cpu / n * 1e3:.1f} ms (the backends still open, theirs and the sealer's: "
        f"{worker_db_cpu / n * 1e3:.1f} ms), sealer {sealer_cpu / n * 1e3:.1f} ms; "
        f"all {(sum(api_cpu) + worker_cpu + worker_db_cpu + sealer_cpu) / total_rounds * 1e6:.0f} µs per round"
    )
    print(f"logs    : {len(jobs)} logs in {t_all:.1f} s -> {len(jobs) / t_all:,.1f} logs/s")
    print(
        f"end2end : {total_rounds} rounds in {t_all:.1f} s -> {total_rounds / t_all:,.0f} rounds/s "
        f"(API + queue + {args.workers} worker processes, max tasks per child "
        f"{args.max_tasks_per_child or 'default'}, discrepancy rows stored, "
        f"audit sealing {args.sealing}; load average {load()})"
    )
    connection.close()
    if not args.keep_db:
        drop_database(server)
    finish()


def set_up_day(
    tables: int, rounds_per_table: int
) -> tuple[Any, dict[str, Any], list[tuple[int, bytes]], int, dict[str, int]]:
    """The casino, ``tables`` tables each with its open séance and a shoe of the depot's decks, and
    the day's hand logs simulated (the croupier, the séances by table code, the (séance id, body)
    jobs in the order they arrive, the rounds in all, what the replays must store)."""
    from decimal import Decimal

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from casino_ops import roles
    from house_books.services.casino import update_casino_settings
    from tables import services
    from tests.support import builders

    User = get_user_model()
    director = User.objects.create_user("bench_director", is_staff=True)
    director.groups.add(Group.objects.get(name=roles.DIRECTOR))
    croupier = User.objects.create_user("bench_croupier", is_staff=True)
    croupier.groups.add(Group.objects.get(name=roles.CROUPIER))
    officer = User.objects.create_user("bench_officer")  # an officer is never the casino's staff
    officer.groups.add(Group.objects.get(name=roles.OFFICER))
    builders.enrol_officer(officer)  # by the tests' demo authority, with the demo passkey
    update_casino_settings(actor=director, name="Bench", profile="FR", authorised_min_stake=Decimal("5.00"))
    day = builders.gaming_day()
    sessions = {}
    for n in range(1, tables + 1):
        table = services.create_table(actor=director, number=n, code=f"BJ{n:02d}")
        sessions[table.code] = builders.open_session(table, director=director, croupier=croupier, day=day)
        # a shoe of the depot's decks at each table: no hand log is taken without one (FR art. 40)
        builders.shoe(sessions[table.code], croupier=croupier, prefix=f"T{n:02d}")
    t_sim = time.perf_counter()
    logs = simulate_day(list(sessions), rounds_per_table)
    # interleaved: each table's first shoe, then each table's second shoe… as logs arrive in a day
    ordered = sorted(
        ((i, sessions[code].pk, body) for code, bodies in logs.items() for i, body in enumerate(bodies)),
        key=lambda item: (item[0], item[1]),
    )
    jobs = [(session_id, body) for _i, session_id, body in ordered]
    total_rounds = sum(len(json.loads(body)["rounds"]) for _sid, body in jobs)
    wanted = _engine_figures(body for _sid, body in jobs)  # what the workers must store
    print(
        f"setup   : {tables} tables, {len(jobs)} hand logs, {total_rounds} rounds "
        f"simulated in {time.perf_counter() - t_sim:.1f} s"
    )
    return croupier, sessions, jobs, total_rounds, wanted


def _engine_figures(bodies: Iterable[bytes]) -> dict[str, int]:
    """What replaying the logs must store, by the engine itself: the rounds replayed in full
    and the discrepancies found in rounds (the session's own differences come on top)."""
    from tables.blackjack import replay

    rounds = found = 0
    for body in bodies:
        report = replay(json.loads(body))
        rounds += sum(1 for r in report["rounds"] if r["replayed"])
        found += sum(1 for d in report["discrepancies"] if d["round"] is not None)
    return {"rounds": rounds, "discrepancies": found}


def _check_work(posted: int, errors: list[str], wanted: dict[str, int]) -> None:
    """Every log sent was stored, replayed by a worker, its discrepancies stored, and every
    act sealed in the chain: otherwise the throughput above counts work not done."""
    from django.db.models import Sum

    from audit.actions import Action
    from audit.models import AuditEvent
    from tables.models import Discrepancy, HandLog, Replay

    expect_equal(len(errors), 0, "hand logs refused by the API")
    expect_equal(HandLog.objects.count(), posted, "hand logs stored")
    expect_equal(Replay.objects.count(), posted, "replays stored")
    replayed = Replay.objects.aggregate(n=Sum("rounds_replayed"))["n"] or 0
    expect_equal(replayed, wanted["rounds"], "rounds replayed in full (the engine's count)")
    in_rounds = Discrepancy.objects.filter(round__isnull=False).count()
    expect_equal(in_rounds, wanted["discrepancies"], "discrepancy rows of rounds (the engine's count)")
    expect_equal(
        AuditEvent.objects.filter(action=Action.HAND_LOG_REPLAYED).count(), posted, "replays in the chain"
    )
    expect_equal(AuditEvent.objects.filter(seq__isnull=True).count(), 0, "events left unsealed")


def batches(jobs: list[tuple[int, bytes]], size: int) -> list[tuple[int, list[bytes]]]:
    """``jobs`` (séance id, log) as requests of at most ``size`` logs of one séance each (its logs
    in their order), the requests in the order of their last log: a séance's machine sends its
    logs once it holds ``size`` of them (or at the day's end)."""
    pending: dict[int, list[bytes]] = {}
    out: list[tuple[int, list[bytes]]] = []
    for session_id, body in jobs:
        held = pending.setdefault(session_id, [])
        held.append(body)
        if len(held) >= size:
            out.append((session_id, pending.pop(session_id)))
    out.extend(pending.items())
    return out


def client_loop(
    user_id: int,
    units: list[tuple[int, list[bytes]]],
    batch: int,
    results: multiprocessing.Queue,
    ready: Any,
) -> None:
    """Post ``units`` (a séance's logs) one after the other, each log alone (``batch`` 1) or in
    one request to the batch endpoint; send back the time of each request and the refusals."""
    from django.contrib.auth import get_user_model
    from django.db import connections
    from django.test import Client

    from casino_ops.celery import app

    connections.close_all()  # never share the parent's database or broker connections
    app._pool = None
    app.amqp._producer_pool = None
    client = Client()
    client.force_login(get_user_model().objects.get(pk=user_id))
    client.get("/api/tables/sessions/")  # the URLs and the API's modules loaded before the clock
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    ready.wait(timeout=600)
    latencies: list[float] = []
    errors: list[str] = []
    cpu0, server0 = time.process_time(), process_cpu(backend)
    try:
        for session_id, bodies in units:
            t = time.perf_counter()
            try:
                if batch == 1:
                    response = client.post(
                        f"/api/tables/sessions/{session_id}/hand-logs/",
                        data=bodies[0],
                        content_type="application/json",
                    )
                else:
                    response = client.post(
                        f"/api/tables/sessions/{session_id}/hand-logs/batch/",
                        data=json.dumps({"logs": [base64.b64encode(body).decode() for body in bodies]}),
                        content_type="application/json",
                    )
            except Exception as exc:  # counted and reported, the run goes on
                errors.append(f"{type(exc).__name__}: {exc}"[:200])
                continue
            latencies.append(time.perf_counter() - t)
            if batch == 1:
                if response.status_code != 201:
                    errors.append(response.content.decode()[:200])
            elif response.status_code != 200:
                errors.extend([response.content.decode()[:200]] * len(bodies))
            else:
                answers = response.json()["results"]
                if len(answers) != len(bodies):
                    errors.append(f"{len(answers)} answers for {len(bodies)} logs")
                errors.extend(json.dumps(a["body"])[:200] for a in answers if a["status"] != 201)
    finally:
        cpu = (time.process_time() - cpu0, process_cpu(backend) - server0)
        connections.close_all()
        results.put((latencies, errors, cpu))


if __name__ == "__main__":
    main()
