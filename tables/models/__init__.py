"""Tables of play (FR art. 42, 55-4, 55-5; LU art. 9, 32, 33)."""

from .control import ControlDay, ControlLine
from .floor import AuthorisedMinimum, Delegation, Game, MinistryNotice, Table
from .sessions import AdvanceEntry, EntryKind, MaximumChange, Session, SessionStatus
from .shoes import (
    Discrepancy,
    DiscrepancyAcknowledgement,
    HandLog,
    HandLogSource,
    Replay,
    ReplayState,
    Shoe,
    ShoeDeck,
)

__all__ = [
    "Game",
    "Table",
    "Delegation",
    "AuthorisedMinimum",
    "MinistryNotice",
    "SessionStatus",
    "Session",
    "EntryKind",
    "AdvanceEntry",
    "MaximumChange",
    "ControlDay",
    "ControlLine",
    "Shoe",
    "ShoeDeck",
    "HandLogSource",
    "HandLog",
    "ReplayState",
    "Replay",
    "Discrepancy",
    "DiscrepancyAcknowledgement",
]
