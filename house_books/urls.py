"""URLs of the other books' read API, mounted under ``/api/house/``."""

from django.urls import path

from . import api

app_name = "house_books"

urlpatterns = [
    path("orphans/", api.OrphanEntryList.as_view(), name="orphan-list"),
    path("orphans/repayments/", api.OrphanRepaymentList.as_view(), name="orphan-repayment-list"),
    path("orphans/transfers/", api.OrphanTransferList.as_view(), name="orphan-transfer-list"),
    path("tips/", api.TipsAccount.as_view(), name="tips-account"),
    path("approvals/", api.ApprovalList.as_view(), name="approval-list"),
    path("hours/", api.SeanceHoursList.as_view(), name="hours-list"),
    path("hours/early-stops/", api.EarlyStopList.as_view(), name="early-stop-list"),
    path("bank-failures/", api.BankFailureList.as_view(), name="bank-failure-list"),
    path("exclusions/", api.ExclusionList.as_view(), name="exclusion-list"),
    path("exclusions/refused-entries/", api.RefusedEntryList.as_view(), name="refused-entry-list"),
    path("closing/", api.ClosingDownList.as_view(), name="closing-list"),
    path("table-notices/", api.TableNoticeList.as_view(), name="table-notice-list"),
    path("devices/", api.ShoeDeviceList.as_view(), name="device-list"),
    path("devices/assignments/", api.DeviceAssignmentList.as_view(), name="device-assignment-list"),
]
