"""Changes of a session's limits (FR art. 53, 55-5; LU art. 26, 33)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from casino_ops.regulations import RegulationError, cite

from .. import rules
from ..models import (
    MaximumChange,
    Session,
    SessionStatus,
)
from ._shared import (
    _lock_session,
    _require_signer,
    _require_status,
    _save,
)


@transaction.atomic
def change_maximum(*, actor: Any, session: Session, maximum: Decimal, display_changed: bool) -> MaximumChange:
    """FR art. 55-5: the director may change the maximum during the session if the table display
    shows it. LU art. 33: the maximum is fixed for the season and never changes."""
    session = _lock_session(session)
    profile = session.profile
    if profile == "LU":
        raise RegulationError(
            "MAXIMUM_FIXED_FOR_SEASON",
            _("Le maximum est fixé en début de saison et ne peut plus être modifié en cours de saison."),
            cite("limits.maximum_change", profile),
            field="maximum",
        )
    _require_signer(actor, profile, field="actor")
    _require_status(session, SessionStatus.OPEN, SessionStatus.INTERRUPTED)
    rules.check_maximum_multiple(session.minimum, maximum, profile)
    if not display_changed:
        raise RegulationError(
            "DISPLAY_NOT_CHANGED",
            _(
                "Le maximum ne change en cours de séance que s'il est clairement indiqué sur l'affichage de la table."
            ),
            cite("limits.maximum_change", profile),
            field="display_changed",
        )
    change = _save(
        MaximumChange(
            session=session,
            previous=session.maximum,
            maximum=maximum,
            at=timezone.now(),
            by=actor,
            display_changed=True,
        ),
        cite("limits.maximum_change", profile),
    )
    session.maximum = maximum
    _save(session, cite("limits.maximum_change", profile), update_fields=["maximum"])
    audit.record(
        actor=actor,
        action="session.maximum_changed",
        obj=change,
        payload={
            "session": session.pk,
            "previous": change.previous,
            "maximum": maximum,
            "display_changed": True,
        },
    )
    return change


def change_minimum(*, actor: Any, session: Session, minimum: Decimal) -> None:
    """Always refused: FR art. 53, the minimum changes only by closing the table and reopening it
    with a new advance; LU art. 26, the minimum of a table does not change within a day."""
    profile = session.profile
    if profile == "FR":
        message = _(
            "Le minimum ne change pas en cours de séance : clôturez la table et rouvrez-la avec une "
            "nouvelle avance inscrite au carnet."
        )
    else:
        message = _("Le minimum d'une table ne peut être modifié au cours d'une même journée.")
    raise RegulationError(
        "MINIMUM_FIXED_IN_SESSION", message, cite("limits.minimum_change", profile), field="minimum"
    )
