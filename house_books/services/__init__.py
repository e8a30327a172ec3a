"""The acts of the other books: one act = one service call = one audit event."""

from .approvals import check_approved, end_approval, record_approval
from .casino import update_casino_settings
from .closing import record_closing, stamp_closing
from .exclusions import (
    lift_exclusion,
    notify_own_exclusion,
    record_ministerial_exclusion,
    record_own_exclusion,
    record_refused_entry,
)
from .notices import post_table_notice
from .orphans import record_orphan, repay_orphan, transfer_orphans
from .people import appoint_first_director, grant_role, rename_person, withdraw_role
from .tips import count_tips

__all__ = [
    "appoint_first_director",
    "grant_role",
    "rename_person",
    "withdraw_role",
    "check_approved",
    "count_tips",
    "end_approval",
    "lift_exclusion",
    "notify_own_exclusion",
    "post_table_notice",
    "record_ministerial_exclusion",
    "record_own_exclusion",
    "record_refused_entry",
    "record_approval",
    "record_closing",
    "record_orphan",
    "repay_orphan",
    "stamp_closing",
    "transfer_orphans",
    "update_casino_settings",
]
