from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InspectionConfig(AppConfig):
    name = "inspection"
    verbose_name = _("Inspection")

    def ready(self) -> None:
        # the registers' and the self-inspection's Celery tasks, known in every process
        # (a request for a register queues its task)
        from . import tasks  # noqa: F401
