"""The witness: each checkpoint written once, never overwritten, outside the database."""

from __future__ import annotations

import base64
import errno
import hashlib
import hmac
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core import checks
from django.utils import timezone

from ..chain import canonical_json, format_time, head
from ..chain.hashing import _key
from ..models import Checkpoint

FILE_TYPE = "audit-checkpoint-file"
_WITNESS_NAME = re.compile(r"^checkpoint-(\d{10})\.json$")


class WitnessConflict(Exception):
    """The witness already holds, under that number, a different checkpoint."""


class WitnessUnwritable(Exception):
    """The witness could not write a file (a full disk, a read-only share…): nothing is left
    under its name; the message names the file and the system's reason."""

    def __init__(self, target: Any, error: OSError) -> None:
        reason = error.strerror or str(error)
        super().__init__(f"the witness cannot write {target}: {reason}")
        self.target, self.reason = str(target), reason


class DirectoryWitness:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def __str__(self) -> str:
        return str(self.path)

    def names(self) -> list[str]:
        if not self.path.is_dir():
            return []
        return sorted(p.name for p in self.path.iterdir() if _WITNESS_NAME.match(p.name))

    def read(self, name: str) -> bytes:
        return (self.path / name).read_bytes()

    def listdir(self, folder: str) -> tuple[list[str], list[str]]:
        where = self.path / folder
        if not where.is_dir():
            return [], []
        entries = list(where.iterdir())
        return [p.name for p in entries if p.is_dir()], [p.name for p in entries if p.is_file()]

    def exists(self, name: str) -> bool:
        return (self.path / name).exists()

    def write(self, name: str, data: bytes) -> None:
        """Write ``name`` once: the bytes go to a temporary file first, synced, then linked under
        their name (which never existed before, nor is replaced). A full or read-only directory
        leaves neither (:class:`WitnessUnwritable`, naming the file)."""
        target = self.path / name
        if target.exists():
            if target.read_bytes() != data:
                raise WitnessConflict(name)
            return
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(data)
                    out.flush()
                    os.fsync(out.fileno())
                _link(temporary, target)
            finally:
                temporary.unlink(missing_ok=True)
        except FileExistsError:
            if target.read_bytes() != data:  # written meanwhile by another process
                raise WitnessConflict(name) from None
        except OSError as error:
            raise WitnessUnwritable(target, error) from error


class StorageWitness:
    def __init__(self, alias: str) -> None:
        from django.core.files.storage import storages

        self.alias = alias
        self.storage = storages[alias]

    def __str__(self) -> str:
        return f"storage {self.alias}"

    def names(self) -> list[str]:
        try:
            _dirs, files = self.storage.listdir("")
        except FileNotFoundError:
            return []
        return sorted(name for name in files if _WITNESS_NAME.match(name))

    def read(self, name: str) -> bytes:
        with self.storage.open(name, "rb") as handle:
            data: bytes = handle.read()
        return data

    def listdir(self, folder: str) -> tuple[list[str], list[str]]:
        try:
            dirs, files = self.storage.listdir(folder)
        except FileNotFoundError:
            return [], []
        return list(dirs), list(files)

    def exists(self, name: str) -> bool:
        return bool(self.storage.exists(name))

    def write(self, name: str, data: bytes) -> None:
        from django.core.files.base import ContentFile

        if self.storage.exists(name):
            if self.read(name) != data:
                raise WitnessConflict(name)
            return
        saved = self.storage.save(name, ContentFile(data))
        if saved != name:
            raise WitnessConflict(name)


def _link(temporary: Path, target: Path) -> None:
    """``temporary`` under ``target``'s name, never replacing a file: a hard link, or on a share
    without them (SMB…) a rename once the name is checked free."""
    try:
        os.link(temporary, target)
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS, errno.EXDEV):
            raise
        if target.exists():
            raise FileExistsError(errno.EEXIST, "exists", str(target)) from None
        os.rename(temporary, target)


def get_witness() -> DirectoryWitness | StorageWitness | None:
    """The configured witness (a storage of STORAGES, else a directory), or None."""
    alias = getattr(settings, "AUDIT_WITNESS_STORAGE", "") or ""
    if alias:
        return StorageWitness(alias)
    directory = getattr(settings, "AUDIT_WITNESS_DIR", "") or ""
    return DirectoryWitness(directory) if directory else None


