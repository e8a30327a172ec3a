"""Where the CPU of the ingest path goes: one hand-log POST and one replay.

    python bench/profile_ingest.py [--tables 4] [--hours 2] [--top 15]

The casino and the day of ``bench/ingest.py`` (``--tables`` tables, ``--rate`` rounds an hour
for ``--hours``), in its own database (``bench_profile_ingest``, dropped at the end), in one
process. Each hand log is posted through the API (Django's test client) and then replayed by
the worker's service, in process (the task is not queued: the replays run here, one after the
other, as a worker runs them). For each half it prints the client and server CPU per log and
per round (this process and its PostgreSQL backend, read from /proc: the server must be on this
machine) over the first half of the logs, then, over the second half, the statements of a log
and the Python profile (cProfile, CPU time): the top ``--top`` functions by their own time and
by their cumulated time. ``--dump`` keeps the two profiles for ``pstats``. With ``--batch N``
the logs of a séance are posted ``N`` at a time to the batch endpoint
(``POST /api/tables/sessions/<id>/hand-logs/batch/``) and replayed as its one task replays them
(``services.replay_hand_logs``); the figures stay per log.
"""

from __future__ import annotations

import argparse
import base64
import cProfile
import json
import os
import pstats
import sys
import time
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.checks import create_database, database_name, expect_equal, finish, load  # noqa: E402

DB_NAME = database_name("bench_profile_ingest")
TICK = os.sysconf("SC_CLK_TCK")


def _admin_url(server_url: str) -> str:
    parts = urlsplit(server_url)
    return urlunsplit(parts._replace(path="/postgres")).replace("postgres://", "postgresql://", 1)


def _database(server_url: str, create: bool) -> str:
    import psycopg

    with psycopg.connect(_admin_url(server_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        if create:
            create_database(conn, DB_NAME)
    return urlunsplit(urlsplit(server_url)._replace(path=f"/{DB_NAME}"))


def _backend_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def _backend_pid() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def _print_profile(label: str, profiler: cProfile.Profile, calls: int, top: int) -> None:
    stats = pstats.Stats(profiler)
    total = sum(v[2] for v in stats.stats.values())  # type: ignore[attr-defined]
    for key, title in ((2, "own time"), (3, "cumulated time")):
        rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][key])[:top]  # type: ignore[attr-defined]
        print(f"\n{label}: the top {top} functions by {title} (per log, {calls} logs)")
        for (filename, lineno, name), (_cc, ncalls, tottime, cumtime, _callers) in rows:
            where = f"{Path(filename).parent.name}/{Path(filename).name}:{lineno}" if lineno else filename
            spent = tottime if key == 2 else cumtime
            print(
                f"   {spent / calls * 1e3:7.2f} ms {100 * spent / total:5.1f} %  {name} ({where}) "
                f"x{ncalls / calls:g}"
            )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=4)
    p.add_argument("--hours", type=int, default=2)
    p.add_argument("--rate", type=int, default=60)
    p.add_argument("--top", type=int, default=15)
    p.add_argument("--sealing", choices=["inline", "sealer"], default="inline")
    p.add_argument("--dump", default="", help="write the two profiles (pstats) with this prefix")
    p.add_argument("--batch", type=int, default=1, help="logs of a séance per request (1: the single upload)")
    args = p.parse_args()
    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    os.environ["DATABASE_URL"] = _database(server, create=True)
    os.environ["AUDIT_SEALING"] = args.sealing
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    os.environ.setdefault("TWO_FACTOR_REQUIRED", "0")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    try:
        run(args)
    finally:
        from django.db import connections

        connections.close_all()
        _database(server, create=False)
    finish()


def post(client: Any, units: list[tuple[int, list[bytes]]], batch: int) -> None:
    """Post each séance's logs: alone to the single upload (``batch`` 1), or to the batch endpoint."""
    for session_id, bodies in units:
        if batch == 1:
            response = client.post(
                f"/api/tables/sessions/{session_id}/hand-logs/",
                data=bodies[0],
                content_type="application/json",
            )
            refused = [response.content.decode()] if response.status_code != 201 else []
        else:
            payload = {"logs": [base64.b64encode(body).decode() for body in bodies]}
            response = client.post(
                f"/api/tables/sessions/{session_id}/hand-logs/batch/",
                data=json.dumps(payload),
                content_type="application/json",
            )
            results = response.json()["results"] if response.status_code == 200 else []
            refused = [json.dumps(r["body"]) for r in results if r["status"] != 201]
            if response.status_code != 200:
                refused.append(response.content.decode())
        for text in refused:
            print(f"refused : {text[:200]}")


