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
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops.celery import app
from casino_ops.models import CasinoSettings
from casino_ops.regulations import RegulationError

from . import signing
from .chain import GENESIS, canonical_json, format_time, head, seal_pending, verify_chain
from .merkle import TreeBuilder
from .models import Checkpoint, MerkleNode

STATEMENT_TYPE = "audit-checkpoint"
EXPORT_TYPE = "audit-checkpoints-export"
FILE_TYPE = "audit-checkpoint-file"
_LOCK_KEY = 0x6A75_6469_7402  # advisory lock key of the checkpoint makers
_WITNESS_NAME = re.compile(r"^checkpoint-(\d{10})\.json$")


def _casino_name() -> str:
    return CasinoSettings.objects.values_list("name", flat=True).first() or ""


def statement(
    *,
    seq: int,
    head_hash: str,
    made_at: dt.datetime,
    casino: str,
    number: int | None = None,
    prev: str | None = None,
    root: str | None = None,
) -> str:
    data: dict[str, Any] = {
        "casino": casino,
        "hash": head_hash,
        "seq": seq,
        "time": format_time(made_at),
        "type": STATEMENT_TYPE,
    }
    if number is not None:
        data.update({"number": number, "prev": prev, "root": root, "tree_size": seq})
    return canonical_json(data)


def make_checkpoint() -> Checkpoint | None:
    """Sign the chain's current head; None when the record is empty.

    The chain is verified first (and against the witness): the casino never
    signs a head it cannot vouch for. A head already signed keeps its
    checkpoint. The statement carries the checkpoint's number, its
    predecessor's hash and the Merkle tree head; the stored subtree hashes are
    completed; after commit the checkpoint goes to the witness.
    """
    signing.get_signer()
    seal_pending()
    seq, digest = head()
    if seq == 0:
        return None
    last = Checkpoint.objects.order_by("-number").first()
    if last is not None and last.seq >= seq:
        witness_pending()
        return last
    tree = TreeBuilder()
    result = verify_chain(merkle=tree)
    if not result.chain_ok or result.checkpoint_problems:
        raise RegulationError(
            "AUDIT_CHAIN_BROKEN",
            _("La chaîne d'audit ne se vérifie pas (%(reason)s) : aucun point de contrôle n'est signé.")
            % {"reason": result.describe()},
            "FR art. 68",
        )
    seq, digest = result.head_seq, result.head_hash  # sealed meanwhile: sign what was verified
    try:
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK_KEY])
            last = Checkpoint.objects.order_by("-number").first()
            if last is not None and last.seq >= seq:
                checkpoint = last
            else:
                _store_nodes(tree.nodes)
                made_at = timezone.now()
                text = statement(
                    seq=seq,
                    head_hash=digest,
                    made_at=made_at,
                    casino=_casino_name(),
                    number=last.number + 1 if last else 1,
                    prev=last.statement_hash if last else GENESIS,
                    root=tree.root().hex(),
                )
                checkpoint = Checkpoint.objects.create(
                    number=last.number + 1 if last else 1,
                    seq=seq,
                    head_hash=digest,
                    root_hash=tree.root().hex(),
                    prev_hash=last.statement_hash if last else GENESIS,
                    statement_hash=hashlib.sha256(text.encode("utf-8")).hexdigest(),
                    made_at=made_at,
                    statement=text,
                    signature=signing.sign_data(text.encode("utf-8"), detached=True),
                    signer=signing.signer_subject(),
                )
            transaction.on_commit(witness_pending)
            return checkpoint
    except IntegrityError:  # made at the same moment by another process
        return Checkpoint.objects.order_by("-number").first()


def checkpoint_on_commit() -> None:
    """Sign a checkpoint once the current transaction commits (the close of a day calls it).

    Queued as the Celery task ``audit.tasks.make_checkpoint`` of the project's
    Celery application (run in-process without a broker); outside a transaction
    it is queued at once. A failure to queue or sign never undoes the act that
    committed (``robust``): beat signs the next checkpoint a few minutes later.
    """
    if not signing.is_configured():
        return  # nothing can be signed here (a system without a certificate issues nothing)
    # the task is known in every process: AuditConfig.ready() imports audit.tasks (the record
    # never imports it, as the tasks import the registers)
    transaction.on_commit(app.tasks["audit.tasks.make_checkpoint"].delay, robust=True)


