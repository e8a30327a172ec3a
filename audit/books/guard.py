"""The database's guard: triggers that keep the books append-only."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

# --- The database's guard -----------------------------------------------------------


def guard_sql(
    vendor: str, table: str, immutable: Iterable[str], *, append_only: bool = True
) -> tuple[list[str], list[str]]:
    """The statements that install and remove a book's guard on ``vendor``.

    PostgreSQL: a row trigger ``<table>_guard_rows`` refuses DELETE (``append_only``)
    and any UPDATE that changes a column of ``immutable``; a statement trigger
    ``<table>_guard_truncate`` refuses TRUNCATE; both ENABLE ALWAYS, so
    ``session_replication_role = replica`` does not skip them. SQLite: the same
    refusals as BEFORE triggers (it has no TRUNCATE). Pure: imports nothing.
    """
    immutable = list(immutable)
    if vendor == "postgresql":
        changed = " OR ".join(f'NEW."{c}" IS DISTINCT FROM OLD."{c}"' for c in immutable) or "FALSE"
        delete = "TRUE" if append_only else "FALSE"
        function = f"{table}_guard"
        install = [
            f"""CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        IF {changed} THEN
            RAISE EXCEPTION '{table}: a registered entry is never changed (FR art. 68): UPDATE refused'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
    ELSIF TG_OP = 'DELETE' THEN
        IF {delete} THEN
            RAISE EXCEPTION '{table}: a registered entry is never erased (FR art. 68): DELETE refused'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN OLD;
    END IF;
    RAISE EXCEPTION '{table}: a registered book is never erased (FR art. 68): % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$""",
            f"CREATE TRIGGER {table}_guard_rows BEFORE UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {function}()",
            f"CREATE TRIGGER {table}_guard_truncate BEFORE TRUNCATE ON {table} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {function}()",
            f"ALTER TABLE {table} ENABLE ALWAYS TRIGGER {table}_guard_rows",
            f"ALTER TABLE {table} ENABLE ALWAYS TRIGGER {table}_guard_truncate",
        ]
        remove = [
            f"DROP TRIGGER IF EXISTS {table}_guard_rows ON {table}",
            f"DROP TRIGGER IF EXISTS {table}_guard_truncate ON {table}",
            f"DROP FUNCTION IF EXISTS {function}()",
        ]
        return install, remove
    if vendor == "sqlite":
        install, remove = [], []
        if immutable:
            changed = " OR ".join(f'NEW."{c}" IS NOT OLD."{c}"' for c in immutable)
            install.append(
                f"CREATE TRIGGER {table}_guard_update BEFORE UPDATE ON {table} WHEN {changed} "
                f"BEGIN SELECT RAISE(ABORT, '{table}: a registered entry is never changed (FR art. 68)'); END"
            )
            remove.append(f"DROP TRIGGER IF EXISTS {table}_guard_update")
        if append_only:
            install.append(
                f"CREATE TRIGGER {table}_guard_delete BEFORE DELETE ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table}: a registered entry is never erased (FR art. 68)'); END"
            )
            remove.append(f"DROP TRIGGER IF EXISTS {table}_guard_delete")
        return install, remove
    raise RuntimeError(f"the books need PostgreSQL or SQLite, not {vendor}")


def guard_operations(
    guards: list[tuple[str, list[str], bool]],
    *,
    replacing: list[tuple[str, list[str], bool]] | None = None,
) -> Any:
    """A migration operation installing the guards ``[(table, immutable columns, append_only)]``.

    ``replacing``: the guards an earlier migration installed on some of these tables (a book
    gained a column): they are removed first, and put back when the migration is reversed. The
    latest migration's list for a table is the one in force."""
    from django.db import migrations

    before = list(replacing or [])

    def _run(schema_editor: Any, drop: list[tuple[str, list[str], bool]], put: list[Any]) -> None:
        vendor = schema_editor.connection.vendor
        for table, immutable, append_only in drop:
            for statement in guard_sql(vendor, table, immutable, append_only=append_only)[1]:
                schema_editor.execute(statement, params=None)
        for table, immutable, append_only in put:
            for statement in guard_sql(vendor, table, immutable, append_only=append_only)[0]:
                schema_editor.execute(statement, params=None)

    def install(apps: Any, schema_editor: Any) -> None:
        _run(schema_editor, before, guards)

    def remove(apps: Any, schema_editor: Any) -> None:
        _run(schema_editor, guards, before)

    return migrations.RunPython(install, remove)
