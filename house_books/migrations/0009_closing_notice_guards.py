"""The database guards the closing down and the table notices like the other books (see
0007_book_guards): rows never deleted, the columns written by the act never updated."""

from django.db import migrations

from audit.books import guard_operations

GUARDS = [
    (
        "house_books_closingdown",
        [
            "closed_at",
            "decks",
            "devices",
            "disposal",
            "documents",
            "documents_left_at",
            "exclusion_entries",
            "officer_name",
            "recorded_at",
            "recorded_by_id",
            "successor",
        ],
        True,
    ),
    (
        "house_books_tablenotice",
        ["advance", "day", "maximum", "minimum", "posted_at", "posted_by_id", "table_code", "table_number"],
        True,
    ),
]


class Migration(migrations.Migration):
    dependencies = [("house_books", "0008_closing_notices")]

    operations = [guard_operations(GUARDS)]
