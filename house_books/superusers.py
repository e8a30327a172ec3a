"""The server's administrator is no way around the procedure (FR art. 68; LU art. 10).

Being a Django superuser grants no regulated act (:mod:`casino_ops.access` asks for roles only),
and the login asks him the second factor like a director (``inspection.portal.auth``). Making
one on a database in service (one that holds any act) is refused outside ``DEBUG``, and recorded
in the chain when ``DEBUG`` allows it, whatever the way (``createsuperuser``, the shell): the
user's row is checked before it is written, recorded once it is.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage
from django.core.checks import Warning as CheckWarning
from django.core.management.base import CommandError
from django.db import transaction

import audit
from audit.actions import Action
from audit.models import AuditEvent
from casino_ops.refusals import Refusal
from casino_ops.regulations import RegulationError
from casino_ops.services import get_casino


class SuperuserRefused(RegulationError, CommandError):
    """A refusal that ``createsuperuser`` prints as its error (no traceback)."""


def in_service() -> bool:
    """The database holds at least one act."""
    return AuditEvent.objects.exists()


def _becomes_superuser(instance: Any) -> bool:
    if not instance.is_superuser:
        return False
    if instance.pk is None:
        return True
    was = (
        type(instance)._default_manager.filter(pk=instance.pk).values_list("is_superuser", flat=True).first()
    )
    return not was


def refuse_in_service(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    """``pre_save`` of the user: a new superuser on a database in service, outside DEBUG."""
    instance._becomes_superuser = False
    if raw or not _becomes_superuser(instance) or not in_service():
        return
    if not settings.DEBUG:
        refusal = Refusal.SUPERUSER_IN_SERVICE.error(get_casino().profile)
        raise SuperuserRefused(refusal.code, refusal.message, refusal.article, field=refusal.field)
    instance._becomes_superuser = True


def record_in_service(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    """``post_save`` of the user: the superuser made on a database in service (DEBUG), recorded."""
    if raw or not getattr(instance, "_becomes_superuser", False):
        return
    instance._becomes_superuser = False
    with transaction.atomic():
        audit.record(
            actor=None,
            action=Action.HOUSE_SUPERUSER_CREATED,
            obj=instance,
            payload={"username": instance.get_username()},
        )


def check_superusers(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """``check --deploy``: a superuser is no way around the procedure; say so, and name those
    that exist (each logs in with the second factor, holds no regulated act)."""
    from django.contrib.auth import get_user_model
    from django.db import DatabaseError

    try:
        names = list(get_user_model().objects.filter(is_superuser=True).values_list("username", flat=True))
    except DatabaseError:  # not migrated yet
        return []
    if not names:
        return []
    return [
        CheckWarning(
            f"superusers exist: {', '.join(sorted(names))}. A superuser holds no regulated act (roles "
            "come from the director's book of roles), logs in with the second factor, and none is "
            "created on a database holding acts outside DEBUG.",
            id="house_books.W001",
        )
    ]
