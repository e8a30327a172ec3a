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


# --- SQLite: the guard put back after a table is rebuilt --------------------------------

#: The audit record's and the checkpoints' guards on SQLite (as migrations 0002, 0004
#: and 0005 of audit install them; PostgreSQL's are altered in place, never lost).
RECORD_SQLITE_GUARD = [
    """CREATE TRIGGER audit_event_no_sealed_insert BEFORE INSERT ON audit_event
       WHEN NEW.seq IS NOT NULL OR NEW.hash IS NOT NULL OR NEW.prev_hash IS NOT NULL
            OR NEW.sealed_at IS NOT NULL
       BEGIN SELECT RAISE(ABORT, 'audit_event: an event is inserted unsealed'); END""",
    """CREATE TRIGGER audit_event_no_update BEFORE UPDATE ON audit_event
       WHEN NOT (OLD.seq IS NULL AND NEW.seq IS NOT NULL AND NEW.hash IS NOT NULL
                 AND NEW.prev_hash IS NOT NULL AND NEW.sealed_at IS NOT NULL
                 AND NEW.id = OLD.id AND NEW.recorded_at = OLD.recorded_at
                 AND NEW.actor_id IS OLD.actor_id AND NEW.actor_name = OLD.actor_name
                 AND NEW.action = OLD.action AND NEW.object_type = OLD.object_type
                 AND NEW.object_id = OLD.object_id AND NEW.payload = OLD.payload
                 AND NEW.mac IS OLD.mac)
       BEGIN SELECT RAISE(ABORT, 'audit_event is append-only: UPDATE refused (FR art. 68)'); END""",
    """CREATE TRIGGER audit_event_no_delete BEFORE DELETE ON audit_event
       BEGIN SELECT RAISE(ABORT, 'audit_event is append-only: DELETE refused (FR art. 68)'); END""",
    """CREATE TRIGGER audit_checkpoint_in_order BEFORE INSERT ON audit_checkpoint
       WHEN NEW.number IS NOT (SELECT COALESCE(MAX(number), 0) + 1 FROM audit_checkpoint)
            OR NEW.prev_hash IS NOT COALESCE(
                (SELECT statement_hash FROM audit_checkpoint ORDER BY number DESC LIMIT 1),
                '0000000000000000000000000000000000000000000000000000000000000000')
            OR NEW.seq <= COALESCE((SELECT MAX(seq) FROM audit_checkpoint), 0)
       BEGIN SELECT RAISE(ABORT, 'audit_checkpoint: numbered without gaps, each naming its predecessor'); END""",
    """CREATE TRIGGER audit_checkpoint_no_update BEFORE UPDATE ON audit_checkpoint
       BEGIN SELECT RAISE(ABORT, 'audit_checkpoint is append-only: UPDATE refused (FR art. 68)'); END""",
    """CREATE TRIGGER audit_checkpoint_no_delete BEFORE DELETE ON audit_checkpoint
       BEGIN SELECT RAISE(ABORT, 'audit_checkpoint is append-only: DELETE refused (FR art. 68)'); END""",
    """CREATE TRIGGER audit_merkle_node_no_update BEFORE UPDATE ON audit_merkle_node
       BEGIN SELECT RAISE(ABORT, 'audit_merkle_node is append-only: UPDATE refused (FR art. 68)'); END""",
    """CREATE TRIGGER audit_merkle_node_no_delete BEFORE DELETE ON audit_merkle_node
       BEGIN SELECT RAISE(ABORT, 'audit_merkle_node is append-only: DELETE refused (FR art. 68)'); END""",
]


def sqlite_guard_statements(books: Iterable[Any]) -> list[tuple[str, str]]:
    """``(trigger name, CREATE TRIGGER IF NOT EXISTS …)`` for every guard SQLite must hold:
    the record's, the checkpoints' and each book's (``books``: audit.books.registry.books())."""
    statements = list(RECORD_SQLITE_GUARD)
    for book in books:
        statements += guard_sql("sqlite", book.table, book.immutable_columns, append_only=book.append_only)[0]
    out = []
    for statement in statements:
        name = statement.split(None, 3)[2]
        out.append((name, statement.replace("CREATE TRIGGER ", "CREATE TRIGGER IF NOT EXISTS ", 1)))
    return out


def restore_sqlite_guards(connection: Any, books: Iterable[Any]) -> list[str]:
    """Put back on SQLite every guard trigger a migration lost; return their names.

    SQLite alters a table by rebuilding it (Django's schema editor copies it into a new
    table), and the copy has none of the old table's triggers: a book's guard, or the
    record's own, would be silently gone. Run after every complete ``migrate``
    (audit.apps), with every book (audit.books.registry.books())."""
    if connection.vendor != "sqlite":
        return []
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        present = {row[0] for row in cursor.fetchall()}
        restored = []
        for name, statement in sqlite_guard_statements(books):
            if name not in present:
                cursor.execute(statement)
                restored.append(name)
    return restored
