"""README command 1 on a fresh copy: a new virtual environment, SQLite, the demo
casino, the admin served on 127.0.0.1, and the demo director logs in (password,
then the one-time code from the secret the command printed).

The SQLite database it made keeps every guard: a migration that rebuilds a table (SQLite's
way to alter one) loses its triggers, and `migrate` puts them back (audit.apps)."""

from __future__ import annotations

import base64
import contextlib
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import time
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from django_otp.oath import TOTP

from audit.books.guard import sqlite_guard_statements
from tests.support.ports import free_port
from tests.support.walks import product_books

ROOT = Path(__file__).resolve().parents[1]


def _copy_tracked_files(target: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(
        b"\0"
    )
    for name in filter(None, files):
        source = ROOT / name.decode()
        if source.is_file():
            (target / name.decode()).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name.decode())


class _Browser:
    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, path: str) -> tuple[int, str, str]:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.status, response.geturl(), response.read().decode()

    def post_form(self, path: str, data: dict[str, str]) -> tuple[int, str, str]:
        _status, _url, page = self.get(path)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(self.base + path, data=body)
        with self.opener.open(request, timeout=30) as response:
            return response.status, response.geturl(), response.read().decode()


@pytest.mark.slow
def test_readme_command_one_serves_the_admin_and_the_demo_director_logs_in(tmp_path):
    workdir = tmp_path / "casino"
    workdir.mkdir()
    _copy_tracked_files(workdir)
    port = free_port()
    # A fresh shell: none of what the test settings put into this process's environment.
    test_only = {
        "DATABASE_URL",
        "DJANGO_SETTINGS_MODULE",
        "SECRET_KEY",
        "DEBUG",
        "SECURE_SSL_REDIRECT",
        "TWO_FACTOR_REQUIRED",
        "CELERY_BROKER_URL",
        "SIGNING_PKCS12",
        "SIGNING_PKCS12_PASSWORD",
        "STATIC_MANIFEST",
    }
    env = {k: v for k, v in os.environ.items() if k not in test_only}
    env.update(PORT=str(port), HOST="127.0.0.1")
    log = (tmp_path / "start.log").open("w+")
    server = subprocess.Popen(
        ["bash", "scripts/start.sh"],
        cwd=workdir,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    browser = _Browser(base)
    try:
        deadline = time.monotonic() + 600
        while True:
            assert server.poll() is None, (tmp_path / "start.log").read_text()[-3000:]
            try:
                status, _url, _page = browser.get("/admin/login/")
                break
            except OSError:
                assert time.monotonic() < deadline, "the admin was not served in time"
                time.sleep(0.1)  # the server answers as soon as it listens: ask again soon
        assert status == 200
        # its static files as production serves them: hashed names, compressed, cached for a year
        stylesheet = re.search(r'href="(/static/[^"]+\.[0-9a-f]{12}\.css)"', _page)
        assert stylesheet, _page[:2000]
        request = urllib.request.Request(base + stylesheet.group(1), headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.headers["Content-Encoding"] == "gzip"
            assert "immutable" in response.headers["Cache-Control"]

        output = (tmp_path / "start.log").read_text()
        assert "directeur" in output and "demo-directeur" in output
        status, url, page = browser.post_form(
            "/admin/login/?next=/admin/", {"username": "directeur", "password": "demo-directeur"}
        )
        # A director must give a one-time code: the second step.
        assert "/inspection/verification/" in url, url
        secret = re.search(
            r"TOTP secret of directeur \(base32, 6 digits, 30 s\): ([A-Z2-7=]+)", output
        ).group(1)
        code = f"{TOTP(base64.b32decode(secret)).token():06d}"
        status, url, page = browser.post_form(
            urllib.parse.urlparse(url).path + "?next=/admin/", {"code": code}
        )
        assert status == 200
        assert url.endswith("/admin/"), url
        assert "Administration des registres" in page
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()
    assert "Applying audit.0001_initial... OK" in output  # the migrations ran here
    _holds_every_guard(workdir / "var" / "casino.sqlite3")


def _holds_every_guard(database: Path) -> None:
    """Every book's trigger is there, and the record refuses to be changed or emptied."""
    expected = {name for name, _statement in sqlite_guard_statements(product_books())}
    assert len(product_books()) >= 40
    with contextlib.closing(sqlite3.connect(database)) as connection:
        present = {
            row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        }
        assert sorted(expected - present) == []
        assert connection.execute("SELECT count(*) FROM audit_event").fetchone()[0] > 0  # the demo's acts
        for sql in (
            "UPDATE audit_event SET payload = '{\"x\":1}'",
            "DELETE FROM audit_event",
            "UPDATE audit_event SET seq = 1, prev_hash = 'p', hash = 'h', sealed_at = '2026-12-01', payload = 'x'",
        ):
            with pytest.raises(sqlite3.DatabaseError, match="refused"):
                connection.execute(sql)
