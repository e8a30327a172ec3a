"""Settings of bench/peers.py: the test settings, with the peers' apps and the bench's models.

The peers (django-pghistory, django-simple-history, django-auditlog) are installed
here only, never in the project's INSTALLED_APPS. Commits are durable
(synchronous_commit on, whatever the server's default).
"""

from tests.settings import *  # noqa: F403

INSTALLED_APPS = [
    *INSTALLED_APPS,  # noqa: F405
    "pgtrigger",
    "pghistory",
    "simple_history",
    "auditlog",
    "bench.peer_models",
]
DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=on"  # noqa: F405
DATABASES["default"]["CONN_MAX_AGE"] = None  # noqa: F405
# The bench's database makes no checkpoint: no witness (a developer's own, under var/,
# would hold checkpoints this database never made).
AUDIT_WITNESS_DIR = ""
