from typing import Any

from django.apps import AppConfig
from django.db import connections
from django.db.migrations.executor import MigrationExecutor
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = _("Audit et registres")

    def ready(self) -> None:
        from casino_ops import roles

        # The signed checkpoints: management and officers read them (the printed registers'
        # rights are the officers' app's, inspection.apps).
        checkpoints = {"audit.view_checkpoint"}
        roles.extend_role_permissions(
            {roles.DIRECTOR: checkpoints, roles.COMMITTEE: checkpoints, roles.OFFICER: checkpoints}
        )
        # check --deploy: no production without a witness outside the database
        from django.core import checks

        from .checkpoints.witness import check_witness_configured

        checks.register(check_witness_configured, checks.Tags.security, deploy=True)
        # the record's Celery tasks, known in every process (a command queues a checkpoint)
        # the commands of demo data refuse a database holding any act (casino_ops.commands)
        from django.core.signals import setting_changed

        from casino_ops import commands

        from . import checks as self_inspection  # noqa: F401  (the chain and the books join inspect_books)
        from . import (
            record_tasks,  # noqa: F401
            witness_tasks,  # noqa: F401  (the checkpoints pushed to the authority's witnesses)
        )
        from .chain import sealing
        from .models import AuditEvent

        # How the record writes and seals its events, chosen once (audit.chain.sealing).
        sealing.choose()
        setting_changed.connect(sealing.on_setting_changed, dispatch_uid="audit.chain.sealing")

        commands.acts_held = AuditEvent.objects.count

        # SQLite loses a table's triggers when a migration rebuilds it: put the guards back.
        from .books.guard import restore_sqlite_guards
        from .books.registry import books

        def restore_guards(using: str = "default", verbosity: int = 1, **kwargs: Any) -> None:
            connection = connections[using]
            if connection.vendor != "sqlite":
                return
            executor = MigrationExecutor(connection)
            if executor.migration_plan(executor.loader.graph.leaf_nodes()):
                return  # migrated part of the way: the tables are not the models' yet
            restored = restore_sqlite_guards(connection, books())
            if restored and verbosity >= 1:
                print(f"  Guard triggers put back on SQLite: {', '.join(restored)}")

        post_migrate.connect(restore_guards, sender=self, weak=False)