def replay(ids: list[int]) -> None:
    """Replay the logs of one queued task as the worker does."""
    from tables import services

    if len(ids) == 1:
        services.replay_hand_log(hand_log_id=ids[0])
    else:
        services.replay_hand_logs(hand_log_ids=ids)


def run(args: argparse.Namespace) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from bench.ingest import batches, set_up_day
    from tables.models import Discrepancy, HandLog, Replay
    from tables.services import hand_logs

    croupier, _sessions, jobs, total_rounds, wanted = set_up_day(args.tables, args.hours * args.rate)
    client = Client()
    client.force_login(croupier)
    client.get("/api/tables/sessions/")  # the URLs and the API's modules loaded
    queued: list[list[int]] = []  # the replay tasks queued: their logs
    n = len(jobs)
    pid = _backend_pid()
    print(
        f"profile : {n} hand logs, {total_rounds} rounds, sealing {args.sealing}, "
        f"{args.batch} log(s) a request; load average {load()}"
    )

    # the first half of the logs is timed (CPU of this process and its backend), the second
    # half profiled with its statements captured (both slow the calls down)
    half = n // 2
    timed, profiled = jobs[:half], jobs[half:]

    timed_units, profiled_units = batches(timed, args.batch), batches(profiled, args.batch)
    # the API half: each POST, its replay left in a list (the worker's half below)
    with (
        mock.patch.object(hand_logs.replay_task, "delay", side_effect=lambda log_id: queued.append([log_id])),
        mock.patch.object(hand_logs.replay_batch_task, "delay", side_effect=queued.append),
    ):
        c0, s0, w0 = time.process_time(), _backend_cpu(pid), time.perf_counter()
        post(client, timed_units, args.batch)
        c1, s1, w1 = time.process_time(), _backend_cpu(pid), time.perf_counter()
        timed_tasks = len(queued)
        api_profile = cProfile.Profile(time.process_time)
        with CaptureQueriesContext(connection) as api_queries:
            for unit in profiled_units:
                api_profile.enable()
                post(client, [unit], args.batch)
                api_profile.disable()
    api = (c1 - c0, s1 - s0, w1 - w0)
    expect_equal(HandLog.objects.count(), n, "hand logs stored")
    expect_equal(sum(len(ids) for ids in queued), n, "replays queued")
    if args.dump:
        api_profile.dump_stats(f"{args.dump}-api.prof")

    c0, s0, w0 = time.process_time(), _backend_cpu(pid), time.perf_counter()
    for ids in queued[:timed_tasks]:
        replay(ids)
    c1, s1, w1 = time.process_time(), _backend_cpu(pid), time.perf_counter()
    profiler = cProfile.Profile(time.process_time)
    with CaptureQueriesContext(connection) as worker_queries:
        for ids in queued[timed_tasks:]:
            profiler.enable()
            replay(ids)
            profiler.disable()
    worker = (c1 - c0, s1 - s0, w1 - w0)
    expect_equal(Replay.objects.count(), n, "replays stored")
    expect_equal(
        Discrepancy.objects.filter(round__isnull=False).count(),
        wanted["discrepancies"],
        "discrepancy rows of rounds (the engine's count)",
    )
    if args.dump:
        profiler.dump_stats(f"{args.dump}-worker.prof")

    timed_rounds = sum(len(json.loads(body)["rounds"]) for _sid, body in timed)
    m = len(profiled)
    print(f"\ntimed   : {half} logs, {timed_rounds} rounds; profiled: {m} logs")
    print("\n   | half | client CPU ms/log | server CPU ms/log | wall ms/log | queries/log | CPU µs/round |")
    print("   |---|---|---|---|---|---|")
    for label, (c, s, w), queries in (
        ("API (POST)", api, api_queries),
        ("worker (replay)", worker, worker_queries),
    ):
        print(
            f"   | {label} | {c / half * 1e3:.2f} | {s / half * 1e3:.2f} | {w / half * 1e3:.2f} | "
            f"{len(queries.captured_queries) / m:.1f} | {(c + s) / timed_rounds * 1e6:.0f} |"
        )
    for label, queries in (("API", api_queries), ("worker", worker_queries)):
        per_log = len(queries.captured_queries) // m
        print(f"\n{label}: the statements of the last log, in order")
        for q in queries.captured_queries[-per_log:]:
            print(f"   {q['sql'][:150]}")
    _print_profile("API (POST)", api_profile, m, args.top)
    _print_profile("worker (replay)", profiler, m, args.top)


if __name__ == "__main__":
    main()
