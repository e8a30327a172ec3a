"""URLs of the tables' API, mounted under ``/api/tables/``."""

from django.urls import path

from . import api

app_name = "tables"

urlpatterns = [
    path("sessions/", api.SessionList.as_view(), name="session-list"),
    path("sessions/<int:pk>/", api.SessionDetail.as_view(), name="session-detail"),
    path("sessions/<int:pk>/hand-logs/", api.SessionHandLogs.as_view(), name="session-hand-logs"),
    path("hand-logs/<int:pk>/", api.HandLogDetail.as_view(), name="hand-log-detail"),
    path("dealer-errors/", api.DealerErrors.as_view(), name="dealer-errors"),
    path("delegations/", api.Delegations.as_view(), name="delegations"),
    path("authorised-minimums/", api.AuthorisedMinimums.as_view(), name="authorised-minimums"),
    path(
        "authorised-minimums/<int:pk>/stamp/",
        api.AuthorisedMinimumStamp.as_view(),
        name="authorised-minimum-stamp",
    ),
    path(
        "discrepancies/acknowledge/", api.AcknowledgeDiscrepancies.as_view(), name="acknowledge-discrepancies"
    ),
]
