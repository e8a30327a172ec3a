"""Benchmark of the officers' portal: three pages under concurrent officers.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/portal.py
        [--clients 20] [--seconds 15] [--workers 4] [--extra-shoes 100] [--keep-db]

The benchmark makes its own database ``bench_portal`` (dropped and made again
with ``migrate``; the server of DATABASE_URL), fills it with the demo casino
(``seed_demo``) and ``--extra-shoes`` more hand logs dealt by the engine's
simulator at the demo's open sessions (some with faults), each replayed. It
starts gunicorn (``--workers`` sync workers, production settings with DEBUG
off) on loopback, signs in as the demo officer through the portal's login
with his passkey (the demo's), then for each page runs ``--clients`` concurrent clients
(threads, one keep-alive connection each) for ``--seconds`` and prints:

* requests per second, and the median, p95 and max time per request;
* the number of SQL queries the page makes (its cache empty, then filled:
  the dashboard, the registers and the replay keep their body per version of
  the books), and its median time for one
  request at a time (in-process, Django test client, same database);
* the load average before and after: the figures depend on what else the
  machine runs.

Pages: the dashboard, the receipt book of the current month on screen, and
the visual replay of a round holding a discrepancy.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.checks import create_database, database_name, expect, expect_equal, finish  # noqa: E402

DB_NAME = database_name("bench_portal")
HOST = "127.0.0.1"


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--clients", type=int, default=20)
    p.add_argument("--seconds", type=float, default=15.0, help="measured time per page")
    p.add_argument("--warmup", type=float, default=2.0, help="unmeasured time per page first")
    p.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--extra-shoes", type=int, default=100, help="hand logs added to the demo")
    p.add_argument("--keep-db", action="store_true", help="keep the bench database afterwards")
    return p.parse_args()


def _admin_url(server_url: str) -> str:
    parts = urlsplit(server_url)
    return urlunsplit(parts._replace(path="/postgres")).replace("postgres://", "postgresql://", 1)


def make_database(server_url: str) -> str:
    import psycopg

    with psycopg.connect(_admin_url(server_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        create_database(conn, DB_NAME, seeded=True)
    return urlunsplit(urlsplit(server_url)._replace(path=f"/{DB_NAME}"))


def drop_database(server_url: str) -> None:
    import psycopg

    with psycopg.connect(_admin_url(server_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def fill(extra_shoes: int) -> dict[str, str]:
    """The demo casino plus ``extra_shoes`` replayed hand logs; returns the pages' URLs."""
    import json

    from django.core.management import call_command
    from django.utils import timezone

    from casino_ops import roles
    from tables import services
    from tables.blackjack.simulator import simulate_shoe
    from tables.models import Discrepancy, Session
    from tables.selectors import round_positions

    call_command("seed_demo", "--if-empty", stdout=open(os.devnull, "w"))  # seeded: a copy
    from django.contrib.auth import get_user_model

    croupier = get_user_model().objects.get(groups__name=roles.CROUPIER)
    sessions = list(Session.objects.filter(status="open").select_related("table").order_by("table__number"))
    faults = (("SETTLEMENT_MISMATCH",), ("ILLEGAL_DOUBLE",), ("BET_BELOW_MIN",), ("SETTLEMENT_MISSING",))
    from tests.support import builders

    for i in range(extra_shoes):
        session = sessions[i % len(sessions)]
        if (
            not session.shoes.exists()
        ):  # no hand log is taken without a shoe of the depot's decks (FR art. 40)
            builders.shoe(session, croupier=croupier)
        doc = simulate_shoe(
            50_000 + i,
            session.profile,
            house_rules=session.house_rules,
            limits=(f"{session.minimum:.2f}", f"{session.maximum:.2f}"),
            table=session.table.code,
            shoe_id=f"{session.table.code}-BENCH-{i + 1}",
            faults=faults[i % len(faults)] if i % 3 == 0 else (),
        )
        log = services.upload_hand_log(
            actor=croupier, session=session, raw=json.dumps(doc).encode(), source="command"
        )
        services.replay_hand_log(hand_log_id=log.pk)
    from tables.models import HandLog, Replay

    expect_equal(
        HandLog.objects.filter(shoe_label__contains="-BENCH-").count(), extra_shoes, "hand logs added"
    )
    expect_equal(
        Replay.objects.filter(hand_log__shoe_label__contains="-BENCH-").count(), extra_shoes, "replays"
    )

    disc = Discrepancy.objects.filter(round__isnull=False).select_related("hand_log").order_by("-id").first()
    position = round_positions(disc.hand_log_id)[disc.round]
    today = timezone.localdate()
    period = urlencode(
        {"date_from": (today.replace(day=1) - dt.timedelta(days=1)).replace(day=1), "date_to": today}
    )
    return {
        "dashboard": "/inspection/",
        "register (receipt book)": f"/inspection/registres/receipt-book/?{period}",
        "replay (round with a discrepancy)": f"/inspection/journaux/{disc.hand_log_id}/manches/{position}/",
    }


