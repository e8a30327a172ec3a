"""Checkpoints chained and guarded, and the stored nodes of the Merkle tree.

Checkpoints are numbered without gaps and each names its predecessor's hash;
the database checks both on INSERT and refuses every UPDATE, DELETE and
TRUNCATE of a checkpoint or of a Merkle node, ENABLE ALWAYS like the guard of
the record itself. Checkpoints signed before carry their number and hashes in
their columns only.
"""

import hashlib

from django.db import migrations, models

GENESIS = "0" * 64

PG_INSTALL = r"""
CREATE OR REPLACE FUNCTION audit_checkpoint_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    last_number bigint;
    last_hash text;
    last_seq bigint;
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT number, statement_hash, seq INTO last_number, last_hash, last_seq
            FROM audit_checkpoint ORDER BY number DESC LIMIT 1;
        IF NEW.number IS DISTINCT FROM coalesce(last_number, 0) + 1 THEN
            RAISE EXCEPTION 'audit_checkpoint: checkpoint % would follow checkpoint % (numbered without gaps)',
                NEW.number, coalesce(last_number, 0) USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF NEW.prev_hash IS DISTINCT FROM coalesce(last_hash, repeat('0', 64)) THEN
            RAISE EXCEPTION 'audit_checkpoint: checkpoint % does not name its predecessor''s hash', NEW.number
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF last_seq IS NOT NULL AND NEW.seq <= last_seq THEN
            RAISE EXCEPTION 'audit_checkpoint: checkpoint % goes back in the chain', NEW.number
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF NEW.statement_hash IS DISTINCT FROM encode(sha256(convert_to(NEW.statement, 'UTF8')), 'hex') THEN
            RAISE EXCEPTION 'audit_checkpoint: statement_hash is not the hash of the statement'
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'audit_checkpoint is append-only: % refused (FR art. 68)', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE OR REPLACE FUNCTION audit_append_only_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused (FR art. 68)', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER audit_checkpoint_guard_rows
    BEFORE INSERT OR UPDATE OR DELETE ON audit_checkpoint
    FOR EACH ROW EXECUTE FUNCTION audit_checkpoint_guard();
CREATE TRIGGER audit_checkpoint_guard_truncate
    BEFORE TRUNCATE ON audit_checkpoint
    FOR EACH STATEMENT EXECUTE FUNCTION audit_checkpoint_guard();
ALTER TABLE audit_checkpoint ENABLE ALWAYS TRIGGER audit_checkpoint_guard_rows;
ALTER TABLE audit_checkpoint ENABLE ALWAYS TRIGGER audit_checkpoint_guard_truncate;

CREATE TRIGGER audit_merkle_node_guard_rows
    BEFORE UPDATE OR DELETE ON audit_merkle_node
    FOR EACH ROW EXECUTE FUNCTION audit_append_only_guard();
CREATE TRIGGER audit_merkle_node_guard_truncate
    BEFORE TRUNCATE ON audit_merkle_node
    FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only_guard();
ALTER TABLE audit_merkle_node ENABLE ALWAYS TRIGGER audit_merkle_node_guard_rows;
ALTER TABLE audit_merkle_node ENABLE ALWAYS TRIGGER audit_merkle_node_guard_truncate;
"""

PG_REMOVE = r"""
DROP TRIGGER IF EXISTS audit_checkpoint_guard_rows ON audit_checkpoint;
DROP TRIGGER IF EXISTS audit_checkpoint_guard_truncate ON audit_checkpoint;
DROP TRIGGER IF EXISTS audit_merkle_node_guard_rows ON audit_merkle_node;
DROP TRIGGER IF EXISTS audit_merkle_node_guard_truncate ON audit_merkle_node;
DROP FUNCTION IF EXISTS audit_checkpoint_guard();
DROP FUNCTION IF EXISTS audit_append_only_guard();
"""

SQLITE_INSTALL = [
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
SQLITE_REMOVE = [
    "DROP TRIGGER IF EXISTS audit_checkpoint_in_order",
    "DROP TRIGGER IF EXISTS audit_checkpoint_no_update",
    "DROP TRIGGER IF EXISTS audit_checkpoint_no_delete",
    "DROP TRIGGER IF EXISTS audit_merkle_node_no_update",
    "DROP TRIGGER IF EXISTS audit_merkle_node_no_delete",
]


def number_existing(apps, schema_editor):
    Checkpoint = apps.get_model("audit", "Checkpoint")
    db = schema_editor.connection.alias
    prev = GENESIS
    for number, checkpoint in enumerate(Checkpoint.objects.using(db).order_by("seq"), 1):
        digest = hashlib.sha256(checkpoint.statement.encode("utf-8")).hexdigest()
        Checkpoint.objects.using(db).filter(pk=checkpoint.pk).update(
            number=number, prev_hash=prev, statement_hash=digest
        )
        prev = digest


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
    dependencies = [("audit", "0004_event_mac")]

    operations = [
        migrations.AddField(
            model_name="checkpoint",
            name="number",
            field=models.BigIntegerField(editable=False, null=True, verbose_name="numéro"),
        ),
        migrations.AddField(
            model_name="checkpoint",
            name="prev_hash",
            field=models.CharField(
                default="",
                editable=False,
                max_length=64,
                verbose_name="empreinte du point de contrôle précédent",
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="checkpoint",
            name="statement_hash",
            field=models.CharField(
                default="", editable=False, max_length=64, verbose_name="empreinte de la déclaration"
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="checkpoint",
            name="root_hash",
            field=models.CharField(
                blank=True,
                editable=False,
                max_length=64,
                verbose_name="racine de l'arbre de Merkle (RFC 9162)",
            ),
        ),
        migrations.RunPython(number_existing, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="checkpoint",
            name="number",
            field=models.BigIntegerField(editable=False, unique=True, verbose_name="numéro"),
        ),
        migrations.CreateModel(
            name="MerkleNode",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("level", models.PositiveSmallIntegerField(editable=False, verbose_name="niveau")),
                ("index", models.BigIntegerField(editable=False, verbose_name="position")),
                ("hash", models.CharField(editable=False, max_length=64, verbose_name="empreinte")),
            ],
            options={
                "verbose_name": "nœud de l'arbre de Merkle",
                "verbose_name_plural": "nœuds de l'arbre de Merkle",
                "db_table": "audit_merkle_node",
                "constraints": [
                    models.UniqueConstraint(fields=("level", "index"), name="audit_merkle_node_position")
                ],
            },
        ),
        migrations.RunPython(install, remove),
    ]
