"""Signed checkpoints of the audit record: trust kept outside the database.

A checkpoint is a small statement, signed with the casino's key (CMS, detached):
``{"casino", "hash", "seq", "time", "type"}`` in canonical JSON. Beat makes one
regularly (``audit.tasks.make_checkpoint``) and ``manage.py audit_checkpoint``
on demand. Whoever rewrites the chain and recomputes every hash after a
checkpoint cannot make the chain's hash at that sequence equal the signed one
again: ``verify_audit`` reports it, naming the checkpoint. An export (an
attached CMS file holding the checkpoints) is kept by officers outside the
casino; ``verify_audit --against FILE`` checks the chain against it.

Chained, guarded, witnessed
---------------------------
Checkpoints are numbered without gaps (``number``) and each statement names its
predecessor's hash (``prev``: the SHA-256 of the previous statement); the
database checks both and refuses any change or removal (migration 0005). Each
statement also signs the Merkle tree head (RFC 9162) over every event up to it
(``tree_size``, ``root``; see :mod:`audit.merkle`), from which officers get
inclusion and consistency proofs.

Each checkpoint is also written, once and never overwritten, to the **witness**:
a store outside the database, a directory (``AUDIT_WITNESS_DIR``) or a Django
storage (``AUDIT_WITNESS_STORAGE``, e.g. an S3-compatible bucket with object
lock through django-storages). ``verify_audit`` checks the database and the
chain against every witnessed checkpoint: an emptied chain, deleted checkpoints
or a chain rewritten with recomputed hashes (even with the application's keys)
fail, naming the witnessed checkpoint the database no longer matches.

The package, by concern: :mod:`.make`, :mod:`.witness`, :mod:`.check` (the
chain against the checkpoints) and :mod:`.exports`.
"""

from __future__ import annotations

from .check import (
    CheckContext,
    CheckedCheckpoint,
    WitnessedCheckpoint,
    check_all,
    check_statement,
    describe,
    wanted_seqs,
)
from .exports import EXPORT_TYPE, check_export, export, read_export
from .make import STATEMENT_TYPE, checkpoint_on_commit, make_checkpoint, statement
from .witness import (
    FILE_TYPE,
    HEAD_TYPE,
    DirectoryWitness,
    HeadMark,
    StorageWitness,
    WitnessConflict,
    WitnessUnwritable,
    checkpoint_file,
    get_witness,
    latest_head_mark,
    witness_head,
    witness_name,
    witness_pending,
)

__all__ = [
    "CheckContext",
    "CheckedCheckpoint",
    "DirectoryWitness",
    "EXPORT_TYPE",
    "FILE_TYPE",
    "HEAD_TYPE",
    "HeadMark",
    "latest_head_mark",
    "witness_head",
    "STATEMENT_TYPE",
    "StorageWitness",
    "WitnessConflict",
    "WitnessUnwritable",
    "WitnessedCheckpoint",
    "check_all",
    "check_export",
    "check_statement",
    "checkpoint_file",
    "checkpoint_on_commit",
    "describe",
    "export",
    "get_witness",
    "make_checkpoint",
    "read_export",
    "statement",
    "wanted_seqs",
    "witness_name",
    "witness_pending",
]
