"""URLs: the admin (directors, committee, table staff), the API, health."""

from django.contrib import admin
from django.http import HttpRequest, HttpResponseRedirect, JsonResponse
from django.urls import include, path
from django.utils.translation import gettext_lazy as _


def health(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def home(request: HttpRequest) -> HttpResponseRedirect:
    """The site's root: the staff to the admin, everyone else to the officers' portal (which
    asks for the login). No page of its own, so no address of the product answers 404."""
    return HttpResponseRedirect("/admin/" if request.user.is_staff else "/inspection/")


admin.site.site_header = _("Registres réglementés du casino")
admin.site.site_title = _("Casino — registres")
admin.site.index_title = _("Administration des registres")
# No "Voir le site" link: the admin is the staff's site (the root leads back to it).
admin.site.site_url = None

urlpatterns = [
    path("", home, name="home"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("health/", health, name="health"),
    path("api/tables/", include("tables.urls")),
    path("api/depot/", include("cards_registry.urls")),
    path("api/house/", include("house_books.urls")),
    path("inspection/", include("inspection.portal.urls")),
    path("api/", include("inspection.api.urls")),
]
