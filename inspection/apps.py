from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InspectionConfig(AppConfig):
    name = "inspection"
    verbose_name = _("Inspection")

    def ready(self) -> None:
        # the registers' and the self-inspection's Celery tasks, known in every process
        # (a request for a register queues its task)
        # the last app: every app has registered what it plugs into the others (casino_ops.plugins);
        # nothing registers under a running process
        from django.contrib import admin

        from casino_ops.acts import discover
        from casino_ops.admin_acts import register_declared_admins
        from casino_ops.plugins import close_all

        from . import tasks  # noqa: F401

        # every app's services declared (casino_ops.acts), and the doors derived from them
        discover()
        register_declared_admins(admin.site)
        close_all()
