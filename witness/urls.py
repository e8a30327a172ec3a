from django.contrib import admin
from django.urls import path

from . import views

urlpatterns = [
    path("add-checkpoint", views.add_checkpoint, name="add-checkpoint"),
    path("<str:origin_hash>/checkpoint", views.checkpoint, name="checkpoint"),
    path("logs/", views.logs, name="logs"),
    path("admin/", admin.site.urls),
]
