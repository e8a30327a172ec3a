"""The checkpoints exported as one signed file, and the chain checked against one."""

from __future__ import annotations

import base64
import json
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops.refusals import Refusal
from casino_ops.services import get_casino

from .. import signing
from ..chain import canonical_json, format_time, verify_chain
from ..models import Checkpoint
from .check import _casino_certificate, check_statement
from .make import _casino_name

EXPORT_TYPE = "audit-checkpoints-export"


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
        raise Refusal.CHECKPOINT_EXPORT_INVALID.error(
            get_casino().profile,
            message=_("Le fichier de points de contrôle n'est pas intact : sa signature ne se vérifie pas."),
        )
    document = json.loads(check.content.decode("utf-8"))
    if not isinstance(document, dict) or document.get("type") != EXPORT_TYPE:
        raise Refusal.CHECKPOINT_EXPORT_INVALID.error(get_casino().profile)
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
