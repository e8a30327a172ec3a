"""The signature checker: is this PDF a register the casino signed and issued?

Three answers, each shown to the officer:

1. the PDF signature (pyHanko): intact (the signed bytes are unchanged), valid
   (the signature matches the signer's key), trusted (the signer's certificate
   chains to the casino's certificate authority, or is the casino's own), and whether anything was
   added after signing;
2. who signed it, and when the signature says it was made;
3. whether the file's SHA-256 is one the system issued (a Report row) — and
   for which register and period;
4. the tlog proof of its issuing event the PDF embeds (:mod:`inspection.registers.issuing`),
   checked as the officers' offline verifier checks it (``verifier.py pdf FILE --policy``)
   under the casino's witness policy: which event of which log issued it, cosigned by how
   many of the policy's witnesses;
5. for an issued register, each officer's act (visa, stamp, closure, demand) the chain records
   for that register's book within its period, checked as ``verify_audit`` checks it
   (:func:`audit.officer_acts.check_officer_acts`): his passkey signature over exactly this act,
   under an enrolment the authority signed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from asn1crypto import x509
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import signing
from audit.actions import Action
from audit.models import AuditEvent
from audit.officer_acts import check_officer_acts
from casino_ops import officers
from casino_ops.passkeys import short_fingerprint
from inspection import verifier  # the officers' standalone file, its checks the same
from inspection.models import Report
from inspection.registers.printed import recorded

logger = logging.getLogger(__name__)

#: The officers' acts each register prints (its book's visas, stamps, closures, demands).
REGISTER_ACTS: dict[str, tuple[str, ...]] = {
    "order-book": (Action.DEPOT_ORDER_STAMPED,),
    "receipt-book": (Action.DEPOT_RECEPTION_STAMPED, Action.DEPOT_DESTRUCTION_STAMPED),
    "destructions": (Action.DEPOT_DESTRUCTION_STAMPED,),
    "incidents": (Action.DEPOT_INCIDENT_CLOSED,),
    "depot-log": (Action.DEPOT_OPENING_DEMANDED,),
    "control-register": (Action.CONTROL_REGISTER_DAY_STAMPED,),
    "authorised-minimums": (Action.AUTHORISED_MINIMUM_STAMPED,),
    "closing": (Action.HOUSE_CLOSING_STAMPED,),
}


@dataclass
class SignatureCheck:
    field_name: str
    intact: bool = False
    valid: bool = False
    trusted: bool = False
    covers_whole_file: bool = False
    signer: str = ""
    signed_at: Any = None
    is_casino_certificate: bool = False
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.intact and self.valid and self.trusted and self.covers_whole_file


@dataclass
class OfficerActCheck:
    """One officer's act a register covers, and whether it is his own (``problem`` empty)."""

    seq: int
    action: str
    officer: str
    at: Any
    fingerprint: str = ""
    problem: str = ""

    @property
    def ok(self) -> bool:
        return not self.problem


@dataclass
class ProofCheck:
    """The tlog proof of its issuing event a PDF embeds, checked under the casino's policy."""

    found: bool = False
    event: int | None = None
    origin: str = ""
    cosigned: int = 0
    witnesses: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.found and self.event is not None and not self.problems


@dataclass
class CheckResult:
    sha256: str
    size: int
    readable: bool = True
    error: str = ""
    signatures: list[SignatureCheck] = field(default_factory=list)
    reports: list[Report] = field(default_factory=list)
    officer_acts: list[OfficerActCheck] = field(default_factory=list)
    proof: ProofCheck = field(default_factory=ProofCheck)

    @property
    def signed_ok(self) -> bool:
        return bool(self.signatures) and all(s.ok for s in self.signatures)

    @property
    def issued(self) -> bool:
        return bool(self.reports)


def casino_trust() -> tuple[list[x509.Certificate], bytes | None]:
    """The casino's CA certificates (from its PKCS#12) and its signing certificate."""
    if not signing.is_configured():
        return [], None
    signer = signing.get_signer()
    roots = [cert for cert in signer.cert_registry if cert.ca and cert.self_signed in ("maybe", "yes")]
    return roots, signing.signer_certificate_der()


