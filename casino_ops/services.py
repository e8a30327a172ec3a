"""Regulated acts on the casino's own settings."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.forms.models import model_to_dict
from django.utils.translation import gettext as _

import audit
from audit.actions import Action

from . import access
from .access import Act
from .models import HOUSE_RULE_KEYS, CasinoSettings
from .regulations import RegulationError, cite
from .rules import check_casino_settings

#: The casino's own fields, then its house rules (the rules engine's keys), then its
#: gaming day and exercise.
CASINO_FIELDS = ("name", "profile", "authorised_min_stake", "authorisation_reference")
CALENDAR_FIELDS = ("gaming_day_rollover", "exercise_start_month", "exercise_start_day")
EDITABLE_FIELDS = (*CASINO_FIELDS, *HOUSE_RULE_KEYS, *CALENDAR_FIELDS)


def get_casino() -> CasinoSettings:
    """The casino's settings (a default row is created on first use)."""
    casino = CasinoSettings.objects.filter(pk=1).first()
    if casino is None:
        casino, _created = CasinoSettings.objects.get_or_create(pk=1, defaults={"name": "Casino"})
    return casino


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
