"""Pushing the casino's checkpoints to the authority's witnesses (C2SP tlog-witness v1.0.0).

The policy file (``AUDIT_WITNESS_POLICY``, C2SP tlog-policy) names each witness with its
vkey and URL, and the quorum officers require. Every checkpoint note not yet cosigned by a
witness is pushed to it in order of size (``POST <url>/add-checkpoint``, the consistency
proof from the size that witness last cosigned), so that a witness down for an hour is
caught up in order; each cosignature is checked against the witness's key and stored
(:class:`audit.models.Cosignature`).

What a witness answers decides what the casino does:

- 200: the cosignature, its time the witness's own (:mod:`audit.verification` bounds the
  events' times with it);
- 409 with a size below the one it last cosigned for us: the witness lost its state (restored
  from an older backup): it is retired, not rewound, and the alarm is sealed;
- 409 with a size above every checkpoint of ours: the witness saw more of our record than we
  hold (our database restored to an older point): the alarm is sealed;
- 409 with a size we hold: we did not know it (a first push, or the answer to our push was
  lost): pushed again from that size (that very note again when its cosignature is missing);
- 422: our checkpoint is not consistent with what it cosigned (a fork): the alarm is sealed;
- no answer, or another one: the failure is kept, and once it lasts longer than
  ``AUDIT_WITNESS_ALARM_AFTER`` seconds its alarm is sealed (once per failure).
"""

from __future__ import annotations

import datetime as dt
import logging
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tlog import note as notes
from tlog import policy as policies
from tlog import witness as protocol

from . import notes as casino_notes
from . import record
from .actions import Action
from .models import CheckpointNote, Cosignature, WitnessState
from .note_timestamps import stamp_pending
from .proofs import tree

BATCH = 200  # notes pushed to one witness per run, at most
log = logging.getLogger(__name__)


def policy_error() -> str:
    """Why the configured policy cannot be used ("" when it can, or when none is configured)."""
    path = str(getattr(settings, "AUDIT_WITNESS_POLICY", "") or "")
    if not path:
        return ""
    try:
        policies.parse(Path(path).read_bytes())
    except (OSError, policies.PolicyError) as error:
        return f"AUDIT_WITNESS_POLICY {path}: {error}"
    return ""


def policy() -> policies.Policy | None:
    """The casino's witness policy, or None when none is configured or it cannot be read
    (``policy_error()`` says why; verify_audit reports it, the push logs it)."""
    path = str(getattr(settings, "AUDIT_WITNESS_POLICY", "") or "")
    if not path:
        return None
    try:
        return policies.parse(Path(path).read_bytes())
    except (OSError, policies.PolicyError) as error:
        log.error("AUDIT_WITNESS_POLICY %s: %s", path, error)
        return None


@dataclass
class Outcome:
    witness: str
    cosigned: list[int] = field(default_factory=list)  # sizes cosigned in this run
    refused: str = ""  # the alarm's reason, when one was sealed
    failing: str = ""  # why the witness could not be reached (or answered otherwise)
    retired: bool = False


