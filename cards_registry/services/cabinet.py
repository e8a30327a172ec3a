"""The cabinet and its single key (FR art. 39, LU art. 6): handovers and openings for inspection."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from casino_ops import roles
from casino_ops.regulations import RegulationError, cite

from ..models import (
    CabinetOpening,
    KeyHandover,
    OpeningPurpose,
)
from ..selectors import current_key_holder
from ._shared import (
    _create,
    _open_cabinet,
    _profile,
    _require_key_holder,
    _require_management,
)


@transaction.atomic
def hand_over_key(*, actor: Any, receiver: Any, reason: str = "") -> KeyHandover:
    """The single key passes from the actor (its holder) to ``receiver`` (director or committee)."""
    profile = _profile()
    article = cite("depot.cabinet_key", profile)
    # Serialise handovers: the key has one holder at a time.
    list(KeyHandover.objects.select_for_update().order_by("-at", "-id")[:1])
    holder = current_key_holder()
    if holder is None:
        _require_management(actor)
    elif holder.pk != actor.pk:
        raise RegulationError(
            "NOT_KEY_HOLDER",
            _("Seul le détenteur de la clé (%(holder)s) peut la remettre.")
            % {"holder": holder.get_username()},
            article,
            field="actor",
        )
    if not roles.is_management(receiver):
        raise RegulationError(
            "KEY_HOLDER_ROLE",
            _("La clé unique du dépôt est détenue par le directeur ou un membre du comité de direction."),
            article,
            field="receiver",
        )
    if holder is not None and holder.pk == receiver.pk:
        raise RegulationError("KEY_SAME_HOLDER", _("Il détient déjà la clé."), article, field="receiver")
    handover = _create(
        KeyHandover, article, giver=holder, receiver=receiver, at=timezone.now(), reason=reason
    )
    audit.record(
        actor=actor,
        action="depot.key_handed_over",
        obj=handover,
        payload={
            "giver": holder.get_username() if holder else None,
            "receiver": receiver.get_username(),
            "reason": reason,
        },
    )
    return handover


@transaction.atomic
def open_for_inspection(*, actor: Any, demanded_by: Any, note: str = "") -> CabinetOpening:
    """An officer demands the cabinet be opened, which he may do at any time; the key holder opens."""
    profile = _profile()
    _require_key_holder(actor, profile)
    if not roles.is_officer(demanded_by):
        raise RegulationError(
            "INSPECTION_BY_OFFICER",
            _("Une inspection du dépôt est demandée par un officier de police ou de contrôle."),
            cite("depot.cabinet_key", profile),
            field="demanded_by",
        )
    opening = _open_cabinet(
        actor,
        OpeningPurpose.INSPECTION,
        demanded_by=demanded_by,
        note=note,
        article=cite("depot.cabinet_key", profile),
    )
    audit.record(
        actor=actor,
        action="depot.cabinet_opened",
        obj=opening,
        payload={"purpose": "inspection", "demanded_by": demanded_by.get_username(), "note": note},
    )
    return opening
