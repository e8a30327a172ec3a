"""The database guards the depot's regulated books (FR art. 68), as it guards the audit record.

Each book's rows are never deleted or truncated, and the columns that never change after
the act cannot be updated (triggers enabled ALWAYS on PostgreSQL; the same refusals on
SQLite). The lists are written out here, as the books were declared when this migration
was made (cards_registry/books.py); a test checks they still match the declaration.
"""

from django.db import migrations

from audit.books import guard_operations

# (table, the columns that never change after the act, rows never deleted)
GUARDS = [
    (
        "cards_registry_cabinetopening",
        ["at", "day", "demanded_by_id", "note", "opened_by_id", "purpose", "table_number"],
        True,
    ),
    (
        "cards_registry_correction",
        [
            "approved_by_id",
            "at",
            "destruction_id",
            "field",
            "incident_id",
            "new_value",
            "old_value",
            "order_id",
            "reason",
            "reception_id",
        ],
        True,
    ),
    ("cards_registry_deck", ["back_colour", "manufacturer_id", "reception_id", "serial", "sixain_id"], True),
    ("cards_registry_deckreturn", ["at", "day", "opening_id", "returned_by_id", "table_number"], True),
    (
        "cards_registry_destruction",
        ["at", "book_id", "method", "number", "officer_id", "opening_id", "recorded_by_id"],
        True,
    ),
    ("cards_registry_destructionline", ["complete", "deck_id", "destruction_id", "remark", "unmarked"], True),
    (
        "cards_registry_incident",
        [
            "book_id",
            "circumstances",
            "day",
            "kind",
            "number",
            "occurred_at",
            "officer_informed_id",
            "officer_informed_at",
            "recorded_at",
            "reported_by_id",
            "shoe_reference",
            "table_number",
        ],
        True,
    ),
    ("cards_registry_incidentclosure", ["at", "finding", "incident_id", "officer_id"], True),
    ("cards_registry_issueline", ["deck_id", "issue_id"], True),
    ("cards_registry_keyhandover", ["at", "giver_id", "reason", "receiver_id"], True),
    (
        "cards_registry_manufacturer",
        [
            "approval_reference",
            "code",
            "ministry",
            "name",
            "registered_at",
            "registered_by_id",
            "valid_from",
            "valid_until",
        ],
        True,
    ),
    (
        "cards_registry_order",
        ["book_id", "manufacturer_id", "note", "number", "ordered_on", "recorded_at", "recorded_by_id"],
        True,
    ),
    ("cards_registry_orderline", ["back_colour", "order_id", "quantity", "unit"], True),
    (
        "cards_registry_reception",
        [
            "book_id",
            "delivery_note",
            "manufacturer_id",
            "number",
            "order_id",
            "over_delivery",
            "received_on",
            "recorded_at",
            "recorded_by_id",
        ],
        True,
    ),
    (
        "cards_registry_returnline",
        ["deck_return_id", "issue_line_id", "order_restored", "remark", "result"],
        True,
    ),
    ("cards_registry_sixain", ["manufacturer_id", "reception_id", "serial"], True),
    (
        "cards_registry_tablecheck",
        [
            "at",
            "band_intact",
            "cards_counted",
            "checked_by_id",
            "issue_line_id",
            "new_deck",
            "order_checked",
            "video_reference",
            "witness",
        ],
        True,
    ),
    (
        "cards_registry_tableissue",
        ["at", "day", "issued_by_id", "opening_id", "received_by_id", "table_number"],
        True,
    ),
    (
        "cards_registry_visa",
        ["at", "destruction_id", "officer_id", "order_id", "reception_id", "remark"],
        True,
    ),
]


class Migration(migrations.Migration):
    dependencies = [("cards_registry", "0003_input_validators"), ("audit", "0002_append_only")]

    operations = [guard_operations(GUARDS)]
