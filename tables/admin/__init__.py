"""The tables in the admin: every page of a registered entry is read-only; each act is a form
that calls its service (a refusal is shown on the field with its article).

One module a concern; importing the package registers every page."""

from ._shared import discrepancy_label
from .act_forms import (
    AdvanceForm,
    AuthorisedMinimumForm,
    CloseDayForm,
    CloseForm,
    CorrectionForm,
    DelegationForm,
    HandLogForm,
    InterruptForm,
    MaximumForm,
    OpenSessionForm,
    ResumeForm,
    ShoeForm,
)
from .hand_logs import (
    AcknowledgementAdmin,
    DiscrepancyActsAdmin,
    DiscrepancyAdmin,
    DiscrepancyCodeFilter,
    HandLogAdmin,
    HandLogDiscrepancyInline,
)
from .registers import AdvanceEntryAdmin, ControlDayAdmin, ControlLineAdmin, ControlLineInline
from .sessions import (
    SESSION_ACT_ACTS,
    SESSION_ACTS,
    AdvanceEntryInline,
    DiscrepancyInline,
    HandLogInline,
    MaximumChangeInline,
    SessionAdmin,
    ShoeInline,
    session_acts_for,
)
from .tables_limits import AuthorisedMinimumAdmin, DelegationAdmin, MinistryNoticeAdmin, TableAdmin

__all__ = [
    "SESSION_ACTS",
    "SESSION_ACT_ACTS",
    "AcknowledgementAdmin",
    "AdvanceEntryAdmin",
    "AdvanceEntryInline",
    "AdvanceForm",
    "AuthorisedMinimumAdmin",
    "MinistryNoticeAdmin",
    "AuthorisedMinimumForm",
    "CloseDayForm",
    "CloseForm",
    "ControlDayAdmin",
    "ControlLineAdmin",
    "ControlLineInline",
    "CorrectionForm",
    "DelegationAdmin",
    "DelegationForm",
    "DiscrepancyActsAdmin",
    "DiscrepancyAdmin",
    "DiscrepancyCodeFilter",
    "DiscrepancyInline",
    "HandLogAdmin",
    "HandLogDiscrepancyInline",
    "HandLogForm",
    "HandLogInline",
    "InterruptForm",
    "MaximumChangeInline",
    "MaximumForm",
    "OpenSessionForm",
    "ResumeForm",
    "SessionAdmin",
    "ShoeForm",
    "ShoeInline",
    "TableAdmin",
    "discrepancy_label",
    "session_acts_for",
]
