"""The checks of a change to the casino's settings (FR art. 55-5, LU art. 26, 33): pure, no
query."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino_ops.refusals import Refusal


def check_authorised_minimum(before: Mapping[str, Any], after: Mapping[str, Any], saved: bool) -> None:
    """The authorised minimum stake of casino already saved (``saved``) is the decree's: it is
    not changed with the other settings."""
    if saved and str(before.get("authorised_min_stake")) != str(after["authorised_min_stake"]):
        # FR art. 55-5, LU art. 26, 33: fixed by the decree; changed only by an act citing it
        raise Refusal.AUTHORISED_MINIMUM_BY_DECREE.error(after["profile"])


def check_profile_fixed(before: Mapping[str, Any], after: Mapping[str, Any], books_opened: bool) -> None:
    """The regulation the books are kept under is fixed once the casino recorded its first act in
    them (``books_opened``): changing it is a new casino, not a setting (FR art. 68; LU art. 10)."""
    if books_opened and before.get("profile") != after["profile"]:
        raise Refusal.PROFILE_FIXED.error(str(before.get("profile")), p=before.get("profile"))


def check_rollover_change(before: Any, after: Any, profile: str) -> None:
    """A gaming day never lasts more than 24 hours (FR art. 69; LU art. 10): the day before the new
    roll-over governs runs from the old hour to the new one, so a later hour would stretch it
    beyond 24 hours (06:00 to 23:30: 41 h 30); only an earlier hour (a shorter day) is taken."""
    if before is None or after is None or after <= before:
        return
    stretch = (after.hour * 60 + after.minute) - (before.hour * 60 + before.minute)
    raise Refusal.GAMING_DAY_OVER_24_HOURS.error(
        profile,
        before=before.strftime("%H:%M"),
        after=after.strftime("%H:%M"),
        hours=24 + stretch // 60,
        minutes=stretch % 60,
    )
