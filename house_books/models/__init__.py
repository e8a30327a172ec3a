"""The other books of the casino (LU art. 8, 51, 54, 57, 63; under FR, internal books).

Every row is written by one act of :mod:`house_books.services`, with its audit event
in the same transaction; entries are never edited nor deleted.
"""

from __future__ import annotations

from .books_money import (
    Approval,
    ApprovalEnd,
    ApprovalEndEntry,
    ApprovalFunction,
    OrphanEntry,
    OrphanKind,
    OrphanRepayment,
    OrphanTransfer,
    TipsCount,
)
from .closing import (
    ClosingDown,
    DeviceReturnEntry,
    Disposal,
    DocumentsLeftAt,
    TableNotice,
)
from .devices import (
    DeviceAssignment,
    DeviceState,
    ShoeDevice,
)
from .exclusions import (
    BirthDateValidator,
    Exclusion,
    ExclusionGround,
    ExclusionKind,
    ExclusionLiftEntry,
    ExclusionNoticeEntry,
    ExclusionOrigin,
    OwnExclusionEntry,
    RefusedEntry,
)
from .people import RoleEntry, RoleEntryKind
from .seances import (
    BankFailure,
    EarlyStop,
    EarlyStopReason,
    NewAuthorisation,
    SeanceHours,
)

__all__ = [
    "OrphanKind",
    "OrphanEntry",
    "OrphanRepayment",
    "OrphanTransfer",
    "ApprovalFunction",
    "ApprovalEnd",
    "Approval",
    "ApprovalEndEntry",
    "TipsCount",
    "SeanceHours",
    "EarlyStopReason",
    "EarlyStop",
    "BankFailure",
    "NewAuthorisation",
    "DeviceState",
    "ShoeDevice",
    "DeviceAssignment",
    "BirthDateValidator",
    "ExclusionOrigin",
    "ExclusionKind",
    "ExclusionGround",
    "Exclusion",
    "OwnExclusionEntry",
    "ExclusionNoticeEntry",
    "ExclusionLiftEntry",
    "RefusedEntry",
    "DocumentsLeftAt",
    "Disposal",
    "ClosingDown",
    "TableNotice",
    "DeviceReturnEntry",
    "RoleEntry",
    "RoleEntryKind",
]
