"""A register's issuing event, and the C2SP tlog proof of it the signed PDF carries.

A print records two events. The ``register.printed`` event (:mod:`.printed`) records the
signed file's SHA-256, so it can only come after the file. The ``register.issued`` event comes
before the pages are laid out: it records the register, its period, its table, who asked and
the digest of the content its pages show (:func:`content_digest`: the SHA-256 of the printed
parts' content hashes, each the SHA-256 of a period's header, rows and totals, as
:func:`inspection.registers.render.content_hash` computes it). It is sealed at once; the print
then obtains a checkpoint covering it that the authority's witnesses cosigned as the casino's
policy requires (``AUDIT_WITNESS_POLICY``: pushed to them now, each request waiting
``REGISTER_PROOF_WAIT`` seconds at most), and the PDF embeds the event's tlog proof (its bytes,
index, inclusion path and the cosigned checkpoint, :func:`audit.tlog_proofs.tlog_proof`) as the
attached file :data:`ATTACHMENT`, before the signature, which covers it. Its pages' footer names
the event, the register and the content digest, so that the officers' verifier
(``verifier.py pdf REGISTER.pdf --policy POLICY``) checks, offline and against the authority's
keys alone, that this register is the one that event issued.

When the witnesses do not cosign in time the print waits (:class:`ProofPending`: the task is
tried again later) rather than issue a register without its proof. A casino with no witness
policy embeds the proof under its own checkpoint (the verifier then says the policy is not
met); one with no note key (the quick start) prints without a proof.

A print never fails because the books are forged: the officer needs the registers most exactly
then. When the checkpoint is refused because a book differs from what the chain sealed
(``AUDIT_BOOKS_FORGED``, whose alarm :func:`audit.checkpoints.make_checkpoint` seals), no
checkpoint is signed over the forged rows and the register is printed without a proof: its footer
says so in words and names the alarm (:func:`footer_line`); the verifier answers "no proof".
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

import audit
from audit import notes as casino_notes
from audit import signing, witnesses
from audit.actions import Action
from audit.chain import seal_pending
from audit.checkpoints import make_checkpoint
from audit.checkpoints.make import REFUSED_OBJECT
from audit.models import AuditEvent, Checkpoint
from audit.tlog_proofs import best_note, tlog_proof
from casino_ops.refusals import Refusal
from casino_ops.regulations import RegulationError
from inspection.models import Report, report_types

#: The name of the proof attached to the PDF.
ATTACHMENT = "registre.tlog-proof"


class ProofPending(Exception):
    """No checkpoint covering the issuing event is cosigned as the policy requires yet."""


@dataclass(frozen=True)
class Issuance:
    seq: int
    digest: str
    register: str
    table: int | None
    proof: str | None  # the tlog proof's text; None when the casino has no note key
    #: the books differ from what the chain sealed: the checkpoint is refused, no proof
    forged: bool = False
    forged_alarm: int | None = None  # the seq of that refusal's alarm


class BooksForged(Exception):
    """The checkpoint is refused (``AUDIT_BOOKS_FORGED``): the books differ from the chain."""

    def __init__(self, alarm: int | None) -> None:
        super().__init__(alarm)
        self.alarm = alarm


def _last_alarm() -> int | None:
    """The seq of the last sealed alarm of a refused checkpoint."""
    return (
        AuditEvent.objects.filter(action=Action.CHECKPOINT_REFUSED, object_type=REFUSED_OBJECT)
        .exclude(seq=None)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )


def content_digest(content_hashes: Sequence[str]) -> str:
    """The digest of a print's content: SHA-256 of its parts' content hashes, one a line."""
    return hashlib.sha256("\n".join(content_hashes).encode("ascii")).hexdigest()


def _payload(report: Report, digest: str, parts: int) -> dict[str, Any]:
    return {
        "register": report.register,
        "date_from": report.date_from.isoformat(),
        "date_to": report.date_to.isoformat(),
        "table_number": report.table_number,
        "requested_by": report.requested_by_id,
        "content_sha256": digest,
        "parts": parts,
    }


def _recorded(report: Report, digest: str) -> tuple[bool, int | None]:
    """Whether this report's issuing event with this digest is recorded, and its seq if sealed."""
    events = AuditEvent.objects.filter(
        action=Action.REGISTER_ISSUED, object_type__in=report_types(), object_id=str(report.pk)
    ).order_by("-id")
    for seq, payload in events.values_list("seq", "payload"):
        if json.loads(payload).get("content_sha256") == digest:
            return True, seq
    return False, None