def query_counts(pages: dict[str, str]) -> tuple[dict[str, str], dict[str, float]]:
    """Per page: its SQL queries (cache empty / cache filled), and its median time alone
    in-process (ms, 20 runs, cache filled)."""
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django_otp import DEVICE_ID_SESSION_KEY

    from casino_ops import officers

    officer = get_user_model().objects.get(username="officier")
    client = Client()
    client.force_login(officer)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = officers.enrolment_in_force(officer).persistent_id  # his passkey
    session.save()
    counts, alone = {}, {}
    for name, url in pages.items():
        assert client.get(url).status_code == 200, url
        cache.clear()
        with CaptureQueriesContext(connection) as cold:
            response = client.get(url)
        assert response.status_code == 200, url
        with CaptureQueriesContext(connection) as warm:
            client.get(url)
        counts[name] = f"{len(cold)}/{len(warm)}"
        times = []
        for _ in range(20):
            t0 = time.perf_counter()
            client.get(url)
            times.append(time.perf_counter() - t0)
        alone[name] = statistics.median(times) * 1000
    return counts, alone


def _cookies(response: http.client.HTTPResponse, jar: dict[str, str]) -> None:
    for header, value in response.getheaders():
        if header.lower() == "set-cookie":
            name, _, rest = value.partition("=")
            jar[name.strip()] = rest.split(";", 1)[0]


def _post(
    conn: http.client.HTTPConnection, url: str, fields: dict[str, str], jar: dict[str, str]
) -> http.client.HTTPResponse:
    conn.request(
        "POST",
        url,
        body=urlencode(fields),
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": "; ".join(f"{k}={v}" for k, v in jar.items()),
        },
    )
    response = conn.getresponse()
    response.read()
    _cookies(response, jar)
    return response


