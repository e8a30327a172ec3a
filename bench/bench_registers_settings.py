"""Settings of bench/registers.py: the test settings, with the tasks on the bench's own queue."""

from tests.settings import *  # noqa: F403

CELERY_TASK_DEFAULT_QUEUE = "bench-registers"
