from django.contrib import admin

from casino_ops.admin_utils import ReadOnlyAdmin

from .models import AuditEvent
from .registers import admin as _registers_admin  # noqa: F401  (reports and checkpoints)


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ("seq", "recorded_at", "actor_name", "action", "object_type", "object_id")
    list_filter = ("action", "object_type")
    search_fields = ("=seq", "action", "object_type", "object_id", "actor_name", "payload")
    readonly_fields = [f.name for f in AuditEvent._meta.fields]
    list_select_related = False
    show_full_result_count = False

    def has_view_permission(self, request, obj=None):  # noqa: ANN001
        return request.user.has_perm("audit.view_auditevent")
