"""The database guards the depot's many-to-many books like the others (see 0004_book_guards):
which decks an incident put in quarantine, which the officer found fit when closing it, and
the declarations of decks out of use with their decks. Rows never deleted, never rewritten."""

from django.db import migrations

from audit.books import guard_operations

GUARDS = [
    ("cards_registry_incident_decks", ["deck_id", "incident_id"], True),
    ("cards_registry_incidentclosure_decks_fit", ["deck_id", "incidentclosure_id"], True),
    ("cards_registry_outofusedeclaration", ["at", "declared_by_id", "opening_id", "reason"], True),
    ("cards_registry_outofusedeclaration_decks", ["deck_id", "outofusedeclaration_id"], True),
]


class Migration(migrations.Migration):
    dependencies = [("cards_registry", "0007_remove_act_permissions")]

    operations = [guard_operations(GUARDS)]
