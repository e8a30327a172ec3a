"""Static files in production: WhiteNoise serves them compressed, under names that carry their
content's hash, cached for a year (CompressedManifestStaticFilesStorage after collectstatic);
a favicon on every page."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


def _production_settings(**env: str) -> list[str]:
    unset = {"SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE", "STATIC_MANIFEST"}
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    clean.update({"DEBUG": "0", "SECRET_KEY": "x" * 50, "AUDIT_EVENT_KEY": "y" * 64, **env})
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import casino_ops.settings as s; print(s.STORAGES['staticfiles']['BACKEND']); "
            "print(s.MIDDLEWARE[0]); print(s.MIDDLEWARE[1])",
        ],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_production_serves_static_files_through_whitenoise_with_a_manifest() -> None:
    backend, first, second = _production_settings()
    assert backend == "casino_ops.storage.HashedStaticFilesStorage"
    # right after the security middleware, before anything that reads the session
    assert (first, second) == (
        "django.middleware.security.SecurityMiddleware",
        "whitenoise.middleware.WhiteNoiseMiddleware",
    )


@pytest.mark.django_db
def test_collected_files_are_hashed_compressed_and_cached_for_a_year(
    settings: Any, tmp_path: Path, users: dict[str, Any]
) -> None:
    settings.STORAGES = MANIFEST
    settings.STATIC_ROOT = str(tmp_path / "static")
    settings.MIDDLEWARE = [
        *settings.MIDDLEWARE[:1],
        "whitenoise.middleware.WhiteNoiseMiddleware",
        *settings.MIDDLEWARE[1:],
    ]
    # the project's own files: the admin's and DRF's go the same way, and compressing them took
    # six of the test's seven seconds
    call_command("collectstatic", "--noinput", "--ignore", "admin", "--ignore", "rest_framework", verbosity=0)
    url = static("portal/portal.css")
    assert url != "/static/portal/portal.css" and url.endswith(".css")  # its content's hash in the name
    assert (tmp_path / "static" / url.removeprefix("/static/")).with_suffix(".css.gz").exists()

    client = Client()  # its middleware is built now, with the files just collected
    page = client.get("/inspection/connexion/").content.decode()
    assert f'href="{url}"' in page
    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "immutable" in response["Cache-Control"] and "max-age=315360000" in response["Cache-Control"]
    whole = b"".join(client.get(url).streaming_content)
    assert len(whole) > int(response["Content-Length"])  # sent compressed


@pytest.mark.django_db
def test_every_page_names_the_favicon(client: Any, users: dict[str, Any]) -> None:
    icon = static("casino_ops/favicon.svg")
    for url in ("/inspection/connexion/", "/admin/login/"):
        page = client.get(url).content.decode()
        assert f'<link rel="icon" href="{icon}" type="image/svg+xml">' in page, url
    assert (ROOT / "casino_ops" / "static" / "casino_ops" / "favicon.svg").read_text().startswith("<svg")


def test_the_quick_start_serves_static_files_as_production_does() -> None:
    """The quick start (``DEBUG=1``) collects the static files and serves them through WhiteNoise,
    compressed and cached for a year, as production does (runserver's own static view sends
    them whole and uncached)."""
    script = (ROOT / "scripts" / "start.sh").read_text(encoding="utf-8")
    assert 'export STATIC_MANIFEST="${STATIC_MANIFEST:-1}"' in script
    assert "manage.py collectstatic --noinput" in script and "runserver --nostatic" in script
    unset = {"SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE", "STATIC_MANIFEST"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update({"DEBUG": "1", "STATIC_MANIFEST": "1"})
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import casino_ops.settings as s; print(s.STORAGES['staticfiles']['BACKEND'], s.MIDDLEWARE[1],"
            " s.WHITENOISE_AUTOREFRESH, s.WHITENOISE_USE_FINDERS)",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "casino_ops.storage.HashedStaticFilesStorage",
        "whitenoise.middleware.WhiteNoiseMiddleware",
        "False",
        "False",
    ]
