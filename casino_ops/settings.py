"""Settings of the casino compliance system, read from the environment.

Quick start: nothing to set. DEBUG defaults to on, the database is a SQLite
file under ``var/`` and Celery tasks run in-process. Production: DEBUG off,
``SECRET_KEY`` required, ``DATABASE_URL`` pointing at PostgreSQL (psycopg 3),
``CELERY_BROKER_URL`` pointing at Redis.
"""

import os
from pathlib import Path

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env")

DEBUG = env.bool("DEBUG", default=False)

SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (set DEBUG=1 for local development)."
        )
    SECRET_KEY = "insecure-development-key-only-used-with-debug-on"

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "axes",
    "drf_spectacular",
    "django_celery_results",
    "casino_ops",
    "audit",
    "cards_registry",
    "tables",
    "house_books",
    "inspection",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # compressed with Django's BREACH mitigation; the page showing a second-factor key is not
    # (casino_ops/middleware.py says why)
    "casino_ops.middleware.CompressionMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "casino_ops.middleware.PrivateCacheMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "inspection.portal.middleware.TwoFactorMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "casino_ops.middleware.RegulationErrorMiddleware",
    "axes.middleware.AxesMiddleware",
]

# Login throttling (django-axes) comes first; a login without a request (a
# script, the test client) is not throttled. See inspection/portal/auth.py.
AUTHENTICATION_BACKENDS = [
    "inspection.portal.auth.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=1.0)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "portal/locked.html"
# The lockout page says the time left in words ("59 minutes"), in the admin's code step too.
AXES_LOCKOUT_CALLABLE = "inspection.portal.auth.lockout_response"
# A try during a lockout does not restart it.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Behind a reverse proxy: its addresses or networks (comma-separated). A request from
# one of them is keyed on the client address it forwards (X-Forwarded-For), see
# casino_ops/proxy.py; without it, every user would share the proxy's address.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])
AXES_CLIENT_IP_CALLABLE = "casino_ops.proxy.client_ip"

# Two-factor login (TOTP) for the roles of casino_ops.roles.TWO_FACTOR, in the
# admin and the officers' portal (inspection/portal/middleware.py).
TWO_FACTOR_REQUIRED = env.bool("TWO_FACTOR_REQUIRED", default=True)
OTP_TOTP_ISSUER = env.str("OTP_TOTP_ISSUER", default="Casino — registres")

ROOT_URLCONF = "casino_ops.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "casino_ops.context_processors.casino",
            ],
        },
    },
]

WSGI_APPLICATION = "casino_ops.wsgi.application"

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'var' / 'casino.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, plus writes deferred to the commit (the audit events in
    # sealer mode travel with the COMMIT: casino_ops/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "casino_ops.postgresql"
    # Short connections are cheap with psycopg 3; keep them for a minute.
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
    # The audit events' INSERT is prepared once per connection; off behind a pooler in
    # transaction mode (a session's prepared statements do not follow it there).
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "prepare_held_writes", env.bool("DATABASE_PREPARED_STATEMENTS", default=True)
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    DATABASES["default"].setdefault("OPTIONS", {}).update({"transaction_mode": "IMMEDIATE", "timeout": 20})

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# French first, English available; every label is marked for translation.
LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("French")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# One short form of a day, a moment and an amount per language, admin included.
FORMAT_MODULE_PATH = ["casino_ops.formats"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "var" / "static")
# Production: `collectstatic` writes each file under a name carrying its content's hash, with a
# gzip copy; WhiteNoise serves them compressed and cached for a year (a new version, a new name).
STATIC_MANIFEST = env.bool("STATIC_MANIFEST", default=not DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "casino_ops.storage.HashedStaticFilesStorage"
        if STATIC_MANIFEST
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
if STATIC_MANIFEST:  # right after the security middleware; without it, runserver serves them
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")
# The collected files only, as collected (the quick start, DEBUG=1, serves them as production does:
# scripts/start.sh collects them and runs runserver --nostatic).
WHITENOISE_AUTOREFRESH = False
WHITENOISE_USE_FINDERS = False
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "var" / "media")
MEDIA_URL = "media/"

LOGIN_URL = "admin:login"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        # tokens only for the officers' reads and the hand-log machine (no second factor)
        "casino_ops.authentication.ScopedTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "EXCEPTION_HANDLER": "casino_ops.api.exception_handler",
    # amounts as strings with two decimals everywhere (DRF's own JSON writes a decimal as a float)
    "DEFAULT_RENDERER_CLASSES": [
        "casino_ops.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Casino — registres réglementés",
    "DESCRIPTION": "Read-only API of the officers (registers, decks, sessions, hand logs, audit).",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    # The schema is checked by the test suite (tests/inspection/api/test_schema.py), not by check --deploy.
    "ENABLE_DJANGO_DEPLOY_CHECK": False,
}

