"""The checks of a change to the casino's settings (FR art. 55-5, LU art. 26, 33): pure, no
query."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from casino_ops.regulations import RegulationError, cite


def check_authorised_minimum(before: Mapping[str, Any], after: Mapping[str, Any], saved: bool) -> None:
    """The authorised minimum stake of casino already saved (``saved``) is the decree's: it is
    not changed with the other settings."""
    if saved and str(before.get("authorised_min_stake")) != str(after["authorised_min_stake"]):
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
