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


def guard_operations(guards: list[tuple[str, list[str], bool]]) -> Any:
    """A migration operation installing the guards ``[(table, immutable columns, append_only)]``."""
    from django.db import migrations

    def install(apps: Any, schema_editor: Any) -> None:
        for table, immutable, append_only in guards:
            statements, _remove = guard_sql(
                schema_editor.connection.vendor, table, immutable, append_only=append_only
            )
            for statement in statements:
                schema_editor.execute(statement, params=None)

    def remove(apps: Any, schema_editor: Any) -> None:
        for table, immutable, append_only in guards:
            _install, statements = guard_sql(
                schema_editor.connection.vendor, table, immutable, append_only=append_only
            )
            for statement in statements:
                schema_editor.execute(statement, params=None)

    return migrations.RunPython(install, remove)
