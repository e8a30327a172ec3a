"""The officers' audit trail filtered by act (a code or its beginning, newest first) reads an
index on (action, seq) instead of walking back the whole record (1.27 s at 1,000,000 events for
a rare act, 0.2 ms with it: docs/development.md, "The record at scale"). The opclass
varchar_pattern_ops lets PostgreSQL use it for ``LIKE 'depot.%'`` whatever the collation."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('audit', '0015_report_heartbeats'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name='auditevent',
            index=models.Index(fields=['action', 'seq'], name='audit_event_action', opclasses=['varchar_pattern_ops', 'int8_ops']),
        ),
    ]
