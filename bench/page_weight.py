"""Page weight of the officers' portal and the admin: the bytes a browser downloads for a page
(its HTML and the static files it links), on a first visit and on a second one.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/page_weight.py [--keep-db]

The script makes its own database ``bench_page_weight`` (the server of DATABASE_URL), fills it
with the demo casino (``seed_demo``), collects the static files into a temporary directory,
then measures each page in-process (Django's test client, production settings, DEBUG off) in
two ways:

* ``before``: the static files as ``collectstatic`` wrote them before WhiteNoise (plain
  storage): sent whole, uncompressed, with no cache lifetime, so a second visit fetches them
  again;
* ``after``: WhiteNoise with ``CompressedManifestStaticFilesStorage``: each file under its
  content's hash, sent gzip-compressed to a browser that accepts it, cached for a year
  (``immutable``), so a second visit fetches none of them.

The HTML is counted as the application sends it (uncompressed: a reverse proxy may compress it
further, the same for both). Prints one line per page and the totals.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.checks import create_database, database_name, expect, finish  # noqa: E402

DB_NAME = database_name("bench_page_weight")
PLAIN = "django.contrib.staticfiles.storage.StaticFilesStorage"
MANIFEST = "whitenoise.storage.CompressedManifestStaticFilesStorage"
WHITENOISE = "whitenoise.middleware.WhiteNoiseMiddleware"
ASSET = re.compile(r'(?:href|src)="(/static/[^"]+)"')


def _admin_url(server_url: str) -> str:
    parts = urlsplit(server_url)
    return urlunsplit(parts._replace(path="/postgres")).replace("postgres://", "postgresql://", 1)


def _database(server_url: str, *, drop_only: bool = False) -> str:
    import psycopg

    with psycopg.connect(_admin_url(server_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        if not drop_only:
            create_database(conn, DB_NAME, seeded=True)
    return urlunsplit(urlsplit(server_url)._replace(path=f"/{DB_NAME}"))


def _pages() -> dict[str, tuple[str, str]]:
    """Name -> (who, URL)."""
    from tables.models import Discrepancy
    from tables.selectors import round_positions

    disc = Discrepancy.objects.filter(round__isnull=False).order_by("id").first()
    replay = (
        f"/inspection/journaux/{disc.hand_log_id}/manches/{round_positions(disc.hand_log_id)[disc.round]}/"
    )
    return {
        "portal: login": ("anonymous", "/inspection/connexion/"),
        "portal: dashboard": ("officier", "/inspection/"),
        "portal: sessions": ("officier", "/inspection/seances/"),
        "portal: replay of a round": ("officier", replay),
        "admin: index": ("directeur", "/admin/"),
        "admin: sessions": ("directeur", "/admin/tables/session/"),
    }


def _client(who: str) -> object:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django_otp import DEVICE_ID_SESSION_KEY
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from casino_ops import officers

    client = Client()
    if who != "anonymous":
        user = get_user_model().objects.get(username=who)
        client.force_login(user)
        session = client.session
        # an officer's second factor is his passkey, the device of his enrolment
        device = officers.enrolment_in_force(user) or TOTPDevice.objects.get(user=user)
        session[DEVICE_ID_SESSION_KEY] = device.persistent_id
        session.save()
    return client


def _measure(mode: str, pages: dict[str, tuple[str, str]]) -> dict[str, tuple[int, int, int]]:
    """Per page: (HTML bytes, static bytes on a first visit, static bytes on a second visit)."""
    from django.conf import settings
    from django.contrib.staticfiles import finders
    from django.test import override_settings

    middleware = [m for m in settings.MIDDLEWARE if m != WHITENOISE]
    if mode == "after":
        middleware.insert(1, WHITENOISE)
    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": MANIFEST if mode == "after" else PLAIN}}
    out = {}
    with override_settings(STORAGES=storages, MIDDLEWARE=middleware):
        for name, (who, url) in pages.items():
            client = _client(who)
            response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
            assert response.status_code == 200, (mode, url, response.status_code)
            html = response.content
            if response.get("Content-Encoding") == "gzip":  # the HTML counted as the application makes it
                html = gzip.decompress(html)
            first = second = 0
            for asset in sorted(set(ASSET.findall(html.decode()))):
                if mode == "before":
                    size = os.path.getsize(finders.find(asset.split("/static/", 1)[1]))
                    first += size
                    second += size  # no cache lifetime: fetched again
                    continue
                got = client.get(asset, HTTP_ACCEPT_ENCODING="gzip")
                assert got.status_code == 200, asset
                first += int(got["Content-Length"])
                cached = "immutable" in got.get("Cache-Control", "")
                second += 0 if cached else int(got["Content-Length"])
            out[name] = (len(html), first, second)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--keep-db", action="store_true", help="keep the bench database afterwards")
    args = p.parse_args()
    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    static_root = tempfile.mkdtemp(prefix="page-weight-")
    os.environ.update(
        {
            "DATABASE_URL": _database(server),
            "DJANGO_SETTINGS_MODULE": "casino_ops.settings",
            "DEBUG": "0",
            "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-" + "x" * 50),
            "AUDIT_EVENT_KEY": os.environ.get("AUDIT_EVENT_KEY", "bench-" + "y" * 64),
            "AUDIT_SEALING": "inline",
            "STATIC_ROOT": static_root,
            "STATIC_MANIFEST": "1",
            "CELERY_BROKER_URL": "",
            "SECURE_SSL_REDIRECT": "0",  # in-process: no TLS to redirect to
            "ALLOWED_HOSTS": "testserver",
        }
    )
    import django

    django.setup()
    from django.core.management import call_command

    try:
        call_command("migrate", verbosity=0)
        call_command("seed_demo", "--if-empty", stdout=open(os.devnull, "w"))  # seeded: a copy
        call_command("collectstatic", "--noinput", verbosity=0)
        pages = _pages()
        before, after = _measure("before", pages), _measure("after", pages)
    finally:
        if not args.keep_db:
            from django.db import connections

            connections.close_all()
            _database(server, drop_only=True)

    def kb(n: int) -> str:
        return f"{n / 1024:.1f} kB"

    print(
        f"{'page':28} {'HTML':>9} | {'static before':>14} {'after':>9} | {'2nd visit before':>16} {'after':>8}"
    )
    totals = [0, 0, 0, 0, 0]
    for name in pages:
        html, first_b, second_b = before[name]
        _, first_a, second_a = after[name]
        for i, v in enumerate((html, first_b, first_a, second_b, second_a)):
            totals[i] += v
        print(
            f"{name:28} {kb(html):>9} | {kb(first_b):>14} {kb(first_a):>9} | {kb(second_b):>16} {kb(second_a):>8}"
        )
    print(
        f"{'total':28} {kb(totals[0]):>9} | {kb(totals[1]):>14} {kb(totals[2]):>9} | "
        f"{kb(totals[3]):>16} {kb(totals[4]):>8}"
    )
    # every page was served (HTTP 200, checked above) and links the static files it is weighed with
    for name in pages:
        expect(before[name][1] > 0 and after[name][1] > 0, f"{name}: its static files fetched")
    finish()


if __name__ == "__main__":
    main()
