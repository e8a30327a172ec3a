"""The Celery application.

Reliability settings live in ``settings.py`` under ``CELERY_``: late
acknowledgement (a task whose worker dies is delivered again, so every task
is idempotent), prefetch 1, time limits, outcomes kept in the database
(django-celery-results), worker processes recycled to bound memory.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_ops.settings")

app = Celery("casino_ops")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