def check_witness_configured(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """``check --deploy``: with DEBUG off the record must have a witness outside the database
    (without one, a chain rewritten with the application's keys and re-signed is not seen)."""
    alias = getattr(settings, "AUDIT_WITNESS_STORAGE", "") or ""
    if alias:
        if alias not in settings.STORAGES:
            return [
                checks.Error(
                    f"AUDIT_WITNESS_STORAGE names the storage {alias!r}, which STORAGES does not define.",
                    hint="Define it in STORAGES, or give AUDIT_WITNESS_STORAGE_BACKEND and "
                    "AUDIT_WITNESS_STORAGE_OPTIONS.",
                    id="audit.E002",
                )
            ]
        return []
    if settings.DEBUG or getattr(settings, "AUDIT_WITNESS_DIR", ""):
        return []
    return [
        checks.Error(
            "No witness for the audit record: AUDIT_WITNESS_DIR and AUDIT_WITNESS_STORAGE are both "
            "unset while DEBUG is off.",
            hint="Set AUDIT_WITNESS_DIR to a directory outside the database (another disk, a mounted "
            "share) or AUDIT_WITNESS_STORAGE(_BACKEND) to a write-once storage.",
            id="audit.E001",
        )
    ]


def witness_name(number: int) -> str:
    return f"checkpoint-{number:010d}.json"


def checkpoint_file(checkpoint: Checkpoint) -> bytes:
    """A checkpoint as a file of its own: what the witness holds and officers download."""
    return (
        canonical_json(
            {
                "type": FILE_TYPE,
                "number": checkpoint.number,
                "seq": checkpoint.seq,
                "statement": checkpoint.statement,
                "signature": base64.b64encode(bytes(checkpoint.signature)).decode(),
            }
        )
        + "\n"
    ).encode("utf-8")


def witness_pending() -> int:
    """Write to the witness every checkpoint it does not hold yet; return how many."""
    witness = get_witness()
    if witness is None:
        return 0
    held = set(witness.names())
    written = 0
    for checkpoint in Checkpoint.objects.order_by("number").iterator():
        name = witness_name(checkpoint.number)
        if name not in held:
            witness.write(name, checkpoint_file(checkpoint))
            written += 1
    return written


# --- The chain's head, witnessed every few seconds --------------------------------------------
# A checkpoint (signed, every AUDIT_CHECKPOINT_EVERY seconds) bounds what could be removed whole
# at the chain's tip; the sealer also writes the head it reached to the witness every
# AUDIT_HEAD_WITNESS_EVERY seconds (a head mark: sequence, hash, time, authenticated with the
# event key), so that the window is seconds, and verify_audit measures it.

HEAD_TYPE = "audit-head"
HEADS = "heads"
_HEAD_NAME = re.compile(r"^head-(\d{12})\.json$")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass
class HeadMark:
    name: str
    seq: int
    hash: str
    time: str
    authentic: bool
    last_id: int | None = None  # the highest event id given when it was written (None: older marks)


def _head_mac(data: dict[str, Any]) -> str:
    content = canonical_json({k: v for k, v in data.items() if k != "mac"}).encode("utf-8")
    return hmac.new(_key(), HEAD_TYPE.encode() + b"\x1f" + content, hashlib.sha256).hexdigest()


def witness_head(using: str = "default") -> HeadMark | None:
    """Write the chain's sealed head to the witness (once per sequence and day); None without a
    witness or an empty chain."""
    witness = get_witness()
    if witness is None:
        return None
    seq, digest = head(using)
    if seq == 0:
        return None
    now = timezone.now()
    name = f"{HEADS}/{now:%Y-%m-%d}/head-{seq:012d}.json"
    data: dict[str, Any] = {
        "type": HEAD_TYPE,
        "seq": seq,
        "hash": digest,
        "time": format_time(now),
        "last_id": last_event_id(using),
    }
    data["mac"] = _head_mac(data)
    if not witness.exists(name):
        witness.write(name, (canonical_json(data) + "\n").encode("utf-8"))
    return read_head_mark(witness, name)


def last_event_id(using: str = "default") -> int:
    """The highest event id the database has given: its sequence's last value (PostgreSQL), the
    highest id held elsewhere. A head mark keeps it, so that the sequence set back below it (the
    newest acts removed, then ``setval`` to hide their ids) is named."""
    from django.db import connections

    connection = connections[using]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_get_serial_sequence('audit_event', 'id')")
            sequence = cursor.fetchone()[0]
            if sequence:
                cursor.execute(f"SELECT last_value, is_called FROM {sequence}")
                last, called = cursor.fetchone()
                return int(last) if called else int(last) - 1
        cursor.execute("SELECT coalesce(max(id), 0) FROM audit_event")
        return int(cursor.fetchone()[0])


def read_head_mark(witness: DirectoryWitness | StorageWitness, name: str) -> HeadMark:
    """A head mark as the witness holds it (``authentic``: its MAC holds); ValueError if unreadable."""
    try:
        data = json.loads(witness.read(name))
        mark = HeadMark(
            name=name,
            seq=int(data["seq"]),
            hash=str(data["hash"]),
            time=str(data.get("time", "")),
            last_id=int(data["last_id"]) if data.get("last_id") is not None else None,
            authentic=data.get("type") == HEAD_TYPE
            and hmac.compare_digest(str(data.get("mac", "")), _head_mac(data)),
        )
    except (OSError, KeyError, TypeError) as error:
        raise ValueError(str(error)) from error
    return mark


def latest_head_mark() -> HeadMark | None:
    """The witnessed head of the highest sequence (read from the newest day that holds one)."""
    witness = get_witness()
    if witness is None:
        return None
    days, _files = witness.listdir(HEADS)
    for day in sorted((d for d in days if _DAY.match(d)), reverse=True):
        _dirs, files = witness.listdir(f"{HEADS}/{day}")
        names = sorted(f for f in files if _HEAD_NAME.match(f))
        if names:
            return read_head_mark(witness, f"{HEADS}/{day}/{names[-1]}")
    return None
