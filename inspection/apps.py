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

        from audit.verification import CHECKS
        from casino_ops import roles
        from casino_ops.acts import discover
        from casino_ops.admin_acts import register_declared_admins
        from casino_ops.admin_display import FORMER_LABELS as MOVED
        from casino_ops.plugins import close_all

        from . import tasks  # noqa: F401
        from .models import FORMER_LABELS
        from .registers.printed import printed_problems

        # Printed registers (FR art. 68): management reads them (asking for one is an act:
        # casino_ops.access, Act.REQUEST_REGISTER); officers read them too (they ask through the
        # portal).
        reports = {"inspection.view_report"}
        roles.extend_role_permissions(
            {roles.DIRECTOR: reports, roles.COMMITTEE: reports, roles.OFFICER: reports}
        )
        # the events recorded before the printed registers moved here name them by their former label
        for former, now in FORMER_LABELS.items():
            MOVED.register(former, now)
        # verify_audit checks the printed registers against the events recording their prints
        CHECKS.register("printed_registers", printed_problems)

        # every app's services declared (casino_ops.acts), and the doors derived from them
        discover()
        register_declared_admins(admin.site)
        close_all()