def _store_nodes(nodes: list[tuple[int, int, bytes]]) -> None:
    """Store the perfect subtrees' hashes not stored yet; a stored one that differs is tampering."""
    if not nodes:
        return
    stored = {
        (level, index): digest
        for level, index, digest in MerkleNode.objects.values_list("level", "index", "hash")
    }
    missing = []
    for level, index, digest in nodes:
        found = stored.get((level, index))
        if found is None:
            missing.append(MerkleNode(level=level, index=index, hash=digest.hex()))
        elif found != digest.hex():
            raise RegulationError(
                "AUDIT_MERKLE_TAMPERED",
                _(
                    "Le nœud %(level)s/%(index)s de l'arbre de Merkle ne correspond plus aux événements : "
                    "aucun point de contrôle n'est signé."
                )
                % {"level": level, "index": index},
                "FR art. 68",
            )
    MerkleNode.objects.bulk_create(missing, batch_size=2000)


# --- The witness -------------------------------------------------------------------


class WitnessConflict(Exception):
    """The witness already holds, under that number, a different checkpoint."""


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

    def write(self, name: str, data: bytes) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        target = self.path / name
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
        except FileExistsError:
            if target.read_bytes() != data:
                raise WitnessConflict(name) from None
            return
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())


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
            return handle.read()

    def write(self, name: str, data: bytes) -> None:
        from django.core.files.base import ContentFile

        if self.storage.exists(name):
            if self.read(name) != data:
                raise WitnessConflict(name)
            return
        saved = self.storage.save(name, ContentFile(data))
        if saved != name:
            raise WitnessConflict(name)


def get_witness() -> DirectoryWitness | StorageWitness | None:
    """The configured witness (a storage of STORAGES, else a directory), or None."""
    alias = getattr(settings, "AUDIT_WITNESS_STORAGE", "") or ""
    if alias:
        return StorageWitness(alias)
    directory = getattr(settings, "AUDIT_WITNESS_DIR", "") or ""
    return DirectoryWitness(directory) if directory else None


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


def _casino_certificate() -> bytes | None:
    """The configured signing certificate (DER), or None when none is usable here."""
    if not signing.is_configured():
        return None
    try:
        return signing.signer_certificate_der()
    except signing.SigningNotConfigured:
        return None


@dataclass
class CheckedCheckpoint:
    label: str
    seq: int
    problems: list[str] = field(default_factory=list)


def describe(checkpoint: Checkpoint) -> str:
    return _("point de contrôle n° %(id)s (séquence %(seq)s, signé le %(at)s)") % {
        "id": checkpoint.number,
        "seq": checkpoint.seq,
        "at": format_time(checkpoint.made_at),
    }


def check_statement(
    *, label: str, text: str, signature: bytes, chain_hashes: dict[int, str], verified_to: int, broken: bool
) -> CheckedCheckpoint:
    """One signed statement against the chain: its signature, then the chain's hash at its seq."""
    problems: list[str] = []
    check = signing.verify_data(signature, text.encode("utf-8"))
    try:
        data = json.loads(text)
        seq, signed_hash = int(data["seq"]), str(data["hash"])
    except (ValueError, KeyError, TypeError):
        return CheckedCheckpoint(label, -1, [_("sa déclaration est illisible")])
    if not check.ok:
        problems.append(_("sa signature n'est pas valide (déclaration ou signature modifiée)"))
    elif (casino := _casino_certificate()) is not None and check.certificate != casino:
        problems.append(_("elle n'est pas signée par le certificat du casino (%(s)s)") % {"s": check.signer})
    if seq in chain_hashes:
        if chain_hashes[seq] != signed_hash:
            problems.append(
                _(
                    "la chaîne a, à la séquence %(seq)s, l'empreinte %(now)s au lieu de l'empreinte signée %(signed)s"
                )
                % {"seq": seq, "now": chain_hashes[seq], "signed": signed_hash}
            )
    elif not broken and seq > verified_to:
        problems.append(
            _(
                "elle couvre la séquence %(seq)s mais la chaîne s'arrête à %(end)s (des événements ont disparu)"
            )
            % {"seq": seq, "end": verified_to}
        )
    return CheckedCheckpoint(label, seq, problems)


@dataclass
class WitnessedCheckpoint:
    name: str
    number: int
    seq: int
    statement: str
    signature: bytes
    time: str


