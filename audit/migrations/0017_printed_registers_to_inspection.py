"""The printed registers' models move to the officers' app (inspection 0001): the record forgets
them, in its state only. Their tables (``audit_report``, ``audit_reportpart``,
``audit_registerpart``) and rows stay, now the officers' app's models'."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("audit", "0016_event_action_index"),
        ("inspection", "0001_printed_registers"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveField(
                    model_name='reportpart',
                    name='part',
                ),
                migrations.RemoveField(
                    model_name='report',
                    name='parent',
                ),
                migrations.RemoveField(
                    model_name='report',
                    name='requested_by',
                ),
                migrations.RemoveField(
                    model_name='reportpart',
                    name='report',
                ),
                migrations.DeleteModel(
                    name='RegisterPart',
                ),
                migrations.DeleteModel(
                    name='Report',
                ),
                migrations.DeleteModel(
                    name='ReportPart',
                ),
            ],
        ),
    ]
