"""URLs of the officers' portal, mounted at ``/inspection/``."""

from django.urls import path

from .views import auth, pages

app_name = "portal"

urlpatterns = [
    path("connexion/", auth.login_view, name="login"),
    path("verification/", auth.verify_view, name="verify"),
    path("deconnexion/", auth.logout_view, name="logout"),
    path("", pages.dashboard, name="dashboard"),
    path("audit/", pages.audit_trail, name="audit_trail"),
    path("audit/verification/", pages.chain_check, name="chain_check"),
]
