"""The checks of the tables and the articles they cite.

Stake limits: FR art. 53, 55-5; LU art. 26, 33. Cash advances: FR art. 42, 49,
69; LU art. 9, 10, 21, 22. Interruptions: FR art. 69; LU art. 15, 23. Control
register and corrections: FR art. 68, 72; LU art. 10. Hand logs (parsed and
validated by the engine, compared with their session): FR art. 55-4, 55-5;
LU art. 32, 33.

Pure checks over plain values (the services load what they compare with):
each raises :class:`~casino_ops.regulations.RegulationError` naming the
field and citing the article of the casino's profile.
"""

from __future__ import annotations

from .advances import check_advance, check_approval_in_words, check_further_advance, check_guarantee_fund
from .limits import (
    AMOUNT_INTEGER_DIGITS,
    FR_ADVANCE_MULTIPLE,
    LU_MINISTRY_NOTICE_DAYS,
    MAXIMUM_MULTIPLES,
    check_amount,
    check_gaming_day,
    check_limits,
    check_maximum_multiple,
    check_minimum_against_history,
    check_ministry_notice,
    check_ministry_notice_reference,
    check_notice_sent_on,
    check_same_day_reopening,
    check_season_maximum,
    ministry_notice_required,
)
from .logs import (
    MAX_HAND_LOG_BATCH_BYTES,
    MAX_HAND_LOG_BYTES,
    MAX_HAND_LOG_DEPTH,
    MAX_STRING_LENGTH,
    MAX_STRING_LENGTHS,
    boxes_used,
    check_hand_log_batch_size,
    check_hand_log_size,
    parse_hand_log,
    session_differences,
)
from .validation import validated

__all__ = [
    "MAXIMUM_MULTIPLES",
    "FR_ADVANCE_MULTIPLE",
    "LU_MINISTRY_NOTICE_DAYS",
    "AMOUNT_INTEGER_DIGITS",
    "check_amount",
    "check_limits",
    "check_maximum_multiple",
    "check_minimum_against_history",
    "check_gaming_day",
    "check_ministry_notice",
    "check_ministry_notice_reference",
    "check_notice_sent_on",
    "ministry_notice_required",
    "check_same_day_reopening",
    "check_season_maximum",
    "check_advance",
    "check_guarantee_fund",
    "check_further_advance",
    "check_approval_in_words",
    "MAX_HAND_LOG_BATCH_BYTES",
    "MAX_HAND_LOG_BYTES",
    "MAX_HAND_LOG_DEPTH",
    "MAX_STRING_LENGTHS",
    "MAX_STRING_LENGTH",
    "check_hand_log_batch_size",
    "check_hand_log_size",
    "parse_hand_log",
    "boxes_used",
    "session_differences",
    "validated",
]
