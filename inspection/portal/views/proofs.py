"""The proofs page of the portal: an officer downloads a signed checkpoint, the inclusion
proof of an event, a consistency proof, and the offline verifier that checks them."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from asn1crypto import pem
from django import forms
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from audit import signing
from audit.checkpoints import checkpoint_file
from audit.models import Checkpoint, CheckpointNote
from audit.proofs import consistency_proof, inclusion_proof
from audit.tlog_proofs import tlog_proof
from audit.witnesses import cosigned_by, policy
from casino_ops.forms import SafeForm
from casino_ops.regulations import RegulationError

from .. import access

VERIFIER = Path(__file__).resolve().parents[2] / "verifier.py"
_MAX = 2**62


class InclusionForm(SafeForm):
    seq = forms.IntegerField(label=_("Événement n°"), min_value=1, max_value=_MAX)
    checkpoint = forms.IntegerField(
        label=_("Point de contrôle n° (le dernier si vide)"), min_value=1, max_value=_MAX, required=False
    )


class TlogProofForm(SafeForm):
    seq = forms.IntegerField(label=_("Événement n°"), min_value=1, max_value=_MAX)


class ConsistencyForm(SafeForm):
    first = forms.IntegerField(label=_("Du point de contrôle n°"), min_value=1, max_value=_MAX)
    second = forms.IntegerField(
        label=_("Au point de contrôle n° (le dernier si vide)"), min_value=1, max_value=_MAX, required=False
    )


def _attachment(data: dict[str, Any], name: str) -> HttpResponse:
    response = HttpResponse(
        json.dumps(data, indent=2, ensure_ascii=False) + "\n", content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@access.officer_required()
def proofs(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("proof")
    inclusion = InclusionForm(request.GET if kind == "inclusion" else None, prefix="i")
    consistency = ConsistencyForm(request.GET if kind == "consistency" else None, prefix="c")
    tlog = TlogProofForm(request.GET if kind == "tlog" else None, prefix="t")
    error = None
    try:
        if kind == "tlog" and tlog.is_valid():
            seq = tlog.cleaned_data["seq"]
            response = HttpResponse(tlog_proof(seq), content_type="text/plain; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="event-{seq}.tlog-proof"'
            return response
        if kind == "inclusion" and inclusion.is_valid():
            q = inclusion.cleaned_data
            return _attachment(inclusion_proof(q["seq"], q["checkpoint"]), f"inclusion-{q['seq']}.json")
        if kind == "consistency" and consistency.is_valid():
            q = consistency.cleaned_data
            proof = consistency_proof(q["first"], q["second"])
            return _attachment(proof, f"consistency-{proof['first_size']}-{proof['second_size']}.json")
    except RegulationError as refusal:
        error = refusal
    status = 400 if kind in {"inclusion", "consistency", "tlog"} else 200
    return render(
        request,
        "portal/proofs.html",
        {
            "inclusion": inclusion,
            "consistency": consistency,
            "error": error,
            "tlog": tlog,
            "checkpoints": _with_cosignatures(list(Checkpoint.objects.order_by("-number")[:20])),
            "ca_available": bool(_authority_pem()),
        },
        status=status,
    )


def _with_cosignatures(checkpoints: list[Checkpoint]) -> list[Checkpoint]:
    """Each checkpoint with the witnesses that cosigned its note (``cosigned``: name and time)
    and whether the policy's quorum is met (``quorum``: None without a policy or a note)."""
    found = policy()
    notes = {
        n.checkpoint_id: n
        for n in CheckpointNote.objects.filter(checkpoint__in=checkpoints).prefetch_related("cosignatures")
    }
    for checkpoint in checkpoints:
        note = notes.get(checkpoint.pk)
        checkpoint.cosigned = []  # type: ignore[attr-defined]
        checkpoint.quorum = None  # type: ignore[attr-defined]
        if note is not None and found is not None:
            names, checkpoint.quorum = cosigned_by(note, found)  # type: ignore[attr-defined]
            checkpoint.cosigned = [  # type: ignore[attr-defined]
                (c.witness, dt.datetime.fromtimestamp(c.timestamp, dt.UTC))
                for c in note.cosignatures.all()
                if c.witness in names
            ]
    return checkpoints


@access.officer_required()
def checkpoint_download(request: HttpRequest, number: int) -> HttpResponse:
    checkpoint = Checkpoint.objects.filter(number=number).first()
    if checkpoint is None:
        raise Http404
    return _attachment(json.loads(checkpoint_file(checkpoint)), f"checkpoint-{number}.json")


@access.officer_required()
def verifier_download(request: HttpRequest) -> FileResponse:
    return FileResponse(
        VERIFIER.open("rb"), as_attachment=True, filename="verifier.py", content_type="text/x-python"
    )


def _authority_pem() -> bytes:
    """The certificates of the authority that issued the casino's signing certificate, as PEM
    (from the casino's PKCS#12); empty when signing is not configured."""
    try:
        signer = signing.get_signer()
    except signing.SigningNotConfigured:
        return b""
    return b"".join(pem.armor("CERTIFICATE", cert.dump()) for cert in signer.cert_registry if cert.ca)


@access.officer_required()
def ca_download(request: HttpRequest) -> HttpResponse:
    """``ca.pem``, the trust anchor the verifier, pdfsig and pyHanko check signatures against."""
    data = _authority_pem()
    if not data:
        raise Http404
    response = HttpResponse(data, content_type="application/x-pem-file")
    response["Content-Disposition"] = 'attachment; filename="ca.pem"'
    return response
