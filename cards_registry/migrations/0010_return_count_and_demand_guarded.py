"""A returned deck's count of cards is bound to the chain and guarded like the rest of its line
(FR art. 40 §5, LU art. 7 §5: the count decides whether an incident opens); see
0004_book_guards."""

from django.db import migrations

from audit.books import guard_operations

_RETURNLINE_BEFORE = ["deck_return_id", "issue_line_id", "order_restored", "remark", "result"]

# (table, the columns that never change after the act, rows never deleted): replaces 0004's
GUARDS = [
    ("cards_registry_returnline", sorted([*_RETURNLINE_BEFORE, "cards_counted"]), True),
]  # an officer's demand is guarded by 0009_cabinet_and_report_guards
REPLACED = [("cards_registry_returnline", _RETURNLINE_BEFORE, True)]


class Migration(migrations.Migration):
    dependencies = [("cards_registry", "0009_incident_at_table_check")]

    operations = [guard_operations(GUARDS, replacing=REPLACED)]
