"""The printed registers' models (``Report``, ``ReportPart``, ``RegisterPart``) move from the
record's app to the officers' app, which prints the registers: in the project's state only.
Their tables keep their names (``audit_report``, ``audit_reportpart``, ``audit_registerpart``),
their rows, keys, constraints and indexes; nothing is copied or renamed in the database. The
audit app forgets them in its own migration (audit 0017), once they are the officers' app's.

The content types of a database migrated before move with them (``audit.report`` becomes
``inspection.report``), so that the permissions on them, and who holds them, stay as they were.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import casino_ops.validators

MOVED = ("report", "reportpart", "registerpart")


def content_types_to(source, target):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        for model in MOVED:
            if not ContentType.objects.using(db).filter(app_label=target, model=model).exists():
                ContentType.objects.using(db).filter(app_label=source, model=model).update(app_label=target)

    return move


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("audit", "0016_event_action_index"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='RegisterPart',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(editable=False, max_length=64, unique=True, verbose_name='clé')),
                        ('register', models.CharField(max_length=32, verbose_name='registre')),
                        ('table_number', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='table n°')),
                        ('date_from', models.DateField(verbose_name='du')),
                        ('date_to', models.DateField(verbose_name='au')),
                        ('content_hash', models.CharField(max_length=64, verbose_name='empreinte du contenu des livres')),
                        ('checked_version', models.CharField(blank=True, max_length=100, verbose_name='version des livres vérifiée')),
                        ('file', models.FileField(upload_to='registers/parts/', verbose_name='fichier PDF signé')),
                        ('sha256', models.CharField(max_length=64, verbose_name='empreinte SHA-256 du PDF')),
                        ('pages', models.PositiveIntegerField(verbose_name='pages')),
                        ('rows', models.PositiveIntegerField(verbose_name='lignes')),
                        ('empty', models.BooleanField(default=False, verbose_name='sans inscription')),
                        ('seconds', models.FloatField(default=0, verbose_name='durée de fabrication (s)')),
                        ('made_at', models.DateTimeField(auto_now_add=True, verbose_name='fait le')),
                    ],
                    options={
                        'verbose_name': 'partie de registre',
                        'verbose_name_plural': 'parties de registre',
                        'db_table': 'audit_registerpart',
                        'ordering': ['register', 'table_number', 'date_from', '-made_at'],
                        'indexes': [models.Index(fields=['register', 'table_number', 'date_from', 'date_to'], name='audit_part_period')],
                    },
                ),
                migrations.CreateModel(
                    name='Report',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(editable=False, max_length=64, unique=True, verbose_name='clé')),
                        ('register', models.CharField(max_length=32, verbose_name='registre')),
                        ('date_from', models.DateField(validators=[casino_ops.validators.DateWindowValidator()], verbose_name='du')),
                        ('date_to', models.DateField(validators=[casino_ops.validators.DateWindowValidator()], verbose_name='au')),
                        ('table_number', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='table n°')),
                        ('part', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='partie')),
                        ('requested_at', models.DateTimeField(auto_now_add=True, verbose_name='demandé le')),
                        ('state', models.CharField(choices=[('pending', 'en attente'), ('running', 'en cours'), ('split', 'en plusieurs parties'), ('done', 'prêt'), ('failed', 'échec')], default='pending', max_length=16, verbose_name='état')),
                        ('progress', models.PositiveSmallIntegerField(default=0, verbose_name='avancement (%)')),
                        ('attempts', models.PositiveSmallIntegerField(default=0, verbose_name='tentatives')),
                        ('rows', models.PositiveIntegerField(blank=True, null=True, verbose_name='lignes')),
                        ('pages', models.PositiveIntegerField(blank=True, null=True, verbose_name='pages')),
                        ('head_seq', models.BigIntegerField(blank=True, null=True, verbose_name="chaîne d'audit : n°")),
                        ('head_hash', models.CharField(blank=True, max_length=64, verbose_name="chaîne d'audit : empreinte")),
                        ('sha256', models.CharField(blank=True, db_index=True, max_length=64, verbose_name='empreinte SHA-256 du PDF')),
                        ('file', models.FileField(blank=True, upload_to='registers/', verbose_name='fichier PDF signé')),
                        ('error', models.TextField(blank=True, verbose_name='erreur')),
                        ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='commencé le')),
                        ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='terminé le')),
                        ('heartbeat_at', models.DateTimeField(blank=True, editable=False, null=True, verbose_name='dernier signe de vie')),
                        ('parent', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='parts', to='inspection.report', verbose_name='registre complet')),
                        ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='demandé par')),
                    ],
                    options={
                        'verbose_name': 'registre imprimé',
                        'verbose_name_plural': 'registres imprimés',
                        'db_table': 'audit_report',
                        'ordering': ['-requested_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='ReportPart',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveSmallIntegerField(verbose_name='partie')),
                        ('date_from', models.DateField(verbose_name='du')),
                        ('date_to', models.DateField(verbose_name='au')),
                        ('reused', models.BooleanField(default=False, verbose_name='reprise sans refaire')),
                        ('heartbeat_at', models.DateTimeField(blank=True, editable=False, null=True, verbose_name='dernier signe de vie')),
                        ('part', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, to='inspection.registerpart', verbose_name='partie de registre')),
                        ('report', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='period_parts', to='inspection.report', verbose_name='registre imprimé')),
                    ],
                    options={
                        'verbose_name': "partie d'impression",
                        'verbose_name_plural': "parties d'impression",
                        'db_table': 'audit_reportpart',
                        'ordering': ['report', 'number'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='report',
                    constraint=models.CheckConstraint(condition=models.Q(('date_from__lte', models.F('date_to'))), name='audit_report_period'),
                ),
                migrations.AddConstraint(
                    model_name='report',
                    constraint=models.CheckConstraint(condition=models.Q(('progress__lte', 100)), name='audit_report_progress'),
                ),
                migrations.AddConstraint(
                    model_name='reportpart',
                    constraint=models.UniqueConstraint(fields=('report', 'number'), name='audit_reportpart_number'),
                ),
            ],
        ),
        migrations.RunPython(content_types_to("audit", "inspection"), content_types_to("inspection", "audit")),
    ]
