"""Settings for the test suite: production settings with test defaults.

Tests run on PostgreSQL (psycopg 3) and, where they queue tasks, Redis. Both
can be pointed elsewhere with DATABASE_URL and TEST_REDIS_URL.
"""

import os

os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("AUDIT_EVENT_KEY", "test-audit-event-key-not-for-production")
# Tests of the apps sign users in with force_login; tests/inspection/portal turn the
# two-factor requirement back on (the production default) and prove it.
os.environ.setdefault("TWO_FACTOR_REQUIRED", "0")
# Static files by their own names (no collectstatic before the tests); the manifest of
# production has its test (tests/casino_ops/test_static_files.py).
os.environ.setdefault("STATIC_MANIFEST", "0")

# The officers' authority: a demo one per test run, made by the first process and named in the
# environment, so that the processes it starts (commands, Celery workers) trust the same one.
# The tests' officers are enrolled with the demo software passkey, which signs their acts
# on the server (OFFICER_DEMO_PASSKEY); the officers' tests turn it off and sign as a browser.
if not os.environ.get("OFFICER_AUTHORITY_CERTIFICATE"):
    import atexit
    import shutil
    import tempfile
    from pathlib import Path

    from casino_ops.authority import make_dev_authority

    _authority_dir = tempfile.mkdtemp(prefix="officer-authority-")
    atexit.register(shutil.rmtree, _authority_dir, ignore_errors=True)
    _authority = make_dev_authority(Path(_authority_dir))
    os.environ["OFFICER_AUTHORITY_CERTIFICATE"] = str(_authority.certificate)
    os.environ["OFFICER_AUTHORITY_DEMO_KEY"] = str(_authority.key)
os.environ.setdefault("OFFICER_CASINO_ID", "casino-demo")
os.environ.setdefault("OFFICER_DEMO_PASSKEY", "1")

from casino_ops.settings import *  # noqa: F403

# The tests seal each event in its act's transaction, so that every test sees the
# chain as it stands at once; the default on PostgreSQL, sealer mode with
# `audit_sealer` running, has its own tests (tests/audit/test_sealer_mode.py).
AUDIT_SEALING = os.environ.get("AUDIT_SEALING", "inline")

# Production requires a witness (check --deploy, verify_audit): one directory per test process,
# removed at its end; each test gets its own (the autouse fixture ``audit_witness`` of conftest.py).
if not os.environ.get("AUDIT_WITNESS_DIR") and not os.environ.get("AUDIT_WITNESS_STORAGE"):
    import atexit
    import shutil
    import tempfile

    AUDIT_WITNESS_DIR = tempfile.mkdtemp(prefix="audit-witness-")
    atexit.register(shutil.rmtree, AUDIT_WITNESS_DIR, ignore_errors=True)

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The casino's checkpoints as C2SP signed notes: a key for the tests only (never in production).
AUDIT_NOTE_KEY = os.environ.get(
    "AUDIT_NOTE_KEY",
    "PRIVATE+KEY+casino-de-test.example/audit+aa69a76b+AY+DSBRZi1CTdBtUgoTtU3bNB3YSSWDXADaHYk2REaYo",
)

# The recipe of a new act, worked (docs/development.md): an app of the tests alone, never the
# product's, holding exactly the recipe's files (tests/recipe_example/test_recipe.py counts them).
INSTALLED_APPS = [*INSTALLED_APPS, "tests.recipe_example"]  # noqa: F405
