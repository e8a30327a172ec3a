"""The database guards the tables' regulated books (FR art. 68), as it guards the audit record.

Each book's rows are never deleted or truncated, and the columns that never change after
the act cannot be updated (triggers enabled ALWAYS on PostgreSQL; the same refusals on
SQLite). The lists are written out here, as the books were declared when this migration
was made (tables/books.py); a test checks they still match the declaration.
"""

from django.db import migrations

from audit.books import guard_operations

# (table, the columns that never change after the act, rows never deleted)
GUARDS = [
    (
        "tables_advanceentry",
        [
            "amount",
            "at",
            "cashier_id",
            "corrects_id",
            "counted_by_id",
            "key_holder_id",
            "kind",
            "line",
            "note",
            "session_id",
            "signed_by_id",
            "table_id",
        ],
        True,
    ),
    ("tables_controlday", ["day"], True),
    (
        "tables_controlline",
        [
            "advances",
            "approval",
            "at",
            "by_id",
            "closing_cash",
            "control_day_id",
            "corrects_id",
            "reason",
            "result",
            "session_id",
            "table_id",
        ],
        True,
    ),
    (
        "tables_discrepancy",
        [
            "article",
            "box",
            "code",
            "delta",
            "detail",
            "expected",
            "hand",
            "hand_log_id",
            "player",
            "recorded",
            "round",
            "session_id",
        ],
        True,
    ),
    (
        "tables_handlog",
        [
            "croupier_id",
            "house_rules",
            "limits_max",
            "limits_min",
            "profile",
            "raw",
            "rounds",
            "session_id",
            "sha256",
            "shoe_id",
            "shoe_label",
            "source",
            "table_code",
            "uploaded_at",
            "uploaded_by_id",
        ],
        True,
    ),
    ("tables_maximumchange", ["at", "by_id", "display_changed", "maximum", "previous", "session_id"], True),
    (
        "tables_replay",
        [
            "discrepancy_count",
            "finished_at",
            "hand_log_id",
            "ok",
            "overpaid",
            "rounds_replayed",
            "state",
            "underpaid",
        ],
        True,
    ),
    (
        "tables_session",
        [
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
        ],
        True,
    ),
    ("tables_shoe", ["croupier_id", "filled_at", "label", "number", "session_id"], True),
    ("tables_shoedeck", ["back_colour", "deck_id", "serial", "shoe_id"], True),
    ("tables_table", ["boxes", "code", "game", "in_service", "number"], True),
]


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0003_input_validators"),
        ("audit", "0002_append_only"),
    ]

    operations = [guard_operations(GUARDS)]
