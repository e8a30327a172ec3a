from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def _sync_roles(sender: AppConfig, **kwargs: Any) -> None:
    """Once per migrate (or test flush), after the last app's: every permission exists by then.
    The signal is sent once for each app with models; the roles are the same after each."""
    from django.apps import apps

    with_models = [config for config in apps.get_app_configs() if config.models_module is not None]
    if sender is not with_models[-1]:
        return
    from .roles import sync_role_permissions  # cycle: roles imports the auth models, not loaded yet

    sync_role_permissions(verbosity=kwargs.get("verbosity", 0))


class CasinoOpsConfig(AppConfig):
    name = "casino_ops"
    verbose_name = _("Casino")

    def ready(self) -> None:
        # After every migrate, once all permissions exist: roles get exactly theirs.
        post_migrate.connect(_sync_roles, dispatch_uid="casino_ops.sync_roles")
        # check --deploy: the authority's certificate configured, no demo key (casino_ops.officers)
        from django.core import checks

        from .officers import check_officers_configured

        checks.register(check_officers_configured, checks.Tags.security, deploy=True)
