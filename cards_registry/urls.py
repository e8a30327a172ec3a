"""URLs of the depot's API, mounted under ``/api/depot/``."""

from django.urls import path

from . import api

app_name = "depot"

urlpatterns = [
    path("incidents/", api.Incidents.as_view(), name="incidents"),
    path("returns/", api.Returns.as_view(), name="returns"),
    path("out-of-use/", api.OutOfUse.as_view(), name="out-of-use"),
    path("inspection/", api.Inspection.as_view(), name="inspection"),
]
