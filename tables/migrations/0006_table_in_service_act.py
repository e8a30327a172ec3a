"""A table is put in or out of service by an act (tables.services.set_table_in_service): its
``in_service`` column leaves the immutable columns of the table's guard; the others stay."""

from django.db import migrations

from audit.books import guard_sql

OLD = ["boxes", "code", "game", "in_service", "number"]
NEW = ["boxes", "code", "game", "number"]


def _swap(before: list[str], after: list[str]):
    def run(apps, schema_editor) -> None:
        vendor = schema_editor.connection.vendor
        _install, remove = guard_sql(vendor, "tables_table", before, append_only=True)
        install, _remove = guard_sql(vendor, "tables_table", after, append_only=True)
        for statement in [*remove, *install]:
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("tables", "0005_delegation_authorised_minimum_acknowledgement")]

    operations = [migrations.RunPython(_swap(OLD, NEW), _swap(NEW, OLD))]
