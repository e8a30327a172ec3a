"""Officers' read-only API and the OpenAPI schema, mounted under ``/api/``."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.routers import SimpleRouter

from . import views

router = SimpleRouter()
router.register("audit/events", views.AuditEventViewSet, basename="audit-event")

app_name = "officers_api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("", include(router.urls)),
]
