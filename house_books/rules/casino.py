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


def check_profile_fixed(before: Mapping[str, Any], after: Mapping[str, Any], books_opened: bool) -> None:
    """The regulation the books are kept under is fixed once the casino recorded its first act in
    them (``books_opened``): changing it is a new casino, not a setting (FR art. 68; LU art. 10)."""
    if books_opened and before.get("profile") != after["profile"]:
        raise RegulationError(
            "PROFILE_FIXED",
            _(
                "La réglementation (%(p)s) est fixée depuis le premier acte inscrit aux registres : "
                "en changer, c'est ouvrir un autre casino, pas modifier un paramètre."
            )
            % {"p": before.get("profile")},
            cite("casino.profile", str(before.get("profile"))),
            field="profile",
        )


def check_rollover_change(before: Any, after: Any, profile: str) -> None:
    """A gaming day never lasts more than 24 hours (FR art. 69; LU art. 10): the day before the new
    roll-over governs runs from the old hour to the new one, so a later hour would stretch it
    beyond 24 hours (06:00 to 23:30: 41 h 30); only an earlier hour (a shorter day) is taken."""
    if before is None or after is None or after <= before:
        return
    stretch = (after.hour * 60 + after.minute) - (before.hour * 60 + before.minute)
    raise RegulationError(
        "GAMING_DAY_OVER_24_HOURS",
        _(
            "Passer l'heure de changement de journée de %(before)s à %(after)s ferait durer une journée "
            "de jeu %(hours)s h %(minutes)02d : une journée de jeu ne dure jamais plus de 24 heures."
        )
        % {
            "before": before.strftime("%H:%M"),
            "after": after.strftime("%H:%M"),
            "hours": 24 + stretch // 60,
            "minutes": stretch % 60,
        },
        cite("advance.gaming_day", profile),
        field="gaming_day_rollover",
    )
