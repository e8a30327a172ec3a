"""Corrections of the depot's books by a new entry (FR art. 68)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from casino_ops import roles
from casino_ops.regulations import RegulationError, cite

from ..models import (
    Correction,
    Destruction,
    Incident,
    Order,
    Reception,
)
from ..rules import check_correction, check_correction_changes
from ..selectors import current_value
from ._shared import (
    _create,
    _profile,
)

CORRECTABLE = {
    Order: ("ordered_on", "note"),
    Reception: ("received_on", "delivery_note"),
    Incident: ("occurred_at", "table_number", "shoe_reference", "circumstances"),
    Destruction: ("method",),
}


@transaction.atomic
def record_correction(*, actor: Any, entry: Model, field: str, new_value: str, reason: str) -> Correction:
    """Correct a registered entry by a new entry pointing at it; the director approves it.

    The corrected entry is never changed: both stay visible in the books.
    """
    profile = _profile()
    article = cite("books.no_erasure", profile)
    if not roles.has_role(actor, roles.DIRECTOR):
        raise RegulationError(
            "CORRECTION_BY_DIRECTOR",
            _("Une correction est approuvée par le directeur responsable."),
            article,
            field="actor",
        )
    fields = CORRECTABLE.get(type(entry))
    if fields is None:
        raise ValueError(f"{type(entry).__name__} entries are not corrected this way")
    check_correction(fields=fields, field=field, reason=reason, profile=profile)
    entry = type(entry).objects.select_for_update().get(pk=entry.pk)
    old = current_value(entry, field)
    check_correction_changes(old, str(new_value), profile)
    correction = _create(
        Correction,
        article,
        **{type(entry).__name__.lower(): entry},
        field=field,
        old_value=old,
        new_value=str(new_value).strip(),
        reason=reason.strip(),
        approved_by=actor,
        at=timezone.now(),
    )
    audit.record(
        actor=actor,
        action="depot.correction_recorded",
        obj=correction,
        payload={
            "entry": entry._meta.label_lower,
            "entry_id": entry.pk,
            "number": getattr(entry, "number", None),
            "field": field,
            "old": old,
            "new": correction.new_value,
            "reason": correction.reason,
        },
    )
    return correction
