"""Officers' read-only API and the OpenAPI schema, mounted under ``/api/``."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.routers import SimpleRouter

from . import views

router = SimpleRouter()
router.register("inspection/audit-events", views.AuditEventViewSet, basename="audit-event")
router.register("inspection/reports", views.ReportViewSet, basename="report")
router.register("inspection/checkpoints", views.CheckpointViewSet, basename="checkpoint")
router.register("inspection/decks", views.DeckViewSet, basename="deck")
router.register("inspection/sessions", views.SessionViewSet, basename="session")
router.register("inspection/hand-logs", views.HandLogViewSet, basename="hand-log")
router.register("inspection/discrepancies", views.DiscrepancyViewSet, basename="discrepancy")

app_name = "officers_api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("", include(router.urls)),
]