# --- Input limits -------------------------------------------------------------
# Every date typed in (a session's day, an order, a reception, an incident, a
# register's period…) lies between the casino's opening and a year ahead
# (casino_ops/validators.py); anything else is refused on its field.
CASINO_OPENED_ON = env.str("CASINO_OPENED_ON", default="2000-01-01")
DATE_WINDOW_DAYS_AHEAD = env.int("DATE_WINDOW_DAYS_AHEAD", default=366)

# --- Self-inspection ----------------------------------------------------------
# A day closed in the control register waits for the officer's visa (FR art. 72);
# ``inspect_books`` names a closed day still not stamped this many days after its closing.
CONTROL_REGISTER_STAMP_DAYS = env.int("CONTROL_REGISTER_STAMP_DAYS", default=7)

# --- Celery -----------------------------------------------------------------
# Without a broker the tasks run in-process (quick start); with one (Redis in
# tests and production) they go to workers. Outcomes are kept in the database.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = "django-db"
CELERY_RESULT_EXTENDED = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=15 * 60)
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=14 * 60)
CELERY_WORKER_MAX_TASKS_PER_CHILD = env.int("CELERY_WORKER_MAX_TASKS_PER_CHILD", default=50)
CELERY_WORKER_MAX_MEMORY_PER_CHILD = env.int("CELERY_WORKER_MAX_MEMORY_PER_CHILD", default=1_500_000)  # KiB
# A message not acknowledged within the visibility timeout is delivered again: longer than the
# longest print (the hard time limit) so that a print is never made twice at once; a worker
# that dies whole is caught sooner by its heartbeat (below).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_TASK_TIME_LIMIT + 5 * 60}
# The process making a report (planning it, one of its parts, its assembly) touches a heartbeat
# on the report's (or the part's) row every REPORT_HEARTBEAT_EVERY seconds, from a thread of its
# own. A report none of whose heartbeats is fresher than REPORT_HEARTBEAT_STALE_AFTER, one of them
# left by a process that died (none of its locks held), is resumed by the beat task every
# REPORT_RECOVERY_EVERY seconds: a dead worker's register resumes within
# REPORT_HEARTBEAT_STALE_AFTER + REPORT_RECOVERY_EVERY seconds (75 s by default) of its death.
REPORT_HEARTBEAT_EVERY = env.float("REPORT_HEARTBEAT_EVERY", default=10.0)
REPORT_HEARTBEAT_STALE_AFTER = env.float("REPORT_HEARTBEAT_STALE_AFTER", default=45.0)
REPORT_RECOVERY_EVERY = env.float("REPORT_RECOVERY_EVERY", default=30.0)
if not 0 < 3 * REPORT_HEARTBEAT_EVERY <= REPORT_HEARTBEAT_STALE_AFTER:
    raise ImproperlyConfigured(
        "REPORT_HEARTBEAT_STALE_AFTER must be at least three times REPORT_HEARTBEAT_EVERY (a live "
        "worker's heartbeat, one beat late, must never look stale)."
    )
# A report "running" with no heartbeat at all (its maker handed its parts to the queue and let
# go) waits for them; still so this long after it started (past every task's time limit: the
# parts' messages were lost with the broker), it is resumed too. After its last attempt, a lost
# report is failed with its reason.
REPORT_STALE_AFTER = env.int("REPORT_STALE_AFTER", default=CELERY_TASK_TIME_LIMIT + 60)
# A signed register embeds the tlog proof of its issuing event under a checkpoint the
# authority's witnesses cosigned (inspection/registers/issuing.py): the print pushes to them,
# each request waiting REGISTER_PROOF_WAIT seconds at most; while the policy's quorum is not
# met the print is tried again every REGISTER_PROOF_RETRY_DELAY seconds, REGISTER_PROOF_RETRIES
# times, then failed with the reason (asked again, it is tried again).
REGISTER_PROOF_WAIT = env.float("REGISTER_PROOF_WAIT", default=5.0)
REGISTER_PROOF_RETRY_DELAY = env.int("REGISTER_PROOF_RETRY_DELAY", default=60)
REGISTER_PROOF_RETRIES = env.int("REGISTER_PROOF_RETRIES", default=30)
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "seal-audit-chain": {"task": "audit.tasks.seal_chain", "schedule": 60.0},
    "sign-audit-checkpoint": {
        "task": "audit.tasks.make_checkpoint",
        "schedule": env.float("AUDIT_CHECKPOINT_EVERY", default=300.0),
    },
    # The books' self-inspection, each night once the gaming day is over (an audited event).
    "inspect-books-nightly": {
        "task": "inspection.tasks.inspect_books",
        "schedule": crontab(hour=6, minute=30),
    },
    "recover-stale-reports": {
        "task": "inspection.tasks.recover_stale_reports",
        "schedule": REPORT_RECOVERY_EVERY,
    },
}

