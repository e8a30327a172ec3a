"""The database guards the casino's settings and the changes of its gaming day or exercise like the other books (see
tables 0004_book_guards): rows never deleted, the columns written by the act never updated."""

from django.db import migrations

from audit.books import guard_operations

GUARDS = [
    (
        "casino_ops_calendarrule",
        [
            "effective_from",
            "exercise_from",
            "exercise_start_day",
            "exercise_start_month",
            "gaming_day_rollover",
            "recorded_at",
        ],
        True,
    ),
    ("casino_ops_casinosettings", ["authorised_min_stake"], True),
]


class Migration(migrations.Migration):
    dependencies = [("casino_ops", "0005_calendar_rules")]

    operations = [guard_operations(GUARDS)]
