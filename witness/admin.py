from typing import TYPE_CHECKING, Any

from django.contrib import admin

from .models import Cosigned, Log, Refusal, SplitView

# Generic for mypy only (django-stubs-ext's monkeypatch is a development tool).
if TYPE_CHECKING:
    _ModelAdmin = admin.ModelAdmin[Any]
else:
    _ModelAdmin = admin.ModelAdmin


@admin.register(Log)
class LogAdmin(_ModelAdmin):
    list_display = ["origin", "name", "size", "cosigned_at"]
    readonly_fields = ["size", "root", "checkpoint", "cosigned_at", "added_at"]
    search_fields = ["origin", "name"]


@admin.register(Cosigned)
class CosignedAdmin(_ModelAdmin):
    list_display = ["log", "size", "timestamp"]
    list_filter = ["log"]

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False


@admin.register(Refusal)
class RefusalAdmin(_ModelAdmin):
    list_display = ["received_at", "log", "status", "old_size", "size", "held_size", "reason"]
    list_filter = ["log", "status"]

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False


@admin.register(SplitView)
class SplitViewAdmin(_ModelAdmin):
    list_display = ["found_at", "log", "size", "peer"]
    list_filter = ["log"]

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False
