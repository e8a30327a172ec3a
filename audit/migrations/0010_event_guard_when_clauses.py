"""The audit record's guard, unchanged in what it refuses, split so that the writes
it allows cost no function call.

Before: one row trigger ran the PL/pgSQL function ``audit_event_guard()`` for every
INSERT, UPDATE and DELETE, to let the legitimate ones (an unsealed event inserted,
an event sealed once) through. Now each trigger carries its own ``WHEN`` condition,
evaluated as a plain expression: the function runs only to refuse (it raises).

- ``audit_event_guard_insert``: BEFORE INSERT, when the new row arrives sealed;
- ``audit_event_guard_rows``: BEFORE UPDATE, unless the update is the one seal
  (seq, prev_hash, hash, sealed_at set on an unsealed event, nothing else changed);
- ``audit_event_guard_delete``: BEFORE DELETE, always;
- ``audit_event_guard_truncate``: BEFORE TRUNCATE, as before.

All ENABLE ALWAYS (``session_replication_role = replica`` does not skip them). Every
comparison is two-valued (IS DISTINCT FROM): a NULL never silences a condition.
SQLite already had its guard in WHEN clauses (0002, 0004).
"""

from importlib import import_module

from django.db import migrations

#: The record's guard triggers on PostgreSQL (tests that tamper lift and restore them).
TRIGGERS = (
    "audit_event_guard_insert",
    "audit_event_guard_rows",
    "audit_event_guard_delete",
    "audit_event_guard_truncate",
)

SEALED_ON_INSERT = (
    "NEW.seq IS NOT NULL OR NEW.hash IS NOT NULL OR NEW.prev_hash IS NOT NULL OR NEW.sealed_at IS NOT NULL"
)
NOT_THE_SEAL = """
    OLD.seq IS NOT NULL
    OR NEW.seq IS NULL OR NEW.hash IS NULL OR NEW.prev_hash IS NULL OR NEW.sealed_at IS NULL
    OR NEW.id IS DISTINCT FROM OLD.id
    OR NEW.recorded_at IS DISTINCT FROM OLD.recorded_at
    OR NEW.actor_id IS DISTINCT FROM OLD.actor_id
    OR NEW.actor_name IS DISTINCT FROM OLD.actor_name
    OR NEW.action IS DISTINCT FROM OLD.action
    OR NEW.object_type IS DISTINCT FROM OLD.object_type
    OR NEW.object_id IS DISTINCT FROM OLD.object_id
    OR NEW.payload IS DISTINCT FROM OLD.payload
    OR NEW.mac IS DISTINCT FROM OLD.mac
"""

PG_INSTALL = rf"""
CREATE OR REPLACE FUNCTION audit_event_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        RAISE EXCEPTION 'audit_event: an event is inserted unsealed and sealed by the chain'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RAISE EXCEPTION 'audit_event is append-only: % refused (FR art. 68)', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

DROP TRIGGER IF EXISTS audit_event_guard_rows ON audit_event;
DROP TRIGGER IF EXISTS audit_event_guard_truncate ON audit_event;
DROP FUNCTION IF EXISTS audit_event_guard();

CREATE TRIGGER audit_event_guard_insert BEFORE INSERT ON audit_event FOR EACH ROW
    WHEN ({SEALED_ON_INSERT}) EXECUTE FUNCTION audit_event_refuse();
CREATE TRIGGER audit_event_guard_rows BEFORE UPDATE ON audit_event FOR EACH ROW
    WHEN ({NOT_THE_SEAL}) EXECUTE FUNCTION audit_event_refuse();
CREATE TRIGGER audit_event_guard_delete BEFORE DELETE ON audit_event FOR EACH ROW
    EXECUTE FUNCTION audit_event_refuse();
CREATE TRIGGER audit_event_guard_truncate BEFORE TRUNCATE ON audit_event FOR EACH STATEMENT
    EXECUTE FUNCTION audit_event_refuse();
""" + "".join(f"ALTER TABLE audit_event ENABLE ALWAYS TRIGGER {name};\n" for name in TRIGGERS)

# Back to 0004's single function-for-everything guard.
PG_REMOVE = r"""
DROP TRIGGER IF EXISTS audit_event_guard_insert ON audit_event;
DROP TRIGGER IF EXISTS audit_event_guard_rows ON audit_event;
DROP TRIGGER IF EXISTS audit_event_guard_delete ON audit_event;
DROP TRIGGER IF EXISTS audit_event_guard_truncate ON audit_event;
DROP FUNCTION IF EXISTS audit_event_refuse();
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_INSTALL, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    previous = import_module("audit.migrations.0004_event_mac")
    first = import_module("audit.migrations.0002_append_only")
    schema_editor.execute(PG_REMOVE, params=None)
    schema_editor.execute(previous.PG_GUARD, params=None)
    install_triggers = first.PG_INSTALL.split("$$;", 2)[-1]  # 0002's CREATE TRIGGER lines
    schema_editor.execute(install_triggers, params=None)


class Migration(migrations.Migration):
    dependencies = [("audit", "0009_event_actor_without_constraint")]

    operations = [migrations.RunPython(install, remove)]
