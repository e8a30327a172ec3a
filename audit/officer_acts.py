"""``verify_audit``'s check of the officers' acts: every visa, stamp, closure or demand the chain
holds is the officer's own.

Each such event must carry the officer's passkey signature (``payload["officer_signature"]``)
over a statement of exactly this act (its code, its entry, the officer's inputs), made under an
enrolment the authority signed, in force when he signed, and verified with the key it names
(:func:`casino_ops.officers.signature_problem`). The casino's keys make a valid MAC and a
valid chain, never this signature: an event written by the database's superuser, or rewritten
to name another entry, is named as a forged visa; a signature copied onto a second act is
named as replayed. The enrolments are read from the chain (``officer.enrolled`` events) and
from their table, so that removing an enrolment does not hide a visa.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from casino_ops import authority, officers
from casino_ops.models import OfficerEnrolment
from casino_ops.passkeys import short_fingerprint

from .actions import Action
from .books.check import event_name
from .models import AuditEvent


@dataclass
class OfficerActs:
    checked: int = 0
    problems: list[str] = field(default_factory=list)
    # (seq, officer's name, short fingerprint of the signature) of each act found good
    verified: list[tuple[int, str, str]] = field(default_factory=list)
    # seq -> the problem of that act (None when it holds), for a page naming some acts only
    verdicts: dict[int, str | None] = field(default_factory=dict)


def _enrolments(using: str) -> dict[str, tuple[str, str]]:
    """serial -> (enrolment document, revocation document), from the table and the chain."""
    found: dict[str, tuple[str, str]] = {}
    for row in OfficerEnrolment.objects.using(using).values_list("serial", "document", "revocation"):
        found[row[0]] = (row[1], row[2])
    events = AuditEvent.objects.using(using).filter(
        action__in=[Action.OFFICER_ENROLLED, Action.OFFICER_REVOKED], seq__isnull=False
    )
    for action, payload in events.order_by("seq").values_list("action", "payload"):
        document = json.loads(payload).get("document")
        if not isinstance(document, dict):
            continue
        serial = str(document.get("serial"))
        text = json.dumps(document, sort_keys=True, ensure_ascii=False)
        enrolment, revocation = found.get(serial, ("", ""))
        if action == Action.OFFICER_ENROLLED:
            found[serial] = (enrolment or text, revocation)
        else:
            found[serial] = (enrolment, revocation or text)
    return found


def check_officer_acts(using: str = "default") -> OfficerActs:
    """Every sealed event of an officer's act, its signature checked (see the module)."""
    outcome = OfficerActs()
    certificate = authority.configured_certificate()
    enrolments = _enrolments(using)
    seen: dict[str, int] = {}
    events = (
        AuditEvent.objects.using(using)
        .filter(action__in=list(officers.SIGNED_ACTS), seq__isnull=False)
        .order_by("seq")
        .values_list("seq", "action", "object_type", "object_id", "actor_name", "payload")
    )
    for sealed_seq, action, object_type, object_id, actor_name, payload_text in events.iterator():
        seq = int(sealed_seq or 0)  # sealed: never None here
        outcome.checked += 1
        payload = json.loads(payload_text)
        signature = payload.get(officers.SIGNATURE_KEY)
        target = "" if action == Action.DEPOT_OPENING_DEMANDED else f"{object_type}:{object_id}"
        statement = signature.get("statement") if isinstance(signature, dict) else None
        serial = str(statement.get("enrolment")) if isinstance(statement, dict) else ""
        enrolment, revocation = enrolments.get(serial, (None, ""))
        problem = officers.signature_problem(
            signature,
            act=action,
            target=target,
            officer=actor_name,
            payload=payload,
            enrolment_text=enrolment,
            revocation_text=revocation,
            certificate=certificate,
            casino=officers.casino_id(),
        )
        name = f"{event_name(seq)} ({action} {object_type}:{object_id}, by {actor_name})"
        if problem is not None:
            outcome.problems.append(f"{name}: forged officer's act: {problem}")
            outcome.verdicts[seq] = f"forged officer's act: {problem}"
            continue
        digest = hashlib.sha256(officers.canonical(statement or {})).hexdigest()
        if digest in seen:
            replayed = f"replayed officer's signature, already that of {event_name(seen[digest])}"
            outcome.problems.append(f"{name}: {replayed}")
            outcome.verdicts[seq] = replayed
            continue
        seen[digest] = seq
        outcome.verified.append((seq, actor_name, short_fingerprint(signature.get("assertion") or {})))
        outcome.verdicts[seq] = None
    return outcome
