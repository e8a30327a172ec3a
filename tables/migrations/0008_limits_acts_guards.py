"""The database guards the delegations, the authorised minimums and the acknowledgements of a replay's finding like the other books (see
tables 0004_book_guards): rows never deleted, the columns written by the act never updated."""

from django.db import migrations

from audit.books import guard_operations

GUARDS = [
    (
        "tables_authorisedminimum",
        ["decree_date", "decree_reference", "in_force_on", "minimum", "recorded_at", "recorded_by_id"],
        True,
    ),
    (
        "tables_delegation",
        [
            "approval_reference",
            "approved_on",
            "at",
            "delegate_id",
            "granted_by_id",
            "valid_from",
            "valid_until",
        ],
        True,
    ),
    ("tables_discrepancyacknowledgement", ["at", "by_id", "discrepancy_id", "note"], True),
]


class Migration(migrations.Migration):
    dependencies = [("tables", "0007_session_ministry_notice_reference")]

    operations = [guard_operations(GUARDS)]
