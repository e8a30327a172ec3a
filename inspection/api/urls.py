"""Officers' read-only API and the OpenAPI schema, mounted under ``/api/``."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView
from rest_framework import routers
from rest_framework.routers import SimpleRouter

from . import proofs, views
from .base import OfficerEndpoint

router = SimpleRouter()
router.register("inspection/audit-events", views.AuditEventViewSet, basename="audit-event")
router.register("inspection/reports", views.ReportViewSet, basename="report")
router.register("inspection/checkpoints", views.CheckpointViewSet, basename="checkpoint")
router.register("inspection/decks", views.DeckViewSet, basename="deck")
router.register("inspection/sessions", views.SessionViewSet, basename="session")
router.register("inspection/hand-logs", views.HandLogViewSet, basename="hand-log")
router.register("inspection/discrepancies", views.DiscrepancyViewSet, basename="discrepancy")

app_name = "officers_api"


class OfficersAPIRoot(OfficerEndpoint, routers.APIRootView):
    """The officers' read-only API: its endpoints (see docs/officers.md)."""

    schema = None


_ROOT = {
    prefix.removeprefix("inspection/"): f"{basename}-list" for prefix, _view, basename in router.registry
}
_ROOT.update(
    {
        "proofs/inclusion": "proof-inclusion",
        "proofs/consistency": "proof-consistency",
        "proofs/checkpoint": "proof-checkpoint",
        "proofs/verifier": "proof-verifier",
    }
)

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("inspection/", OfficersAPIRoot.as_view(api_root_dict=_ROOT), name="root"),
    path("inspection/proofs/inclusion/", proofs.InclusionProofView.as_view(), name="proof-inclusion"),
    path("inspection/proofs/consistency/", proofs.ConsistencyProofView.as_view(), name="proof-consistency"),
    path("inspection/proofs/checkpoint/", proofs.CheckpointFileView.as_view(), name="proof-checkpoint"),
    path("inspection/proofs/verifier/", proofs.VerifierView.as_view(), name="proof-verifier"),
    path("", include(router.urls)),
]
