"""URLs of the tables' API, mounted under ``/api/tables/``."""

from django.urls import path

from . import api

app_name = "tables"

urlpatterns = [
    path("tables/", api.Tables.as_view(), name="tables"),
    path("sessions/", api.SessionList.as_view(), name="session-list"),
    path("sessions/<int:pk>/", api.SessionDetail.as_view(), name="session-detail"),
    path("sessions/open/", api.OpenSession.as_view(), name="session-open"),
    path("sessions/<int:pk>/advances/", api.AddAdvance.as_view(), name="session-advance"),
    path("sessions/<int:pk>/interrupt/", api.InterruptSession.as_view(), name="session-interrupt"),
    path("sessions/<int:pk>/resume/", api.ResumeSession.as_view(), name="session-resume"),
    path("sessions/<int:pk>/close/", api.CloseSession.as_view(), name="session-close"),
    path("sessions/<int:pk>/maximum/", api.ChangeMaximum.as_view(), name="session-maximum"),
    path("sessions/<int:pk>/hand-logs/", api.SessionHandLogs.as_view(), name="session-hand-logs"),
    path(
        "sessions/<int:pk>/hand-logs/batch/", api.SessionHandLogBatch.as_view(), name="session-hand-log-batch"
    ),
    path("hand-logs/<int:pk>/", api.HandLogDetail.as_view(), name="hand-log-detail"),
    path("dealer-errors/", api.DealerErrors.as_view(), name="dealer-errors"),
    path("delegations/", api.Delegations.as_view(), name="delegations"),
    path("authorised-minimums/", api.AuthorisedMinimums.as_view(), name="authorised-minimums"),
    path("ministry-notices/", api.MinistryNotices.as_view(), name="ministry-notices"),
    path(
        "discrepancies/acknowledge/", api.AcknowledgeDiscrepancies.as_view(), name="acknowledge-discrepancies"
    ),
]