class CheckContext:
    """What verification checks the chain against: the stored checkpoints and the witness."""

    def __init__(self) -> None:
        self.witness = get_witness()
        self.witnessed: list[WitnessedCheckpoint] = []
        self.unreadable: list[str] = []
        if self.witness is not None:
            for name in self.witness.names():
                try:
                    data = json.loads(self.witness.read(name))
                    text = str(data["statement"])
                    signed = json.loads(text)
                    self.witnessed.append(
                        WitnessedCheckpoint(
                            name=name,
                            number=int(data["number"]),
                            seq=int(signed["seq"]),
                            statement=text,
                            signature=base64.b64decode(data["signature"]),
                            time=str(signed.get("time", "")),
                        )
                    )
                except (OSError, ValueError, KeyError, TypeError):
                    self.unreadable.append(name)

    @property
    def seqs(self) -> set[int]:
        return wanted_seqs() | {w.seq for w in self.witnessed}

    def check(self, chain_hashes: dict[int, str], *, verified_to: int, broken: bool) -> tuple[int, list[str]]:
        count, problems = check_all(chain_hashes, verified_to=verified_to, broken=broken)
        problems.extend(self.check_witness(chain_hashes, verified_to=verified_to, broken=broken))
        return count, problems

    def check_tree(self, tree: TreeBuilder) -> list[str]:
        """Every signed tree head (stored and witnessed) and the stored subtrees against the events."""
        problems = []
        heads = [(describe(c), c.seq, c.root_hash) for c in Checkpoint.objects.exclude(root_hash="")]
        for w in self.witnessed:
            root = _statement_data(w.statement).get("root")
            if root:
                heads.append(
                    (
                        _("point de contrôle témoin n° %(n)s (séquence %(seq)s, signé le %(at)s, %(name)s)")
                        % {"n": w.number, "seq": w.seq, "at": w.time, "name": w.name},
                        w.seq,
                        root,
                    )
                )
        for label, seq, root in heads:
            found = tree.roots.get(seq)
            if found is not None and found.hex() != root:
                problems.append(
                    _("%(cp)s : l'arbre de Merkle des événements a la racine %(now)s au lieu de %(signed)s")
                    % {"cp": label, "now": found.hex(), "signed": root}
                )
        computed = {(level, index): digest.hex() for level, index, digest in tree.nodes}
        for level, index, digest in MerkleNode.objects.values_list("level", "index", "hash").iterator():
            if computed.get((level, index)) != digest:
                problems.append(
                    _("le nœud %(level)s/%(index)s de l'arbre de Merkle ne correspond pas aux événements")
                    % {"level": level, "index": index}
                )
        return problems

    def check_witness(self, chain_hashes: dict[int, str], *, verified_to: int, broken: bool) -> list[str]:
        """The database and the chain against every witnessed checkpoint."""
        if self.witness is None:
            return []
        problems = [
            _("le témoin %(w)s : le fichier %(name)s est illisible") % {"w": self.witness, "name": name}
            for name in self.unreadable
        ]
        stored = {c.number: c for c in Checkpoint.objects.all()}
        for w in self.witnessed:
            label = _("point de contrôle témoin n° %(n)s (séquence %(seq)s, signé le %(at)s, %(name)s)") % {
                "n": w.number,
                "seq": w.seq,
                "at": w.time,
                "name": w.name,
            }
            checked = check_statement(
                label=label,
                text=w.statement,
                signature=w.signature,
                chain_hashes=chain_hashes,
                verified_to=verified_to,
                broken=broken,
            )
            mine = stored.get(w.number)
            if mine is None:
                checked.problems.append(
                    _("la base de données ne le contient plus (points de contrôle supprimés)")
                )
            elif mine.statement != w.statement or bytes(mine.signature) != w.signature:
                checked.problems.append(
                    _("le point de contrôle n° %(n)s de la base de données n'est plus celui-ci")
                    % {"n": w.number}
                )
            problems.extend(f"{checked.label} : {p}" for p in checked.problems)
        held = {w.number for w in self.witnessed}
        top = max(held, default=0)
        for number in sorted(stored):
            if number < top and number not in held:
                problems.append(_("%(cp)s : le témoin ne le contient pas") % {"cp": describe(stored[number])})
        return problems


