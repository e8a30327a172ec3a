from django.contrib import admin

from .models import Table


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("number", "code", "game", "boxes", "in_service")
    readonly_fields = ("number", "code", "game", "boxes", "in_service")

    def has_add_permission(self, request):  # noqa: ANN001
        return False

    def has_delete_permission(self, request, obj=None):  # noqa: ANN001
        return False