def issuing_event(report: Report, content_hashes: Sequence[str]) -> tuple[int, str]:
    """The seq of the report's issuing event (recorded and sealed once: a print tried again
    finds it), and the content digest it records."""
    digest = content_digest(content_hashes)
    found, seq = _recorded(report, digest)
    if not found:
        with transaction.atomic():
            audit.record(
                actor=report.requested_by,
                action=Action.REGISTER_ISSUED,
                obj=report,
                payload=_payload(report, digest, len(content_hashes)),
            )
    if seq is None:
        seal_pending()  # sealer mode: sealed now rather than at the sealer's next pass
        found, seq = _recorded(report, digest)
    if seq is None:
        raise RuntimeError(f"the issuing event of report {report.pk} could not be sealed")
    return seq, digest


def proof_of(seq: int) -> str | None:
    """The tlog proof of event ``seq`` under a checkpoint the policy's quorum cosigned.

    Makes the checkpoint and its note when none covers the event yet, and pushes to the
    witnesses (each request waiting ``REGISTER_PROOF_WAIT`` seconds at most) unless a note
    covering it is cosigned already. ProofPending when the quorum is still not met. Without a
    witness policy, the proof under the casino's own checkpoint; without a note key, None.
    :class:`BooksForged` when the checkpoint is refused because the books differ from the chain.
    """
    if casino_notes.signer() is None or not signing.is_configured():
        return None
    if not Checkpoint.objects.filter(seq__gte=seq).exists():
        try:
            make_checkpoint()
        except RegulationError as refused:
            if refused.code != Refusal.AUDIT_BOOKS_FORGED.code:
                raise
            raise BooksForged(_last_alarm()) from refused
    casino_notes.make_notes()
    found = witnesses.policy()
    if found is not None:
        note = best_note(seq)
        if note is None or not witnesses.cosigned_by(note, found)[1]:
            outcomes = witnesses.push_all(timeout=float(getattr(settings, "REGISTER_PROOF_WAIT", 5.0)))
            note = best_note(seq)
            if note is None or not witnesses.cosigned_by(note, found)[1]:
                why = "; ".join(
                    f"{o.witness}: {o.failing or o.refused}" for o in outcomes if o.failing or o.refused
                )
                raise ProofPending(
                    _(
                        "En attente des cosignatures des témoins de l'autorité (%(quorum)s) sur un point "
                        "de contrôle couvrant l'événement n° %(seq)s : le registre sera imprimé dès qu'elles "
                        "seront obtenues. %(why)s"
                    )
                    % {"quorum": found.describe(), "seq": seq, "why": why}
                )
    return tlog_proof(seq)


def issue(report: Report, content_hashes: Sequence[str]) -> Issuance:
    """Seal the report's issuing event and obtain its proof (ProofPending: not yet); with forged
    books, the issuance without a proof that names the alarm."""
    seq, digest = issuing_event(report, content_hashes)
    try:
        proof = proof_of(seq)
    except BooksForged as forged:
        return Issuance(
            seq, digest, report.register, report.table_number, None, forged=True, forged_alarm=forged.alarm
        )
    return Issuance(seq, digest, report.register, report.table_number, proof)


def footer_line(issuance: Issuance) -> str:
    """The footer's line naming the issuing event (what the offline verifier reads back)."""
    table = f", table {issuance.table}" if issuance.table is not None else ""
    return _(
        "Émis par l'événement n° %(seq)s du journal (registre %(register)s%(table)s) — empreinte du contenu %(digest)s"
    ) % {"seq": issuance.seq, "register": issuance.register, "table": table, "digest": issuance.digest}


def unproven_line(issuance: Issuance) -> str | None:
    """The footer's line saying, in words, why a register is printed without its proof of issue
    (the books differ from what the chain sealed); None when nothing is to be said."""
    if issuance.proof is not None or not issuance.forged:
        return None
    if issuance.forged_alarm is None:
        return _(
            "Sans preuve d'émission : les registres diffèrent de ce que la chaîne a scellé — "
            "voir les alarmes du journal / inspect_books"
        )
    return _(
        "Sans preuve d'émission : les registres diffèrent de ce que la chaîne a scellé — "
        "voir l'alarme n° %(alarm)s du journal / inspect_books"
    ) % {"alarm": issuance.forged_alarm}
