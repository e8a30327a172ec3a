"""Corrections of the depot's books by a new entry (FR art. 68)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from casino_ops import access
from casino_ops.access import Act
from casino_ops.regulations import RegulationError, cite
from casino_ops.rules import check_approval_in_words

from ..models import (
    Correction,
    Deck,
    DeckReturn,
    Destruction,
    Incident,
    Order,
    Reception,
    ReturnLine,
    Sixain,
    TableCheck,
    TableIssue,
    correction_key,
)
from ..rules import check_correction, check_correction_changes
from ..selectors import current_value
from ._shared import (
    _create,
    _profile,
)

CORRECTABLE: dict[type[Model], tuple[str, ...]] = {
    Order: ("ordered_on", "note"),
    Reception: ("received_on", "delivery_note"),
    Incident: (
        "occurred_at",
        "table_number",
        "shoe_reference",
        "circumstances",
        "kind",
        "card",
        "authority_informed",
        "officer_informed_at",
    ),
    Destruction: ("method",),
    Deck: ("serial", "back_colour"),
    Sixain: ("serial",),
    TableIssue: ("table_number", "day"),
    TableCheck: ("witness", "video_reference", "cards_counted", "band_intact", "order_checked"),
    DeckReturn: ("table_number", "day"),
    ReturnLine: ("result", "cards_counted", "remark"),
}


def _check_serial_free(entry: Model, field: str, new_value: str, profile: str) -> None:
    """A corrected serial is not one the maker already has (as registered or as corrected)."""
    if field != "serial" or not isinstance(entry, Deck | Sixain):
        return
    model = type(entry)
    key = correction_key(model)
    taken = model.objects.filter(manufacturer=entry.manufacturer, serial=new_value.strip()).exclude(
        pk=entry.pk
    )
    corrected = Correction.objects.filter(
        **{f"{key}__manufacturer": entry.manufacturer}, field="serial", new_value=new_value.strip()
    ).exclude(**{key: entry})
    if taken.exists() or corrected.exists():
        raise RegulationError(
            "SERIAL_ALREADY_KNOWN",
            _("Numéro(s) de série déjà connu(s) pour %(maker)s : %(serials)s.")
            % {"maker": entry.manufacturer.name, "serials": new_value.strip()},
            cite("depot.receipt_book", profile),
            field="new_value",
        )


@transaction.atomic
def record_correction(
    *, actor: User, entry: Model, field: str, new_value: str, reason: str, approval: str = ""
) -> Correction:
    """Correct a registered entry by a new entry pointing at it, approved in words by the director.

    Every registered rubric of the depot's books may be corrected (:data:`CORRECTABLE`:
    orders, receptions, deck and sixain serials, issues, checks at the table, returns and
    their lines, incidents, destructions). The corrected entry is never changed: both
    stay visible in the books (FR art. 68). ``approval`` is the director's approval
    written in words (as the tables' corrections).
    """
    profile = _profile()
    article = cite("depot.correction", profile)
    access.require(actor, Act.APPROVE_DEPOT_CORRECTION, article=article)
    fields = CORRECTABLE.get(type(entry))
    if fields is None:
        raise ValueError(f"{type(entry).__name__} entries are not corrected this way")
    check_correction(fields=fields, field=field, reason=reason, profile=profile)
    check_approval_in_words(approval, profile, rule="depot.correction")
    entry = type(entry)._default_manager.select_for_update().get(pk=entry.pk)
    old = current_value(entry, field)
    check_correction_changes(old, str(new_value), profile)
    _check_serial_free(entry, field, str(new_value), profile)
    correction = _create(
        Correction,
        article,
        **{correction_key(type(entry)): entry},
        field=field,
        old_value=old,
        new_value=str(new_value).strip(),
        reason=reason.strip(),
        approval_words=str(approval).strip(),
        approved_by=actor,
        at=timezone.now(),
    )
    audit.record(
        actor=actor,
        action=Action.DEPOT_CORRECTION_RECORDED,
        obj=correction,
        payload={
            "entry": entry._meta.label_lower,
            "entry_id": entry.pk,
            "number": getattr(entry, "number", None),
            "serial": getattr(entry, "serial", None),
            "field": field,
            "old": old,
            "new": correction.new_value,
            "reason": correction.reason,
            "approval": correction.approval_words,
        },
    )
    return correction
