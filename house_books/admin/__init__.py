"""The admin of the other books, for the director and the committee (in French).

Entries are read-only; "Ajouter" opens the act's form, which calls its service
(a refusal shows on its field with the article). Nothing is chosen by a database
id: an entry is picked in a list by its number. One module per book; the casino's
own settings (the director's act) are kept here too, since their act is recorded.
"""

from __future__ import annotations

# the admin's base classes for regulated acts, imported first: the books' modules use them
from casino_ops.admin_acts import ActAdmin, ActForm

from .approvals import ApprovalAdmin, ApprovalEndAdmin, ApprovalEndForm, ApprovalForm
from .casino import CasinoSettingsAdmin, CasinoSettingsForm
from .closing import ClosingDownAdmin, ClosingForm
from .devices import (
    DeviceAssignmentAdmin,
    DeviceAssignmentForm,
    DeviceReturnAdmin,
    DeviceReturnForm,
    ShoeDeviceAdmin,
    ShoeDeviceForm,
)
from .exclusions import (
    ExclusionAdmin,
    ExclusionLiftAdmin,
    ExclusionLiftForm,
    ExclusionNoticeAdmin,
    ExclusionNoticeForm,
    MinisterialExclusionForm,
    OwnExclusionAdmin,
    OwnExclusionForm,
    RefusedEntryAdmin,
    RefusedEntryForm,
)
from .hours import (
    BankFailureAdmin,
    BankFailureForm,
    EarlyStopAdmin,
    EarlyStopForm,
    NewAuthorisationAdmin,
    NewAuthorisationForm,
    SeanceHoursAdmin,
    SeanceHoursForm,
)
from .notices import TableNoticeAdmin, TableNoticeForm
from .orphans import (
    OrphanEntryAdmin,
    OrphanEntryForm,
    OrphanRepaymentAdmin,
    OrphanRepaymentForm,
    OrphanTransferAdmin,
    OrphanTransferForm,
)
from .roles import AccountAdmin, RoleEntryAdmin, RoleEntryForm
from .tips import TipsCountAdmin, TipsCountForm

__all__ = [
    "AccountAdmin",
    "ActAdmin",
    "ActForm",
    "ApprovalAdmin",
    "ApprovalEndAdmin",
    "ApprovalEndForm",
    "ApprovalForm",
    "BankFailureAdmin",
    "BankFailureForm",
    "CasinoSettingsAdmin",
    "CasinoSettingsForm",
    "ClosingDownAdmin",
    "ClosingForm",
    "DeviceAssignmentAdmin",
    "DeviceAssignmentForm",
    "DeviceReturnAdmin",
    "DeviceReturnForm",
    "EarlyStopAdmin",
    "EarlyStopForm",
    "ExclusionAdmin",
    "ExclusionLiftAdmin",
    "ExclusionLiftForm",
    "ExclusionNoticeAdmin",
    "ExclusionNoticeForm",
    "MinisterialExclusionForm",
    "NewAuthorisationAdmin",
    "NewAuthorisationForm",
    "OrphanEntryAdmin",
    "OrphanEntryForm",
    "OrphanRepaymentAdmin",
    "OrphanRepaymentForm",
    "OrphanTransferAdmin",
    "OrphanTransferForm",
    "OwnExclusionAdmin",
    "OwnExclusionForm",
    "RefusedEntryAdmin",
    "RefusedEntryForm",
    "RoleEntryAdmin",
    "RoleEntryForm",
    "SeanceHoursAdmin",
    "SeanceHoursForm",
    "TableNoticeAdmin",
    "TableNoticeForm",
    "ShoeDeviceAdmin",
    "ShoeDeviceForm",
    "TipsCountAdmin",
    "TipsCountForm",
]
