"""The database guards an officer's demands, the cabinet's inventories, the reports of incidents and the depot's settings like the other books (see
tables 0004_book_guards): rows never deleted, the columns written by the act never updated."""

from django.db import migrations

from audit.books import guard_operations

GUARDS = [
    ("cards_registry_cabinetdemand", ["at", "officer_id", "reason"], True),
    (
        "cards_registry_cabinetinventory",
        ["at", "expected", "found", "incident_id", "missing", "opening_id", "recorded_by_id", "unexpected"],
        True,
    ),
    ("cards_registry_depotsettings", [], True),
    (
        "cards_registry_incidentreport",
        ["authority", "incident_id", "informed_at", "officer_id", "recorded_at", "recorded_by_id"],
        True,
    ),
]


class Migration(migrations.Migration):
    dependencies = [("cards_registry", "0008_many_to_many_guards")]

    operations = [guard_operations(GUARDS)]
