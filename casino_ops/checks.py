"""The self-inspection: every open breach an inspector would find, with its article.

Each app declares its checks in its own ``checks.py`` module with the
:func:`check` decorator; each app's ``AppConfig.ready()`` imports its ``checks``
module, so this module, at the bottom of the import order, never imports an app. ``manage.py inspect_books`` and the nightly task run them all.

A check is a function ``(day) -> iterable of Breach``: ``day`` is the gaming day the
inspection looks at (``None``: today, as of now). A check that finds nothing yields
nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

from .plugins import Registry


@dataclass(frozen=True)
class Breach:
    """One open breach: the check that found it, the article it breaks, the object
    (as an inspector names it: "BJ03, séance du 01/12/2026", "jeu 1234567") and what
    is wrong. ``url`` is the portal page of the object, where there is one."""

    check: str
    article: str
    object: str
    detail: str
    url: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


CheckFunction = Callable[[dt.date | None], Iterable[Breach]]


@dataclass(frozen=True)
class Check:
    name: str
    label: str
    run: CheckFunction
    # a check that reads the whole record (the chain and every book): run by the command and the
    # nightly task, not by a page that inspects as it is shown
    whole_record: bool = False


#: every check of the apps, by name
CHECKS: Registry[Check] = Registry("casino_ops.checks.CHECKS")


def check(name: str, label: str, *, whole_record: bool = False) -> Callable[[CheckFunction], CheckFunction]:
    """Register ``function`` as the check ``name`` (unique across apps). ``whole_record``: it reads
    the whole audit record, so a page inspecting as it is shown leaves it out."""

    def declare(function: CheckFunction) -> CheckFunction:
        existing = CHECKS.get(name)
        if existing is not None and existing.run is not function:
            raise ValueError(f"inspection check {name!r} declared twice")
        if existing is None:
            CHECKS.register(name, Check(name, label, function, whole_record))
        return function

    return declare


def checks() -> list[Check]:
    return sorted(CHECKS, key=lambda c: c.name)


@dataclass(frozen=True)
class Inspection:
    checks: list[str]
    breaches: list[Breach]

    @property
    def clean(self) -> bool:
        return not self.breaches

    def as_dict(self) -> dict[str, Any]:
        return {"checks": self.checks, "breaches": [b.as_dict() for b in self.breaches]}


def inspect(day: dt.date | None = None, *, whole_record: bool = True) -> Inspection:
    """Run every check (``whole_record=False``: but those reading the whole audit record); the
    breaches in the order of the checks' names."""
    ran = [c for c in checks() if whole_record or not c.whole_record]
    breaches: list[Breach] = []
    for item in ran:
        breaches.extend(item.run(day))
    return Inspection([c.name for c in ran], breaches)
