"""Regulated acts at the tables.

Limits: FR art. 53, 55-5; LU art. 26, 33. Sessions and the advance book
(FR model n° 10): FR art. 42, 49, 69; LU art. 9, 10, 15, 21-23. Control
register (FR model n° 12) and corrections: FR art. 68, 72; LU art. 10. Shoes:
FR art. 40, 55-4; LU art. 7, 32. Hand logs: FR art. 55-4, 55-5; LU art. 32, 33.

Each act is one function: keyword-only arguments, one transaction, every
rule checked (a refusal is a :class:`RegulationError` citing the article of
the casino's profile and naming the field), and its audit event recorded in
the same transaction. Registered entries are never updated or deleted: a
correction is a new entry pointing at the one it corrects (FR art. 68).
"""

from __future__ import annotations

from ..rules import parse_hand_log, session_differences
from ._shared import ADVANCE_KINDS, AMOUNT_KINDS
from .control_register import close_day, correct_advance_entry, correct_control_line, stamp_control_day
from .floor import create_table, set_table_in_service
from .hand_logs import (
    _store_hand_log,
    acknowledge_discrepancies,
    replay_hand_log,
    replay_hand_logs,
    upload_hand_log,
    upload_hand_logs,
)
from .limits import (
    change_maximum,
    change_minimum,
    grant_delegation,
    record_authorised_minimum,
    record_ministry_notice,
    stamp_authorised_minimum,
)
from .sessions import add_advance, close_session, interrupt_session, open_session, resume_session
from .shoes import fill_shoe

__all__ = [
    "ADVANCE_KINDS",
    "AMOUNT_KINDS",
    "_store_hand_log",
    "acknowledge_discrepancies",
    "add_advance",
    "change_maximum",
    "change_minimum",
    "close_day",
    "close_session",
    "correct_advance_entry",
    "correct_control_line",
    "create_table",
    "fill_shoe",
    "set_table_in_service",
    "stamp_control_day",
    "grant_delegation",
    "record_authorised_minimum",
    "record_ministry_notice",
    "stamp_authorised_minimum",
    "interrupt_session",
    "open_session",
    "parse_hand_log",
    "replay_hand_log",
    "replay_hand_logs",
    "resume_session",
    "session_differences",
    "upload_hand_log",
    "upload_hand_logs",
]