def _get(conn: http.client.HTTPConnection, url: str, jar: dict[str, str]) -> str:
    conn.request("GET", url, headers={"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())})
    response = conn.getresponse()
    body = response.read().decode()
    _cookies(response, jar)
    return body


def login(port: int) -> str:
    """Sign in as the demo officer through the portal (password, then his passkey, the demo's,
    signing the page's challenge as his browser would); the Cookie header."""
    import html
    import json

    from casino_ops.passkeys import SoftwarePasskey, unb64url

    jar: dict[str, str] = {}
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    body = _get(conn, "/inspection/connexion/", jar)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
    fields = {"csrfmiddlewaretoken": token, "username": "officier", "password": "demo-officier"}
    response = _post(conn, "/inspection/connexion/", fields, jar)
    where = response.getheader("Location") or ""
    if response.status != 302 or "/verification/" not in where:
        raise SystemExit(f"login failed (password): HTTP {response.status}")
    body = _get(conn, where, jar)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
    options = json.loads(html.unescape(re.search(r'data-passkey-options="([^"]*)"', body)[1]))
    assertion = SoftwarePasskey.demo().assert_(
        unb64url(options["challenge"]), rp_id=options["rpId"], origin=f"http://{options['rpId']}:{port}"
    )
    response = _post(conn, where, {"csrfmiddlewaretoken": token, "assertion": json.dumps(assertion)}, jar)
    if response.status != 302 or "sessionid" not in jar:
        raise SystemExit(f"login failed (passkey): HTTP {response.status}")
    conn.close()
    return "; ".join(f"{k}={v}" for k, v in jar.items())


def load(port: int, url: str, cookie: str, clients: int, seconds: float) -> tuple[list[float], int, float]:
    """``clients`` threads GET ``url`` for ``seconds``; latencies (s), errors, elapsed."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors = [0] * clients
    start_line = threading.Barrier(clients + 1)
    stop_at = [0.0]

    def client(i: int) -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=60)
        start_line.wait()
        while time.perf_counter() < stop_at[0]:
            t0 = time.perf_counter()
            try:
                conn.request("GET", url, headers={"Cookie": cookie, "Connection": "keep-alive"})
                response = conn.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                conn.close()
                ok = False
            latencies[i].append(time.perf_counter() - t0)
            if not ok:
                errors[i] += 1
        conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    began = time.perf_counter()
    stop_at[0] = began + seconds
    start_line.wait()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    return [x for per in latencies for x in per], sum(errors), elapsed


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[94]


def main() -> None:
    args = parse_args()
    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    db_url = make_database(server)
    os.environ["DATABASE_URL"] = db_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    os.environ["TWO_FACTOR_REQUIRED"] = "1"
    os.environ.pop("CELERY_BROKER_URL", None)  # replays run in-process while filling
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    t0 = time.perf_counter()
    pages = fill(args.extra_shoes)
    print(f"data: demo casino + {args.extra_shoes} replayed hand logs ({time.perf_counter() - t0:.1f} s)")
    counts, alone = query_counts(pages)
    connections.close_all()

    env = {**os.environ, "DEBUG": "0", "SECURE_SSL_REDIRECT": "0", "LOG_LEVEL": "ERROR"}
    gunicorn = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("gunicorn")),
            "casino_ops.wsgi:application",
            "--workers",
            str(args.workers),
            "--bind",
            f"{HOST}:{args.port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        for _ in range(100):
            try:
                conn = http.client.HTTPConnection(HOST, args.port, timeout=2)
                conn.request("GET", "/health/")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.2)
        else:
            raise SystemExit("gunicorn did not start")
        cookie = login(args.port)
        print(
            f"gunicorn: {args.workers} sync workers on {HOST}:{args.port}; {args.clients} concurrent clients, "
            f"{args.seconds:.0f} s per page (after {args.warmup:.0f} s warm-up); CPUs: {os.cpu_count()}"
        )
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(
            f"{'page':<36} {'req/s':>7} {'median':>8} {'p95':>8} {'max':>8} {'errors':>6} {'queries':>7}"
            f" {'alone':>8}"
        )
        for name, url in pages.items():
            load(args.port, url, cookie, args.clients, args.warmup)
            latencies, errors, elapsed = load(args.port, url, cookie, args.clients, args.seconds)
            expect(
                bool(latencies) and errors == 0, f"{name}: {len(latencies)} requests, {errors} not HTTP 200"
            )
            print(
                f"{name:<36} {len(latencies) / elapsed:7.1f} {statistics.median(latencies) * 1000:6.0f} ms"
                f" {p95(latencies) * 1000:5.0f} ms {max(latencies) * 1000:5.0f} ms {errors:6d} {counts[name]:>7}"
                f" {alone[name]:5.1f} ms"
            )
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print("queries: with the page's cache empty / filled (pages are cached per version of the books)")
        print("alone: the page's median time for one request at a time, in-process (no concurrency)")
    finally:
        gunicorn.terminate()
        gunicorn.wait(timeout=30)
        if not args.keep_db:
            drop_database(server)
    finish()


if __name__ == "__main__":
    main()
