"""The casino's settings and house rules (règlement intérieur): the director's act.

The row and its rules live in casino_ops, which imports no app; the act records itself
in the chain, so it stands here, above the record, with the house's other books.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.forms.models import model_to_dict
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from casino_ops import access
from casino_ops.access import Act
from casino_ops.models import CasinoSettings
from casino_ops.regulations import RegulationError, cite
from casino_ops.rules import check_casino_settings
from casino_ops.services import EDITABLE_FIELDS


@transaction.atomic
def update_casino_settings(*, actor: Any, **changes: Any) -> CasinoSettings:
    """Change the casino's settings: the director only."""
    access.require(actor, Act.CASINO_SETTINGS)
    # the gaming day's and the exercise's settings left empty in a form keep their value
    changes = {
        key: value
        for key, value in changes.items()
        if not (
            key in ("gaming_day_rollover", "exercise_start_month", "exercise_start_day") and value is None
        )
    }
    unknown = set(changes) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValueError(f"unknown casino settings: {sorted(unknown)}")
    casino = CasinoSettings.objects.select_for_update().filter(pk=1).first() or CasinoSettings(pk=1)
    before = model_to_dict(casino, fields=EDITABLE_FIELDS)
    after = {**before, **changes}
    check_casino_settings(after)
    if casino.pk and CasinoSettings.objects.filter(pk=casino.pk).exists():
        if str(before.get("authorised_min_stake")) != str(after["authorised_min_stake"]):
            # FR art. 55-5, LU art. 26, 33: fixed by the decree; changed only by an act citing it
            raise RegulationError(
                "AUTHORISED_MINIMUM_BY_DECREE",
                _(
                    "La mise minimale autorisée est celle de l'arrêté d'autorisation : elle ne change que "
                    "par un acte citant l'arrêté (référence, date d'entrée en vigueur), visé par un "
                    "fonctionnaire."
                ),
                cite("limits.minimum_maximum", after["profile"]),
                field="authorised_min_stake",
            )
    for key, value in changes.items():
        setattr(casino, key, value)
    casino.full_clean()
    casino.save()
    changed = {
        key: {"before": before.get(key), "after": after[key]}
        for key in EDITABLE_FIELDS
        if str(before.get(key)) != str(after[key])
    }
    audit.record(
        actor=actor,
        action=Action.CASINO_SETTINGS_CHANGED,
        obj=casino,
        payload={"changed": changed, "settings": after},
    )
    return casino
