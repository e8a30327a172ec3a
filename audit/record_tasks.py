"""Celery tasks of the record: sealing and checkpoints.

Tasks take ids and are idempotent: late acknowledgement delivers a task again
when its worker dies, and a second delivery finds the work done or in hand.
Their names are those the beat schedule and queued messages carry.
"""

from celery import current_app, shared_task
from django.conf import settings

from .chain import seal_pending
from .checkpoints import make_checkpoint as make


@shared_task(name="audit.tasks.seal_chain", acks_late=True, ignore_result=True)  # type: ignore[untyped-decorator]  # celery has no types
def seal_chain() -> int:
    """Safety net for the sealer: seal whatever is still waiting (idempotent)."""
    return seal_pending()


@shared_task(name="audit.tasks.make_checkpoint", acks_late=True, reject_on_worker_lost=True)  # type: ignore[untyped-decorator]  # celery has no types
def make_checkpoint() -> int | None:
    """Sign the audit chain's head (beat; a checkpoint already made for that head is kept)."""
    checkpoint = make()
    if checkpoint is not None and settings.AUDIT_WITNESS_POLICY:
        # its note to the authority's witnesses at once (audit.witness_tasks)
        current_app.tasks["audit.tasks.push_to_witnesses"].delay(make=False)
    return checkpoint.seq if checkpoint else None
