"""Regulated acts on the casino's own settings."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.forms.models import model_to_dict
from django.utils.translation import gettext as _

import audit

from . import roles
from .models import HOUSE_RULE_KEYS, CasinoSettings
from .rules import check_casino_settings

#: The casino's own fields, then its house rules (the rules engine's keys).
CASINO_FIELDS = ("name", "profile", "authorised_min_stake", "authorisation_reference")
EDITABLE_FIELDS = (*CASINO_FIELDS, *HOUSE_RULE_KEYS)


def get_casino() -> CasinoSettings:
    """The casino's settings (a default row is created on first use)."""
    casino = CasinoSettings.objects.filter(pk=1).first()
    if casino is None:
        casino, _created = CasinoSettings.objects.get_or_create(pk=1, defaults={"name": "Casino"})
    return casino


@transaction.atomic
def update_casino_settings(*, actor: Any, **changes: Any) -> CasinoSettings:
    """Change the casino's settings: the director only."""
    if not roles.has_role(actor, roles.DIRECTOR):
        raise PermissionDenied(_("Seul le directeur responsable modifie les paramètres du casino."))
    unknown = set(changes) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValueError(f"unknown casino settings: {sorted(unknown)}")
    casino = CasinoSettings.objects.select_for_update().filter(pk=1).first() or CasinoSettings(pk=1)
    before = model_to_dict(casino, fields=EDITABLE_FIELDS)
    after = {**before, **changes}
    check_casino_settings(after)
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
        action="casino.settings_changed",
        obj=casino,
        payload={"changed": changed, "settings": after},
    )
    return casino
