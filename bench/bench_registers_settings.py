"""Settings of bench/registers.py: the test settings, with the tasks on the bench's own queue."""

from tests.settings import *  # noqa: F403

CELERY_TASK_DEFAULT_QUEUE = "bench-registers"
# The bench's own database: its demo's checkpoints are witnessed nowhere (not in a
# developer's witness under var/, which would then hold checkpoints of another database).
AUDIT_WITNESS_DIR = ""
