"""The Celery task that pushes checkpoints to the authority's witnesses (audit.witnesses).

Beat runs it every minute; a checkpoint made (beat, the close of a day or of a séance) queues
it too. When the record grew since the last checkpoint it signs one first, so that while a
séance is open a checkpoint is cosigned every minute. A witness out of reach makes it retry
(its alarm is sealed once the failure outlasts ``AUDIT_WITNESS_ALARM_AFTER``).
"""

from typing import Any

from celery import shared_task

from . import signing
from .chain import head
from .checkpoints import make_checkpoint
from .models import Checkpoint
from .witnesses import push_all


@shared_task(  # type: ignore[untyped-decorator]  # celery has no types
    name="audit.tasks.push_to_witnesses",
    bind=True,
    acks_late=True,
    ignore_result=True,
    max_retries=5,
    default_retry_delay=20,
)
def push_to_witnesses(self: Any, make: bool = True) -> dict[str, Any]:
    if make and signing.is_configured():
        last = Checkpoint.objects.order_by("-number").values_list("seq", flat=True).first() or 0
        if head()[0] > last:
            make_checkpoint()
    outcomes = push_all()
    if any(o.failing for o in outcomes) and not self.request.called_directly:
        raise self.retry()
    return {o.witness: {"cosigned": o.cosigned, "refused": o.refused, "failing": o.failing} for o in outcomes}