def check_pdf(data: bytes) -> CheckResult:
    digest = hashlib.sha256(data).hexdigest()
    result = CheckResult(sha256=digest, size=len(data))
    # issued by the casino: a print the chain records with this SHA-256, not a row alone
    result.reports = recorded(
        Report.objects.filter(sha256=digest)
        .select_related("parent", "requested_by")
        .order_by("requested_at"),
        digest,
    )
    result.officer_acts = officer_acts_of(result.reports)
    result.proof = embedded_proof(data)
    # pyHanko's validation is imported when a file is checked, not by every process that loads
    # the portal's URLs (a third of a second of each start-up)
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import async_validate_pdf_signature
    from pyhanko.sign.validation.errors import SignatureValidationError
    from pyhanko_certvalidator import ValidationContext

    try:
        reader = PdfFileReader(io.BytesIO(data), strict=False)
        embedded = list(reader.embedded_signatures)
    except Exception as error:  # noqa: BLE001 - any unreadable upload is "not a PDF we can read"
        result.readable = False
        result.error = f"Fichier illisible comme PDF : {error}"
        return result
    roots, casino_cert = casino_trust()
    for sig in embedded:
        check = SignatureCheck(field_name=sig.field_name)
        try:
            context = ValidationContext(trust_roots=roots, allow_fetching=False)
            status = asyncio.run(async_validate_pdf_signature(sig, signer_validation_context=context))
        except (SignatureValidationError, ValueError, KeyError) as error:
            check.error = str(error)
            result.signatures.append(check)
            continue
        check.intact = bool(status.intact)
        check.valid = bool(status.valid)
        check.covers_whole_file = status.coverage is not None and status.coverage.name == "ENTIRE_FILE"
        if status.signing_cert is not None:
            check.signer = status.signing_cert.subject.human_friendly
            check.is_casino_certificate = (
                casino_cert is not None and status.signing_cert.dump() == casino_cert
            )
        # The casino's own signing certificate is trusted as such (pyHanko reads no chain once
        # a changed byte breaks the signature): the certificate is then never "not recognised"
        # beside "the casino's certificate"; the verdict falls on the content and the key.
        check.trusted = bool(status.trusted) or check.is_casino_certificate
        check.signed_at = (
            status.timestamp_validity.timestamp
            if status.timestamp_validity is not None
            else status.signer_reported_dt
        )
        result.signatures.append(check)
    return result


def officer_acts_of(reports: list[Report]) -> list[OfficerActCheck]:
    """The officers' acts of these registers' books, recorded within their periods (local days),
    each with the verdict of :func:`audit.officer_acts.check_officer_acts`."""
    wanted = [(REGISTER_ACTS.get(r.register, ()), r.date_from, r.date_to) for r in reports]
    actions = {action for acts, _, _ in wanted for action in acts}
    if not actions:
        return []
    events = (
        AuditEvent.objects.filter(action__in=actions, seq__isnull=False)
        .order_by("seq")
        .values_list("seq", "action", "actor_name", "recorded_at", "payload")
    )
    chosen = []
    for seq, action, actor_name, recorded_at, payload in events:
        day = timezone.localdate(recorded_at)
        if any(action in acts and start <= day <= end for acts, start, end in wanted):
            chosen.append((int(seq or 0), action, actor_name, recorded_at, payload))
    if not chosen:
        return []
    verdicts = check_officer_acts().verdicts
    found = []
    for seq, action, actor_name, recorded_at, payload in chosen:
        signature = json.loads(payload).get(officers.SIGNATURE_KEY)
        assertion = signature.get("assertion") if isinstance(signature, dict) else None
        problem = verdicts.get(seq, "not checked")
        found.append(
            OfficerActCheck(
                seq=seq,
                action=action,
                officer=actor_name,
                at=recorded_at,
                fingerprint=short_fingerprint(assertion) if problem is None and assertion else "",
                problem=problem or "",
            )
        )
    return found


def embedded_proof(data: bytes) -> ProofCheck:
    """The issuing event's proof the PDF embeds, checked by the officers' verifier under the
    casino's witness policy (``AUDIT_WITNESS_POLICY``)."""
    check = ProofCheck(
        found=any(s.startswith(verifier.TLOG_PROOF.encode()) for s in verifier.pdf_streams(data))
    )
    if not check.found:
        return check
    policy = str(getattr(settings, "AUDIT_WITNESS_POLICY", "") or "")
    if not policy:
        logger.warning(
            "the PDF checker has no witness policy (AUDIT_WITNESS_POLICY is empty): proof not checked"
        )
        check.problems.append(
            _(
                "aucune politique de témoins n'est configurée sur ce serveur : la preuve n'est pas vérifiée ici"
            )
        )
        return check
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            said = verifier.check_register_pdf(data, "PDF", policy, check.problems)
    except verifier.Unusable as error:
        check.problems.append(str(error))
        return check
    if said is not None:
        check.event, check.origin = said["event"], said["origin"]
        check.cosigned, check.witnesses = said["cosigned"], said["witnesses"]
    return check