def _post(url: str, body: bytes, timeout: float | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(
        url.rstrip("/") + "/add-checkpoint", data=body, method="POST", headers={"Content-Type": "text/plain"}
    )
    if timeout is None:
        timeout = float(getattr(settings, "AUDIT_WITNESS_TIMEOUT", 10.0))
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:  # the policy's URL
            return int(answer.status), bytes(answer.read())
    except urllib.error.HTTPError as error:
        return int(error.code), bytes(error.read())


def _alarm(state: WitnessState, action: Action, payload: dict[str, Any]) -> None:
    with transaction.atomic():
        record(
            actor=None, action=action, object_type="audit.witness", object_id=state.witness, payload=payload
        )


def _consistency(old: int, new: int) -> list[bytes]:
    return tree().consistency_proof(old, new) if 0 < old < new else []


def _cosigned(state: WitnessState, witness: policies.Witness, note: CheckpointNote, body: bytes) -> int:
    """Check and store a 200 answer's cosignature; its timestamp. NoteError when it is not one."""
    opened = notes.open_note(note.note + body.decode("utf-8"), [witness.verifier])
    signature = opened.signed_by(witness.verifier)
    if signature is None or signature.timestamp is None:
        raise notes.NoteError("no cosignature by the witness's key")
    with transaction.atomic():
        Cosignature.objects.get_or_create(
            note=note,
            witness=witness.name,
            defaults={"timestamp": signature.timestamp, "line": signature.line},
        )
        state.size, state.cosigned_at = note.size, timezone.now()
        state.failing_since, state.last_error, state.alarmed = None, "", False
        state.save()
    return signature.timestamp


def _failing(state: WitnessState, outcome: Outcome, why: str, now: dt.datetime) -> None:
    state.failing_since = state.failing_since or now
    state.last_error = why
    outcome.failing = why
    delay = dt.timedelta(seconds=float(getattr(settings, "AUDIT_WITNESS_ALARM_AFTER", 600.0)))
    if not state.alarmed and now - state.failing_since >= delay:
        _alarm(
            state,
            Action.WITNESS_UNREACHABLE,
            {"witness": state.witness, "since": state.failing_since.isoformat(), "error": why},
        )
        state.alarmed = True
    state.save()


def _refused(
    state: WitnessState, outcome: Outcome, reason: str, payload: dict[str, Any], *, retire: bool = False
) -> None:
    outcome.refused = reason
    state.last_error = reason
    if retire:
        state.retired_at, state.retired_reason = timezone.now(), reason
        outcome.retired = True
        _alarm(state, Action.WITNESS_RETIRED, {"witness": state.witness, "reason": reason, **payload})
    elif not state.alarmed or state.failing_since is None:
        _alarm(state, Action.WITNESS_REFUSED, {"witness": state.witness, "reason": reason, **payload})
        state.alarmed = True
    state.failing_since = state.failing_since or timezone.now()
    state.save()


def push(
    witness: policies.Witness, *, now: dt.datetime | None = None, timeout: float | None = None
) -> Outcome:
    """Push to one witness every checkpoint note it has not cosigned, in order of size (each
    request waits ``timeout`` seconds at most, ``AUDIT_WITNESS_TIMEOUT`` unless given)."""
    now = now or timezone.now()
    state, _ = WitnessState.objects.get_or_create(witness=witness.name)
    outcome = Outcome(witness.name)
    if state.retired_at is not None:
        outcome.retired = True
        return outcome
    newest = CheckpointNote.objects.order_by("-size").values_list("size", flat=True).first() or 0
    pending = list(CheckpointNote.objects.filter(size__gt=state.size).order_by("size")[:BATCH])
    again: set[int] = set()
    while pending:
        note = pending[0]
        body = protocol.AddCheckpoint(state.size, _consistency(state.size, note.size), note.note).body
        try:
            status, answer = _post(witness.url, body, timeout)
        except (OSError, ValueError) as error:
            _failing(state, outcome, f"{type(error).__name__}: {error}", now)
            return outcome
        if status == 200:
            try:
                _cosigned(state, witness, note, answer)
            except (notes.NoteError, UnicodeDecodeError) as error:
                _failing(state, outcome, f"200 without a valid cosignature: {error}", now)
                return outcome
            outcome.cosigned.append(note.size)
            pending.pop(0)
            continue
        if status == 409:
            try:
                held = protocol.parse_size(answer)
            except protocol.RequestError:
                _failing(state, outcome, f"409 without a size: {answer[:200]!r}", now)
                return outcome
            facts = {"held_size": held, "our_size": newest, "last_cosigned": state.size}
            if held < state.size:
                _refused(
                    state,
                    outcome,
                    f"the witness holds size {held}, below the {state.size} it cosigned: it lost its state",
                    facts,
                    retire=True,
                )
                return outcome
            if held > newest:
                _refused(
                    state,
                    outcome,
                    f"the witness holds size {held}, above the record's {newest}: the record was restored to an older point or rolled back",
                    facts,
                )
                return outcome
            state.size = held  # the size it holds, which we had not recorded: push again from there
            # a note of that very size whose cosignature we lack (its answer was lost: the request
            # timed out after the witness cosigned) is pushed again from its own size, once: the
            # witness cosigns the same checkpoint again
            lost = [n for n in pending if n.size == held and n.pk not in again and not _stored(n, witness)]
            again.update(n.pk for n in lost)
            pending = lost + [n for n in pending if n.size > held]
            continue
        if status == 422:
            _refused(
                state,
                outcome,
                f"checkpoint of size {note.size} refused: not consistent with what the witness cosigned",
                {
                    "size": note.size,
                    "old_size": state.size,
                    "answer": answer[:500].decode("utf-8", "replace"),
                },
            )
            return outcome
        _failing(state, outcome, f"HTTP {status}: {answer[:200].decode('utf-8', 'replace')}", now)
        return outcome
    if state.failing_since is not None and not outcome.refused:
        state.failing_since, state.last_error, state.alarmed = None, "", False
        state.save()
    return outcome


def _stored(note: CheckpointNote, witness: policies.Witness) -> bool:
    return Cosignature.objects.filter(note=note, witness=witness.name).exists()


def push_all(*, now: dt.datetime | None = None, timeout: float | None = None) -> list[Outcome]:
    """Make the notes of the checkpoints that lack one (time-stamped when a time-stamp server is
    configured), then push to every witness of the policy."""
    if casino_notes.signer() is None:
        return []
    casino_notes.make_notes()
    stamp_pending()
    found = policy()
    if found is None:
        return []
    return [push(witness, now=now, timeout=timeout) for witness in found.witnesses.values() if witness.url]


def cosigned_by(note: CheckpointNote, found: policies.Policy | None = None) -> tuple[set[str], bool]:
    """The witnesses of the policy whose cosignature of a note is stored, and whether the quorum
    is met (the cosignatures checked again against the policy's keys)."""
    found = found or policy()
    if found is None:
        return set(), True
    lines = "".join(c.line for c in note.cosignatures.all())
    try:
        _note, names, quorum = found.check(note.note + lines)
    except notes.NoteError:
        return set(), False
    return names, quorum
