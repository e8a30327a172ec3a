"""The séance keeps the reference of its notice to the minister (LU art. 26), bound to the chain
and guarded like the rest of the séance's opening (see 0004_book_guards): the guard of
tables_session is replaced by one that also refuses an UPDATE of the new column."""

from django.db import migrations, models

import casino_ops.validators
from audit.books import guard_operations

_SESSION_BEFORE = [
    "advance_amount",
    "croupier_id",
    "day",
    "fiscal_year",
    "guarantee_fund",
    "house_rules",
    "minimum",
    "ministry_notified_on",
    "opened_at",
    "opened_by_id",
    "profile",
    "table_id",
]

# (table, the columns that never change after the act, rows never deleted): replaces 0004's
GUARDS = [("tables_session", sorted([*_SESSION_BEFORE, "ministry_notice_reference"]), True)]
REPLACED = [("tables_session", _SESSION_BEFORE, True)]


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0006_table_in_service_act"),
    ]

    operations = [
        migrations.AddField(
            model_name="session",
            name="ministry_notice_reference",
            field=models.CharField(
                blank=True,
                default="",
                help_text="LU art. 26 : la référence de l'information (courrier, accusé de réception).",
                max_length=120,
                validators=[casino_ops.validators.NoControlCharactersValidator()],
                verbose_name="référence de l'information du ministre",
            ),
        ),
        guard_operations(GUARDS, replacing=REPLACED),
    ]
