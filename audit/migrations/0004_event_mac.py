"""Events authenticated at the source: the ``mac`` column (HMAC-SHA256 keyed by
AUDIT_EVENT_KEY, see audit.chain), filled for the events recorded before it, and
the guard that now also refuses any change of it."""

import datetime as dt
import hashlib
import hmac

from django.conf import settings
from django.db import migrations, models

PG_GUARD = r"""
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
           AND NEW.payload = OLD.payload
           AND NEW.mac IS NOT DISTINCT FROM OLD.mac THEN
            RETURN NEW;
        END IF;
        RAISE EXCEPTION 'audit_event is append-only: UPDATE refused (FR art. 68)'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RAISE EXCEPTION 'audit_event is append-only: % refused (FR art. 68)', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;
"""

SQLITE_UPDATE_GUARD = """CREATE TRIGGER audit_event_no_update BEFORE UPDATE ON audit_event
   WHEN NOT (OLD.seq IS NULL AND NEW.seq IS NOT NULL AND NEW.hash IS NOT NULL
             AND NEW.prev_hash IS NOT NULL AND NEW.sealed_at IS NOT NULL
             AND NEW.id = OLD.id AND NEW.recorded_at = OLD.recorded_at
             AND NEW.actor_id IS OLD.actor_id AND NEW.actor_name = OLD.actor_name
             AND NEW.action = OLD.action AND NEW.object_type = OLD.object_type
             AND NEW.object_id = OLD.object_id AND NEW.payload = OLD.payload
             AND NEW.mac IS OLD.mac)
   BEGIN SELECT RAISE(ABORT, 'audit_event is append-only: UPDATE refused (FR art. 68)'); END"""


def _mac(key: bytes, row: tuple) -> str:
    recorded_at, actor_name, action, object_type, object_id, payload = row
    stamp = recorded_at.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    content = "\x1f".join([stamp, actor_name, action, object_type, object_id, payload]).encode("utf-8")
    return hmac.digest(key, content, hashlib.sha256).hex()


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    AuditEvent = apps.get_model("audit", "AuditEvent")
    db = schema_editor.connection.alias
    rows = list(
        AuditEvent.objects.using(db)
        .filter(mac__isnull=True)
        .values_list("id", "recorded_at", "actor_name", "action", "object_type", "object_id", "payload")
    )
    key = (getattr(settings, "AUDIT_EVENT_KEY", "") or "").encode("utf-8")
    if vendor == "postgresql":
        if rows:
            schema_editor.execute("ALTER TABLE audit_event DISABLE TRIGGER audit_event_guard_rows")
        for event_id, *fields in rows:
            schema_editor.execute("UPDATE audit_event SET mac = %s WHERE id = %s", [_mac(key, fields), event_id])
        schema_editor.execute(PG_GUARD, params=None)
        if rows:
            schema_editor.execute("ALTER TABLE audit_event ENABLE ALWAYS TRIGGER audit_event_guard_rows")
    elif vendor == "sqlite":
        schema_editor.execute("DROP TRIGGER IF EXISTS audit_event_no_update")
        for event_id, *fields in rows:
            schema_editor.execute("UPDATE audit_event SET mac = %s WHERE id = %s", [_mac(key, fields), event_id])
        schema_editor.execute(SQLITE_UPDATE_GUARD)


class Migration(migrations.Migration):
    dependencies = [("audit", "0003_checkpoint_report")]

    operations = [
        migrations.AddField(
            model_name="auditevent",
            name="mac",
            field=models.CharField(
                editable=False, max_length=64, null=True, verbose_name="code d'authentification (HMAC)"
            ),
        ),
        migrations.AddConstraint(
            model_name="auditevent",
            constraint=models.UniqueConstraint(fields=("mac",), name="audit_event_mac_unique"),
        ),
        migrations.RunPython(install, migrations.RunPython.noop),
    ]
