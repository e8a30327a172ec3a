"""A deck's life, step by step, with other apps' lines merged in (no import loop).

Other apps (tables: the shoes and sessions a deck served) register a provider in
their ``AppConfig.ready()``::

    from cards_registry.history import PROVIDERS, HistoryLine

    def shoes_of(deck) -> list[HistoryLine]:
        ...

    PROVIDERS.register("tables.shoes", shoes_of)

:func:`cards_registry.selectors.deck_history` merges the depot's own lines and every
provider's lines in time order (ties keep the audit sequence order).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from casino_ops.plugins import Registry


@dataclass(frozen=True)
class HistoryLine:
    """One step of a deck's life: when, what (French), and the audit sequence number of the act."""

    at: dt.datetime
    what: str
    audit_seq: int | None = None


HistoryProvider = Callable[[Any], list[HistoryLine]]

#: ``provider(deck) -> list[HistoryLine]``, each added to every deck's history
PROVIDERS: Registry[HistoryProvider] = Registry("cards_registry.history.PROVIDERS")


def merge(lines: list[HistoryLine]) -> list[HistoryLine]:
    """Time order; at the same instant, the audit order (lines without a number last)."""
    return sorted(lines, key=lambda line: (line.at, line.audit_seq is None, line.audit_seq or 0))
