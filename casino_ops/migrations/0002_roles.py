"""Create the roles as groups. Their permissions are kept in step after every
migrate by casino_ops.roles.sync_role_permissions (post_migrate), since the
permissions of apps migrated later do not exist yet at this point."""

from django.db import migrations

ROLES = ["directeur", "comite_direction", "chef_de_table", "caissier", "officier"]


def create_roles(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for name in ROLES:
        Group.objects.get_or_create(name=name)


def remove_roles(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=ROLES).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("casino_ops", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
