"""The acts of the other books: one act = one service call = one audit event."""

from .approvals import check_approved, end_approval, record_approval
from .orphans import record_orphan, repay_orphan, transfer_orphans
from .tips import count_tips

__all__ = [
    "check_approved",
    "count_tips",
    "end_approval",
    "record_approval",
    "record_orphan",
    "repay_orphan",
    "transfer_orphans",
]
