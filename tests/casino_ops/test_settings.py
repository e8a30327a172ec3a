import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _import_settings(**env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE"}
    }
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", "import casino_ops.settings as s; print(s.TIME_ZONE, s.LANGUAGE_CODE)"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_settings_refuse_to_start_without_secret_key_when_debug_is_off():
    result = _import_settings(DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_settings_start_with_a_secret_key():
    result = _import_settings(DEBUG="0", SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["Europe/Paris", "fr"]


def test_debug_runs_without_a_secret_key():
    assert _import_settings(DEBUG="1").returncode == 0


def test_manage_py_says_what_is_missing_without_a_traceback():
    clean = {
        k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE"}
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**clean, "DEBUG": "0"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "manage.py: SECRET_KEY must be set when DEBUG is off (set DEBUG=1 for local development)."
    ]
