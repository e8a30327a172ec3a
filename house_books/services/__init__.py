"""The acts of the other books: one act = one service call = one audit event."""

from .orphans import record_orphan, repay_orphan, transfer_orphans

__all__ = ["record_orphan", "repay_orphan", "transfer_orphans"]
