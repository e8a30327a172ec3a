"""URLs: the admin (directors, committee, table staff), the API, health."""

from django.contrib import admin
from django.http import HttpRequest, HttpResponseRedirect, JsonResponse
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from audit.chain.sealer import sealing_late


def health(request: HttpRequest) -> JsonResponse:
    """200 "ok"; 503 "sealing_late" when the oldest event waiting to be sealed has waited longer
    than AUDIT_SEALING_LATE_AFTER seconds (the sealer is not sealing)."""
    late = sealing_late()
    if late is not None and late.oldest is not None:
        body = {"status": "sealing_late", "waiting": late.count, "oldest": late.oldest.isoformat()}
        return JsonResponse({**body, "oldest_seconds": round(late.seconds)}, status=503)
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
