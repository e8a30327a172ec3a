"""The roles' groups hold the models' view permissions only: every write is an act decided by
casino_ops.access (one gate). The add, change and delete permissions the groups held are removed
here; sync_role_permissions keeps them so after every migrate."""

from django.db import migrations

ROLES = ["directeur", "comite_direction", "chef_de_table", "caissier", "officier", "depot_machine"]


def remove_write_permissions(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for group in Group.objects.filter(name__in=ROLES).order_by("name"):
        writes = group.permissions.exclude(codename__startswith="view_")
        group.permissions.remove(*writes)


class Migration(migrations.Migration):
    dependencies = [
        ("casino_ops", "0007_officer_enrolments"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    # Not reversed: the former write permissions are no right any more (casino_ops.access decides).
    operations = [migrations.RunPython(remove_write_permissions, migrations.RunPython.noop)]
