"""The witness's settings, from the environment (nothing shared with a casino's).

``WITNESS_DATABASE_URL`` its database (PostgreSQL in production; SQLite under
``WITNESS_DEBUG``); ``WITNESS_KEY`` its private key, ``PRIVATE+KEY+<name>+<id>+<base64>``
(type 0x04, ``python -m witness witness_keygen NAME`` makes one), or ``WITNESS_KEY_FILE`` a
file holding it; ``WITNESS_SECRET_KEY`` Django's secret (the admin's sessions);
``WITNESS_ALLOWED_HOSTS``.
"""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()

DEBUG = env.bool("WITNESS_DEBUG", default=False)
SECRET_KEY = env.str("WITNESS_SECRET_KEY", default="witness-debug-only" if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("WITNESS_SECRET_KEY is required outside WITNESS_DEBUG.")
ALLOWED_HOSTS = env.list("WITNESS_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])

WITNESS_KEY = env.str("WITNESS_KEY", default="")
if not WITNESS_KEY and env.str("WITNESS_KEY_FILE", default=""):
    WITNESS_KEY = Path(env.str("WITNESS_KEY_FILE")).read_text(encoding="utf-8").strip()

# Other witnesses' monitoring prefixes (comma-separated URLs), compared for split views.
WITNESS_PEERS = env.list("WITNESS_PEERS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "witness",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
ROOT_URLCONF = "witness.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]
WSGI_APPLICATION = "witness.wsgi.application"
DATABASES = {
    "default": env.db_url(
        "WITNESS_DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'var' / 'witness.sqlite3'}" if DEBUG else "",
    )
}
if not DATABASES["default"].get("ENGINE"):
    raise ImproperlyConfigured("WITNESS_DATABASE_URL is required outside WITNESS_DEBUG.")
DATABASES["default"].setdefault("CONN_MAX_AGE", 60)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
TIME_ZONE = "UTC"
LANGUAGE_CODE = "fr"
USE_I18N = True
STATIC_URL = "static/"
STATIC_ROOT = env.str("WITNESS_STATIC_ROOT", default=str(BASE_DIR / "var" / "witness-static"))
# A request body is a checkpoint and at most 63 hashes: a few kilobytes.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
if not DEBUG:
    SESSION_COOKIE_SECURE = env.bool("WITNESS_SECURE_COOKIES", default=True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("WITNESS_LOG_LEVEL", default="WARNING")},
}