# --- The audit record -------------------------------------------------------
# "sealer" (the default on PostgreSQL): an event travels with its act's COMMIT
# and is sealed into the chain just after, in order, by `manage.py
# audit_sealer` (run it beside the web workers). "inline" (the default on
# SQLite, the quick start): each event is sealed inside the transaction that
# records it, writers serialised until commit. See audit/chain for the
# guarantees of both.
AUDIT_SEALING = env.str(
    "AUDIT_SEALING",
    default="sealer" if DATABASES["default"]["ENGINE"] == "casino_ops.postgresql" else "inline",
)
if AUDIT_SEALING not in {"inline", "sealer"}:
    raise ImproperlyConfigured("AUDIT_SEALING must be 'inline' or 'sealer'.")
# /health/ answers 503 "sealing_late" once an event has waited longer than this many seconds
# to be sealed (the sealer stopped, or cut from the database): the supervisor or the load
# balancer's check sees it.
AUDIT_SEALING_LATE_AFTER = env.int("AUDIT_SEALING_LATE_AFTER", default=60)

# Every event carries an HMAC-SHA256 of its content keyed by AUDIT_EVENT_KEY,
# a secret of the application never stored in the database: the sealer never
# seals an event whose MAC fails (audit/chain.py). Required when DEBUG is off;
# the quick start generates one under var/.
AUDIT_EVENT_KEY = env.str("AUDIT_EVENT_KEY", default="")
if not AUDIT_EVENT_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "AUDIT_EVENT_KEY must be set when DEBUG is off (a long random secret, e.g. "
            "python -c 'import secrets; print(secrets.token_hex(32))')."
        )
    AUDIT_EVENT_KEY = "insecure-development-audit-key-only-used-with-debug-on"

# The witness: every signed checkpoint is also written outside the database,
# to a directory (AUDIT_WITNESS_DIR) or to a storage of STORAGES named by
# AUDIT_WITNESS_STORAGE (for example an S3-compatible bucket through
# django-storages). verify_audit checks the chain against it.
# An event recorded earlier than one sealed before it, by more than these seconds (two writers a
# moment apart are sealed in either order), is named by verify_audit: the clock ran backwards.
AUDIT_CLOCK_TOLERANCE = env.int("AUDIT_CLOCK_TOLERANCE", default=60)
# verify_audit hashes the chain in ranges of at least this many events, one process per core.
AUDIT_VERIFY_MIN_RANGE = env.int("AUDIT_VERIFY_MIN_RANGE", default=200_000)
AUDIT_VERIFY_PROCESSES = env.int("AUDIT_VERIFY_PROCESSES", default=os.cpu_count() or 1)
AUDIT_WITNESS_DIR = env.str("AUDIT_WITNESS_DIR", default=str(BASE_DIR / "var" / "witness") if DEBUG else "")
AUDIT_WITNESS_STORAGE = env.str("AUDIT_WITNESS_STORAGE", default="")
# The sealer writes the chain's head to the witness every that many seconds: the newest acts
# could be removed whole unseen only within that window (verify_audit prints it).
AUDIT_HEAD_WITNESS_EVERY = env.float("AUDIT_HEAD_WITNESS_EVERY", default=10.0)
# Or give the backend here: AUDIT_WITNESS_STORAGE_BACKEND (a dotted class, e.g.
# storages.backends.s3.S3Storage) and AUDIT_WITNESS_STORAGE_OPTIONS (JSON)
# add the storage "audit_witness" to STORAGES and make it the witness.
AUDIT_WITNESS_STORAGE_BACKEND = env.str("AUDIT_WITNESS_STORAGE_BACKEND", default="")
if AUDIT_WITNESS_STORAGE_BACKEND:
    STORAGES = {
        **STORAGES,
        "audit_witness": {
            "BACKEND": AUDIT_WITNESS_STORAGE_BACKEND,
            "OPTIONS": env.json("AUDIT_WITNESS_STORAGE_OPTIONS", default={}),
        },
    }
    AUDIT_WITNESS_STORAGE = AUDIT_WITNESS_STORAGE or "audit_witness"

