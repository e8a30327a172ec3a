"""The database itself refuses any change to the audit record (FR art. 68).

PostgreSQL: row triggers refuse DELETE, and every UPDATE except the one that
seals an unsealed event (sets seq, prev_hash, hash, sealed_at and nothing
else); an INSERT may not arrive already sealed; a statement trigger refuses
TRUNCATE. They are enabled ALWAYS, so ``session_replication_role = replica``
does not skip them. SQLite: equivalent triggers (it has no TRUNCATE).
"""

from django.db import migrations

PG_INSTALL = r"""
CREATE OR REPLACE FUNCTION audit_event_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NEW.seq IS NOT NULL OR NEW.hash IS NOT NULL OR NEW.prev_hash IS NOT NULL
           OR NEW.sealed_at IS NOT NULL THEN
            RAISE EXCEPTION 'audit_event: an event is inserted unsealed and sealed by the chain'
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    ELSIF TG_OP = 'UPDATE' THEN
        IF OLD.seq IS NULL AND NEW.seq IS NOT NULL AND NEW.hash IS NOT NULL
           AND NEW.prev_hash IS NOT NULL AND NEW.sealed_at IS NOT NULL
           AND NEW.id = OLD.id
           AND NEW.recorded_at = OLD.recorded_at
           AND NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id
           AND NEW.actor_name = OLD.actor_name
           AND NEW.action = OLD.action
           AND NEW.object_type = OLD.object_type
           AND NEW.object_id = OLD.object_id
           AND NEW.payload = OLD.payload THEN
            RETURN NEW;
        END IF;
        RAISE EXCEPTION 'audit_event is append-only: UPDATE refused (FR art. 68)'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RAISE EXCEPTION 'audit_event is append-only: % refused (FR art. 68)', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER audit_event_guard_rows
    BEFORE INSERT OR UPDATE OR DELETE ON audit_event
    FOR EACH ROW EXECUTE FUNCTION audit_event_guard();
CREATE TRIGGER audit_event_guard_truncate
    BEFORE TRUNCATE ON audit_event
    FOR EACH STATEMENT EXECUTE FUNCTION audit_event_guard();
ALTER TABLE audit_event ENABLE ALWAYS TRIGGER audit_event_guard_rows;
ALTER TABLE audit_event ENABLE ALWAYS TRIGGER audit_event_guard_truncate;
"""

PG_REMOVE = r"""
DROP TRIGGER IF EXISTS audit_event_guard_rows ON audit_event;
DROP TRIGGER IF EXISTS audit_event_guard_truncate ON audit_event;
DROP FUNCTION IF EXISTS audit_event_guard();
"""

SQLITE_INSTALL = [
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
                 AND NEW.object_id = OLD.object_id AND NEW.payload = OLD.payload)
       BEGIN SELECT RAISE(ABORT, 'audit_event is append-only: UPDATE refused (FR art. 68)'); END""",
    """CREATE TRIGGER audit_event_no_delete BEFORE DELETE ON audit_event
       BEGIN SELECT RAISE(ABORT, 'audit_event is append-only: DELETE refused (FR art. 68)'); END""",
]
SQLITE_REMOVE = [
    "DROP TRIGGER IF EXISTS audit_event_no_sealed_insert",
    "DROP TRIGGER IF EXISTS audit_event_no_update",
    "DROP TRIGGER IF EXISTS audit_event_no_delete",
]


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_INSTALL, params=None)
    elif vendor == "sqlite":
        for statement in SQLITE_INSTALL:
            schema_editor.execute(statement)
    else:
        raise RuntimeError(f"the audit record needs PostgreSQL or SQLite, not {vendor}")


def remove(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_REMOVE, params=None)
    elif vendor == "sqlite":
        for statement in SQLITE_REMOVE:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]

    operations = [migrations.RunPython(install, remove)]
