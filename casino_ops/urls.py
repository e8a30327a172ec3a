"""URLs: the admin (directors, committee, table staff), the API, health."""

from django.contrib import admin
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from django.utils.translation import gettext_lazy as _


def health(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


admin.site.site_header = _("Registres réglementés du casino")
admin.site.site_title = _("Casino — registres")
admin.site.index_title = _("Administration des registres")

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("health/", health, name="health"),
    path("api/tables/", include("tables.urls")),
    path("api/depot/", include("cards_registry.urls")),
    path("api/house/", include("house_books.urls")),
    path("inspection/", include("inspection.portal.urls")),
    path("api/", include("inspection.api.urls")),
]
