"""Reads of the tables, for the admin, the API, the portal and the printed registers.

Each function loads what it returns in a fixed number of queries, whatever
the size of the result. Amounts are :class:`~decimal.Decimal`.
"""

from __future__ import annotations

# the moment the tables' acts are written (the demo's past days too): the other books write
# theirs on the same clock
from ..clock import history_at
from ..clock import now as acts_now
from ..labels import DISCREPANCY_LABELS, discrepancy_label
from .control import (
    authorised_minimum_acts,
    authorised_minimum_book,
    authorised_minimums_to_stamp,
    control_days,
    control_days_to_stamp,
    control_register,
    day_closing_rules,
    effective_control_lines,
    last_day_named,
    visa_moments,
)
from .reads import (
    authorised_minimums,
    delegations,
    discrepancies_not_acknowledged,
    ministry_notices,
    opening_day,
    session_concerned,
    tables,
)
from .sessions import (
    advance_book,
    advance_entries,
    delegation_dict,
    effective_advances,
    effective_session_advances,
    limits_in_force,
    open_sessions,
    person_name,
    session_report,
    session_rows,
    sessions,
    table_choices,
    table_days,
    table_exists,
    table_in_service,
)
from .shoes import (
    GROUPS,
    dealer_error_summary,
    deck_shoe_history,
    discrepancy_rows,
    hand_log_rows,
    hand_logs,
    recent_discrepancy_rows,
    round_positions,
    rounds_served_by_deck,
)

__all__ = [
    "acts_now",
    "history_at",
    "last_day_named",
    "day_closing_rules",
    "visa_moments",
    "DISCREPANCY_LABELS",
    "discrepancy_label",
    "advance_book",
    "advance_entries",
    "open_sessions",
    "delegation_dict",
    "effective_advances",
    "effective_session_advances",
    "limits_in_force",
    "session_report",
    "sessions",
    "session_rows",
    "table_days",
    "table_exists",
    "table_in_service",
    "table_choices",
    "control_register",
    "effective_control_lines",
    "control_days",
    "authorised_minimums_to_stamp",
    "control_days_to_stamp",
    "authorised_minimum_acts",
    "authorised_minimum_book",
    "deck_shoe_history",
    "GROUPS",
    "dealer_error_summary",
    "hand_logs",
    "rounds_served_by_deck",
    "recent_discrepancy_rows",
    "round_positions",
    "hand_log_rows",
    "discrepancy_rows",
    "authorised_minimums",
    "delegations",
    "discrepancies_not_acknowledged",
    "ministry_notices",
    "opening_day",
    "session_concerned",
    "tables",
    "person_name",
]
