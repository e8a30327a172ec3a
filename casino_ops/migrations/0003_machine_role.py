"""The hand-log machine's role (its permission is set by sync_role_permissions after migrate)."""

from django.db import migrations

ROLE = "depot_machine"


def create_role(apps, schema_editor):
    apps.get_model("auth", "Group").objects.get_or_create(name=ROLE)


def remove_role(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=ROLE).delete()


class Migration(migrations.Migration):
    dependencies = [("casino_ops", "0002_roles")]

    operations = [migrations.RunPython(create_role, remove_role)]
