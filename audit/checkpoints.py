"""Signed checkpoints of the audit record: trust kept outside the database.

A checkpoint is a small statement, signed with the casino's key (CMS, detached):
``{"casino", "hash", "seq", "time", "type"}`` in canonical JSON. Beat makes one
regularly (``audit.tasks.make_checkpoint``) and ``manage.py audit_checkpoint``
on demand. Whoever rewrites the chain and recomputes every hash after a
checkpoint cannot make the chain's hash at that sequence equal the signed one
again: ``verify_audit`` reports it, naming the checkpoint. An export (an
attached CMS file holding the checkpoints) is kept by officers outside the
casino; ``verify_audit --against FILE`` checks the chain against it.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops.regulations import RegulationError

from . import signing
from .chain import canonical_json, format_time, head, seal_pending, verify_chain
from .models import Checkpoint

STATEMENT_TYPE = "audit-checkpoint"
EXPORT_TYPE = "audit-checkpoints-export"


def _casino_name() -> str:
    from casino_ops.models import CasinoSettings

    return CasinoSettings.objects.values_list("name", flat=True).first() or ""


def statement(*, seq: int, head_hash: str, made_at: dt.datetime, casino: str) -> str:
    return canonical_json(
        {
            "casino": casino,
            "hash": head_hash,
            "seq": seq,
            "time": format_time(made_at),
            "type": STATEMENT_TYPE,
        }
    )


def make_checkpoint() -> Checkpoint | None:
    """Sign the chain's current head; None when the record is empty.

    The chain is verified first: the casino never signs a head it cannot
    vouch for. A head already signed keeps its checkpoint.
    """
    signing.get_signer()
    seal_pending()
    seq, digest = head()
    if seq == 0:
        return None
    existing = Checkpoint.objects.filter(seq=seq).first()
    if existing is not None:
        return existing
    result = verify_chain()
    if not result.ok:
        raise RegulationError(
            "AUDIT_CHAIN_BROKEN",
            _("La chaîne d'audit ne se vérifie pas (%(reason)s) : aucun point de contrôle n'est signé.")
            % {"reason": result.describe()},
            "FR art. 68",
        )
    if result.head_seq != seq:  # sealed meanwhile: sign what was verified
        seq, digest = result.head_seq, result.head_hash
    made_at = timezone.now()
    text = statement(seq=seq, head_hash=digest, made_at=made_at, casino=_casino_name())
    signature = signing.sign_data(text.encode("utf-8"), detached=True)
    try:
        with transaction.atomic():
            return Checkpoint.objects.create(
                seq=seq,
                head_hash=digest,
                made_at=made_at,
                statement=text,
                signature=signature,
                signer=signing.signer_subject(),
            )
    except IntegrityError:  # made at the same moment by another process
        return Checkpoint.objects.get(seq=seq)


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
        "id": checkpoint.pk,
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


def check_all(chain_hashes: dict[int, str], *, verified_to: int, broken: bool) -> tuple[int, list[str]]:
    """Every stored checkpoint against the chain: (how many, the problems, each naming its checkpoint)."""
    problems: list[str] = []
    count = 0
    for checkpoint in Checkpoint.objects.order_by("seq").iterator():
        count += 1
        checked = check_statement(
            label=describe(checkpoint),
            text=checkpoint.statement,
            signature=bytes(checkpoint.signature),
            chain_hashes=chain_hashes,
            verified_to=verified_to,
            broken=broken,
        )
        if checkpoint.seq != checked.seq or checkpoint.head_hash != json.loads(checkpoint.statement).get(
            "hash"
        ):
            checked.problems.append(_("ses colonnes ne sont plus celles de sa déclaration signée"))
        problems.extend(f"{checked.label} : {p}" for p in checked.problems)
    return count, problems


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