def check_all(chain_hashes: dict[int, str], *, verified_to: int, broken: bool) -> tuple[int, list[str]]:
    """Every stored checkpoint against the chain: (how many, the problems, each naming its checkpoint)."""
    problems: list[str] = []
    count = 0
    expected_number, prev = 1, GENESIS
    for checkpoint in Checkpoint.objects.order_by("number").iterator():
        count += 1
        checked = check_statement(
            label=describe(checkpoint),
            text=checkpoint.statement,
            signature=bytes(checkpoint.signature),
            chain_hashes=chain_hashes,
            verified_to=verified_to,
            broken=broken,
        )
        signed = _statement_data(checkpoint.statement)
        if checkpoint.seq != checked.seq or checkpoint.head_hash != signed.get("hash"):
            checked.problems.append(_("ses colonnes ne sont plus celles de sa déclaration signée"))
        if (
            checkpoint.number != expected_number
            or checkpoint.prev_hash != prev
            or ("number" in signed and (signed["number"] != checkpoint.number or signed.get("prev") != prev))
        ):
            checked.problems.append(
                _("il ne suit pas le point de contrôle n° %(n)s (numérotation ou chaînage rompus)")
                % {"n": expected_number - 1}
            )
        expected_number = checkpoint.number + 1
        prev = hashlib.sha256(checkpoint.statement.encode("utf-8")).hexdigest()
        problems.extend(f"{checked.label} : {p}" for p in checked.problems)
    return count, problems


def _statement_data(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def wanted_seqs() -> set[int]:
    """The sequences whose chain hash verification must keep (those of stored checkpoints)."""
    seqs = set()
    for text in Checkpoint.objects.values_list("statement", flat=True):
        try:
            seqs.add(int(json.loads(text)["seq"]))
        except (ValueError, KeyError, TypeError):
            continue
    seqs.update(Checkpoint.objects.values_list("seq", flat=True))
    return seqs


# --- Export -----------------------------------------------------------------------


def export(*, since_seq: int = 0) -> bytes:
    """The checkpoints as one signed file (CMS signed data with its content, DER).

    ``openssl cms -verify -inform DER -in FILE -CAfile ca.pem`` prints its JSON.
    """
    checkpoints = [
        {
            "seq": c.seq,
            "hash": c.head_hash,
            "time": format_time(c.made_at),
            "statement": c.statement,
            "signature": base64.b64encode(bytes(c.signature)).decode(),
        }
        for c in Checkpoint.objects.filter(seq__gt=since_seq).order_by("seq")
    ]
    document = canonical_json(
        {
            "type": EXPORT_TYPE,
            "casino": _casino_name(),
            "exported_at": format_time(timezone.now()),
            "checkpoints": checkpoints,
        }
    )
    return signing.sign_data(document.encode("utf-8"), detached=False)


def read_export(data: bytes) -> dict[str, Any]:
    """An export's content, after checking its signature (RegulationError if it does not hold)."""
    check = signing.verify_data(data)
    if not check.ok or check.content is None:
        raise RegulationError(
            "CHECKPOINT_EXPORT_INVALID",
            _("Le fichier de points de contrôle n'est pas intact : sa signature ne se vérifie pas."),
            "FR art. 68",
            field="against",
        )
    document = json.loads(check.content.decode("utf-8"))
    if document.get("type") != EXPORT_TYPE:
        raise RegulationError(
            "CHECKPOINT_EXPORT_INVALID",
            _("Ce fichier n'est pas un export de points de contrôle."),
            "FR art. 68",
            field="against",
        )
    document["signer"] = check.signer
    document["certificate"] = check.certificate
    return document


def check_export(data: bytes) -> tuple[int, list[str]]:
    """The chain against an officer's exported checkpoints: (how many, problems)."""
    document = read_export(data)
    entries = document["checkpoints"]
    seqs = {int(e["seq"]) for e in entries}
    result = verify_chain(keep_hashes_at=seqs)
    problems = []
    casino = _casino_certificate()
    if casino is not None and document["certificate"] != casino:
        problems.append(
            _("l'export n'est pas signé par le certificat du casino (%(s)s)") % {"s": document["signer"]}
        )
    for entry in entries:
        checked = check_statement(
            label=_("point de contrôle exporté (séquence %(seq)s, signé le %(at)s)")
            % {"seq": entry["seq"], "at": entry["time"]},
            text=entry["statement"],
            signature=base64.b64decode(entry["signature"]),
            chain_hashes=result.hashes_at,
            verified_to=result.head_seq,
            broken=not result.chain_ok,
        )
        problems.extend(f"{checked.label} : {p}" for p in checked.problems)
    if not result.chain_ok:
        problems.insert(0, result.describe())
    return len(entries), problems
