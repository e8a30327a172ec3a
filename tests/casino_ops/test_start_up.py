"""What every process pays to start: Django set up and the URLs loaded (a command, a Celery
worker, the server) import none of the heavy libraries that only some acts use. Each is
imported where it is used: the PDF's signing and validation (pyHanko), its drawing
(WeasyPrint), the QR code of a second factor, the passkeys' assertions (py_webauthn), the
public holidays' calendars. The suite starts over a hundred processes, and a casino's
commands and workers start as often."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Imported by the acts that use them, never with the start of a process.
HEAVY = ("pyhanko", "weasyprint", "qrcode", "webauthn", "holidays", "pyasn1_modules")

PROBE = (
    "import sys, django; django.setup();"
    " from django.urls import get_resolver; get_resolver().url_patterns;"
    f" print(' '.join(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))))"
)


def test_a_process_started_with_django_and_its_urls_imports_no_heavy_library() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == [], f"imported at start: {done.stdout.strip()}"
