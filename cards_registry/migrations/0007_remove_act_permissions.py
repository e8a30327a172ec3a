"""The depot's five act permissions are dropped: they were granted and never checked;
casino_ops.access decides who performs each act. Their rows go too (Django keeps stale
permissions), so that no group or user keeps them."""

from django.db import migrations

CODENAMES = ["depot_act", "stamp_visa", "close_incident", "approve_correction", "check_at_table"]


def drop_permissions(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    Permission.objects.filter(content_type__app_label="cards_registry", codename__in=CODENAMES).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("cards_registry", "0006_incident_input_validators"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="depotsettings",
            options={"verbose_name": "paramètres du dépôt", "verbose_name_plural": "paramètres du dépôt"},
        ),
        migrations.RunPython(drop_permissions, migrations.RunPython.noop),
    ]
