"""The book of the notices to the minister of a raised minimum (LU art. 26), each recorded when it
is sent, and the séance's opening citing its notice: both bound to the chain and guarded like the
other books (see 0004_book_guards): the notice's rows never updated nor deleted, and the guard of
tables_session replaced by one that also refuses an UPDATE of the notice it cites."""

import casino_ops.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from audit.books import guard_operations

_SESSION_BEFORE = [
    "advance_amount",
    "croupier_id",
    "day",
    "fiscal_year",
    "guarantee_fund",
    "house_rules",
    "minimum",
    "ministry_notice_reference",
    "ministry_notified_on",
    "opened_at",
    "opened_by_id",
    "profile",
    "table_id",
]

# (table, the columns that never change after the act, rows never deleted): replaces 0007's
GUARDS = [
    ("tables_ministrynotice", ["minimum", "recorded_at", "recorded_by_id", "reference", "sent_on"], True),
    ("tables_session", sorted([*_SESSION_BEFORE, "ministry_notice_id"]), True),
]
REPLACED = [("tables_session", _SESSION_BEFORE, True)]


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0010_neutral_book_names'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='MinistryNotice',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('minimum', models.DecimalField(decimal_places=2, max_digits=12, verbose_name='minimum annoncé')),
                ('sent_on', models.DateField(help_text='Le jour où le directeur dit avoir informé le ministre.', validators=[casino_ops.validators.DateWindowValidator()], verbose_name='envoyée le (déclaré)')),
                ('reference', models.CharField(help_text="Le courrier ou l'accusé de réception.", max_length=120, validators=[casino_ops.validators.NoControlCharactersValidator()], verbose_name="référence de l'information")),
                ('recorded_at', models.DateTimeField(verbose_name='inscrite le')),
                ('recorded_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='inscrite par')),
            ],
            options={
                'verbose_name': 'information du ministre (relèvement du minimum)',
                'verbose_name_plural': 'informations du ministre (relèvement du minimum)',
                'ordering': ['-recorded_at'],
            },
        ),
        migrations.AddField(
            model_name='session',
            name='ministry_notice',
            field=models.ForeignKey(blank=True, help_text="LU art. 26 : l'information inscrite huit jours au moins avant un minimum relevé.", null=True, on_delete=django.db.models.deletion.PROTECT, related_name='sessions', to='tables.ministrynotice', verbose_name='information du ministre'),
        ),
        guard_operations(GUARDS, replacing=REPLACED),
    ]
