"""URLs of the other books' read API, mounted under ``/api/house/``."""

from django.urls import path

from casino_ops.api import BookList

from . import api

app_name = "house_books"

_PATHS = {
    "orphan-list": "orphans/",
    "orphan-repayment-list": "orphans/repayments/",
    "orphan-transfer-list": "orphans/transfers/",
    "approval-list": "approvals/",
    "hours-list": "hours/",
    "early-stop-list": "hours/early-stops/",
    "bank-failure-list": "bank-failures/",
    "exclusion-list": "exclusions/",
    "refused-entry-list": "exclusions/refused-entries/",
    "closing-list": "closing/",
    "table-notice-list": "table-notices/",
    "device-list": "devices/",
    "device-assignment-list": "devices/assignments/",
    "role-list": "roles/",
}

urlpatterns = [
    path("tips/", api.TipsAccount.as_view(), name="tips-account"),
    path("roles/acts/", api.RoleActs.as_view(), name="role-acts"),
    *(path(route, BookList.as_view(listing=api.LISTINGS[name]), name=name) for name, route in _PATHS.items()),
]
