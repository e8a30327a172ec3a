"""Checks a higher app adds to the acts of a lower one, without the lower one importing it.

The tables and the depot sit below the other books of the casino (design: nothing imports
what stands above it). Their acts call :func:`run` once, naming the act, its gaming day,
the profile and the people who sign, count or witness it; the apps above register here,
when Django starts, the rules those acts must also obey (approvals, séance hours, a bank
failure). A registered check raises :class:`casino_ops.regulations.RegulationError` to
refuse the act. Without a registered check (the lower app alone), nothing is added.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Protocol

from .plugins import Registry


class Hook(StrEnum):
    """The points of the tables' and the depot's acts where the apps above may bind a check (who
    may perform an act is :class:`casino_ops.access.Act`, another thing). A name that is
    not one of these fails where it is written (``Hook.SESION_OPEN`` at import, ``run("…")``
    with a :class:`ValueError`)."""

    #: any act by a person of the casino, at the gate (:func:`casino_ops.access.require`):
    #: ``people`` the actor, ``day`` the gaming day it is done, ``subject`` its
    #: :class:`casino_ops.access.Act`; ``profile`` may be ``""`` (the casino's, read when needed)
    PERFORM = "act.perform"
    SESSION_OPEN = "session.open"
    SESSION_ADVANCE = "session.advance"
    SESSION_CLOSE = "session.close"
    SESSION_INTERRUPT = "session.interrupt"  # counted, or locked in the box (its key held)
    SESSION_RESUME = "session.resume"  # the play resumes (a locked box reopened)
    SESSION_PLAY = "session.play"  # rounds played: a hand log received (``at``: its shoe filled)
    DEPOT_KEY_HANDOVER = "depot.key_handover"
    DEPOT_RECEIVE = "depot.receive"
    DEPOT_ISSUE = "depot.issue"
    DEPOT_LOCK = "depot.lock"
    DEPOT_COUNT = "depot.count"
    DEPOT_RETURN = "depot.return"
    DEPOT_DESTROY = "depot.destroy"


class ActCheck(Protocol):
    def __call__(
        self,
        *,
        act: Hook,
        day: dt.date,
        profile: str,
        people: Mapping[str, Any],
        at: dt.datetime | None,
        subject: Any,
    ) -> None: ...


#: the checks the apps above bind to these acts, by name (``CHECKS.register("house.hours", check)``)
CHECKS: Registry[ActCheck] = Registry("casino_ops.act_checks.CHECKS")


def run(
    act: Hook | str,
    *,
    day: dt.date,
    profile: str,
    people: Mapping[str, Any],
    at: dt.datetime | None = None,
    subject: Any = None,
) -> None:
    """Every registered check of ``act`` (:class:`Hook`): ``people``
    maps the act's field (``"actor"``, ``"counted_by"``…) to who signs, counts or witnesses;
    ``subject`` is the act's object (a table for an opening, the session for a closing)."""
    act = Hook(act)  # an unknown name is refused here, before any check runs
    for check in CHECKS:
        check(act=act, day=day, profile=profile, people=people, at=at, subject=subject)