# --- The authority's witnesses (C2SP tlog-witness) ---------------------------
# The casino's note key signs each checkpoint as a C2SP signed note (PRIVATE+KEY+<origin>+…,
# made by `manage.py audit_note_key ORIGIN`); AUDIT_WITNESS_POLICY names a tlog-policy file:
# the witnesses (vkey and URL) each checkpoint is pushed to, and the quorum of their
# cosignatures officers require. A witness failing longer than AUDIT_WITNESS_ALARM_AFTER
# seconds has its alarm sealed in the record.
AUDIT_NOTE_KEY = env.str("AUDIT_NOTE_KEY", default="")
if not AUDIT_NOTE_KEY and env.str("AUDIT_NOTE_KEY_FILE", default=""):
    AUDIT_NOTE_KEY = Path(env.str("AUDIT_NOTE_KEY_FILE")).read_text(encoding="utf-8").strip()
AUDIT_WITNESS_POLICY = env.str("AUDIT_WITNESS_POLICY", default="")
AUDIT_WITNESS_ALARM_AFTER = env.float("AUDIT_WITNESS_ALARM_AFTER", default=600.0)
AUDIT_WITNESS_TIMEOUT = env.float("AUDIT_WITNESS_TIMEOUT", default=10.0)
# verify_audit names an event dated after the first cosignature covering it, or before the last
# one that did not, by more than this many seconds (the sealing delay, the clocks' drift).
AUDIT_WITNESS_TIME_TOLERANCE = env.float("AUDIT_WITNESS_TIME_TOLERANCE", default=120.0)
# With TIMESTAMP_URL, each checkpoint note is also time-stamped (RFC 3161); the server's root
# certificate (PEM) lets verify_audit check those time-stamps' signatures.
AUDIT_TIMESTAMP_CA = env.str("AUDIT_TIMESTAMP_CA", default="")
CELERY_BEAT_SCHEDULE["push-to-witnesses"] = {"task": "audit.tasks.push_to_witnesses", "schedule": 60.0}

# --- Signed registers and checkpoints (FR art. 68) --------------------------
# The casino's PKCS#12 (key and certificate) signs the PDF registers and the
# audit checkpoints; no default: without it nothing is issued, and making a
# register says so. Demo: `manage.py make_dev_certificate --out var/signing`.
SIGNING_PKCS12 = env.str("SIGNING_PKCS12", default="")
SIGNING_PKCS12_PASSWORD = env.str("SIGNING_PKCS12_PASSWORD", default="")
TIMESTAMP_URL = env.str("TIMESTAMP_URL", default="")  # RFC 3161 server, optional

# --- Officers: enrolled by the authority, signing with their passkeys --------
# The supervising authority's certificate (PEM): it verifies the officers' enrolments
# (docs/officers.md). Required outside DEBUG (check --deploy). Demo: `manage.py
# make_dev_authority --out var/dev-authority`.
OFFICER_AUTHORITY_CERTIFICATE = env.str("OFFICER_AUTHORITY_CERTIFICATE", default="")
# This casino's identifier at the authority: an enrolment names it.
OFFICER_CASINO_ID = env.str("OFFICER_CASINO_ID", default="casino-demo" if DEBUG else "")
# The WebAuthn RP ID: the host name officers sign in on (their passkeys are made for it).
OFFICER_RP_ID = env.str("OFFICER_RP_ID", default="localhost")
# The origins (scheme://host[:port]) an officer's assertion may come from; empty: any origin
# of the RP ID's site (the browser itself asserts only for those).
OFFICER_WEBAUTHN_ORIGINS = env.list("OFFICER_WEBAUTHN_ORIGINS", default=[])
# DEMO ONLY, refused by check --deploy: the demo authority's key, with which seed_demo enrols
# the demo officer, and the demo's software passkey signing on the server for an officer
# enrolled with it (people trying the demo without an authenticator).
OFFICER_AUTHORITY_DEMO_KEY = env.str("OFFICER_AUTHORITY_DEMO_KEY", default="")
OFFICER_DEMO_PASSKEY = env.bool("OFFICER_DEMO_PASSKEY", default=False)

# --- Production hardening ---------------------------------------------------
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    CSRF_COOKIE_HTTPONLY = True
    CSRF_COOKIE_SAMESITE = "Lax"
    SESSION_COOKIE_AGE = env.int("SESSION_COOKIE_AGE", default=8 * 3600)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}
