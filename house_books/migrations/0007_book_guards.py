"""The database guards the casino's other books, as it guards the depot's and the tables'.

Each book's rows are never deleted or truncated, and the columns that never change after
the act cannot be updated (triggers enabled ALWAYS on PostgreSQL; the same refusals on
SQLite). The lists are written out here, as the books were declared when this migration
was made (house_books/books.py); a test checks they still match the declaration.
"""

from django.db import migrations

from audit.books import guard_operations

# (table, the columns that never change after the act, rows never deleted)
GUARDS = [
    (
        "house_books_approval",
        ["approved_on", "function", "job", "person_id", "recorded_at", "recorded_by_id", "reference"],
        True,
    ),
    (
        "house_books_bankfailure",
        [
            "description",
            "minister_told_at",
            "occurred_at",
            "officer_name",
            "officer_told_at",
            "recorded_at",
            "recorded_by_id",
        ],
        True,
    ),
    (
        "house_books_deviceassignment",
        ["assigned_at", "assigned_by_id", "day", "device_id", "table_number"],
        True,
    ),
    (
        "house_books_earlystop",
        ["note", "reason", "recorded_at", "recorded_by_id", "session_id", "stopped_at"],
        True,
    ),
    (
        "house_books_exclusion",
        [
            "birth_date",
            "decided_on",
            "director_notified_on",
            "first_names",
            "ground",
            "kind",
            "last_name",
            "origin",
            "reasons",
            "recorded_at",
            "recorded_by_id",
            "reference",
        ],
        True,
    ),
    (
        "house_books_newauthorisation",
        ["failure_id", "granted_on", "recorded_at", "recorded_by_id", "reference"],
        True,
    ),
    (
        "house_books_orphanentry",
        [
            "amount",
            "description",
            "exercise",
            "found_at",
            "kind",
            "number",
            "recorded_at",
            "recorded_by_id",
            "stake",
            "table_number",
            "winnings",
        ],
        True,
    ),
    (
        "house_books_orphanrepayment",
        [
            "amount",
            "entry_id",
            "owner_address",
            "owner_name",
            "proof",
            "recorded_at",
            "recorded_by_id",
            "repaid_on",
            "total_before",
        ],
        True,
    ),
    (
        "house_books_orphantransfer",
        [
            "amount",
            "commune",
            "exercise",
            "minister_notified_on",
            "receipt",
            "recorded_at",
            "recorded_by_id",
            "transferred_on",
        ],
        True,
    ),
    (
        "house_books_seancehours",
        [
            "closing",
            "effective_from",
            "holiday_start",
            "notified_at",
            "recorded_at",
            "recorded_by_id",
            "reference",
            "weekday_start",
        ],
        True,
    ),
    (
        "house_books_shoedevice",
        ["approval_reference", "approved_model", "number", "recorded_at", "recorded_by_id"],
        True,
    ),
    (
        "house_books_tipscount",
        ["amount", "box", "counted_at", "counted_by_id", "day", "note", "recorded_at", "witness_id"],
        True,
    ),
]


class Migration(migrations.Migration):
    dependencies = [("house_books", "0006_exclusions"), ("audit", "0002_append_only")]

    operations = [guard_operations(GUARDS)]
