"""URLs: the admin (directors, committee, table staff), the API, health."""

import datetime as dt
import json
from typing import Any

from django.contrib import admin
from django.db import connection
from django.http import HttpRequest, HttpResponseRedirect, JsonResponse
from django.urls import include, path
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from audit.chain.seal import CLOCK_OBJECT
from audit.chain.sealer import sealing_late
from casino_ops.api import declared_urls


def health(request: HttpRequest) -> JsonResponse:
    """200 "ok"; 503 "sealing_late" when the oldest event waiting to be sealed has waited longer
    than AUDIT_SEALING_LATE_AFTER seconds (the sealer is not sealing). A clock that ran backwards
    within the day (its alarm sealed in the chain) is named under "clock_backwards"."""
    late = sealing_late()
    if late is not None and late.oldest is not None:
        body = {"status": "sealing_late", "waiting": late.count, "oldest": late.oldest.isoformat()}
        return JsonResponse({**body, "oldest_seconds": round(late.seconds)}, status=503)
    answer: dict[str, Any] = {"status": "ok"}
    clock = _clock_alarm()
    if clock is not None:
        answer["clock_backwards"] = clock
    return JsonResponse(answer)


def _clock_alarm() -> dict[str, Any] | None:
    """The last alarm of a clock that ran backwards (audit.clock_backwards), sealed within the day."""
    since = timezone.now() - dt.timedelta(days=1)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT seq, recorded_at, payload FROM audit_event WHERE object_type = %s AND recorded_at >= %s "
            "ORDER BY id DESC LIMIT 1",
            [CLOCK_OBJECT, since],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    said = json.loads(row[2])
    return {
        "seq": row[0],
        "at": row[1].isoformat(),
        "event_id": said.get("event_id"),
        "behind_seconds": said.get("behind_seconds"),
    }


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
    # the acts whose endpoint is derived from their declaration (casino_ops.acts: ``route``)
    path("api/acts/", include((declared_urls(), "acts"))),
    path("inspection/", include("inspection.portal.urls")),
    path("api/", include("inspection.api.urls")),
]
