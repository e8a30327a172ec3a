"""The Celery application.

Reliability settings live in ``settings.py`` under ``CELERY_``: late
acknowledgement (a task whose worker dies is delivered again, so every task
is idempotent), prefetch 1, time limits, outcomes kept in the database
(django-celery-results), worker processes recycled to bound memory.
"""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_ops.settings")

app = Celery("casino_ops")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect  # type: ignore[untyped-decorator]  # celery has no types
def _preload_signing(**kwargs: Any) -> None:
    """The worker's parent imports pyHanko once (Django's start-up leaves it to the first
    signature): every child it forks, and each one that replaces a recycled or lost child,
    finds it imported."""
    from audit import signing  # cycle: audit.signing reads the models, not loaded when this app is made

    signing.preload()
