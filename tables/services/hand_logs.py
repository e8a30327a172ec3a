"""Hand logs: upload (validated, stored unchanged with its SHA-256), replay by the engine and
discrepancy rows (FR art. 55-4, 55-5, 68; LU art. 32, 33)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import BooleanField, ExpressionWrapper, Q
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from cards_registry.services import REPLAY_CODES, report_incident_from_replay
from casino_ops import act_checks
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.refusals import Refusal
from casino_ops.regulations import RegulationError, cite
from casino_ops.services import get_casino

from .. import clock, rules
from ..blackjack import replay_valid, validate
from ..blackjack.summary import wrong_payments
from ..models import (
    Discrepancy,
    DiscrepancyAcknowledgement,
    HandLog,
    Replay,
    Session,
    Shoe,
)
from ..rules import uploads as upload_rules
from ..serializers import AcknowledgeInSerializer, HandLogBatchInSerializer
from ..tasks import replay_hand_log as replay_task
from ..tasks import replay_hand_logs as replay_batch_task
from ._shared import (
    _refuse_closed_day,
    _require_decks_in_shoe,
    _save,
    _share_lock_day,
)

#: ``shoe`` not given to :func:`_store_hand_log`: it reads it.
_LOOK_UP = object()

#: The discrepancies the director acknowledges only with an explanation (the note).
EXPLAINED_CODES = frozenset({"SHOE_UNKNOWN"})

#: The logs stored while :func:`_replays_queued_together` runs in this thread (else None).
_queued = threading.local()


def _queue_replay_on_commit(log_id: int) -> None:
    """Once the log is committed, queue its replay: its own task, or, inside
    :func:`_replays_queued_together`, with the others stored there."""
    together: list[int] | None = getattr(_queued, "ids", None)
    if together is None:
        transaction.on_commit(lambda: replay_task.delay(log_id))
    else:
        transaction.on_commit(lambda: together.append(log_id))


def _queue_replays(ids: list[int]) -> None:
    if len(ids) == 1:
        replay_task.delay(ids[0])
    elif ids:
        replay_batch_task.delay(list(ids))


@contextlib.contextmanager
def _replays_queued_together() -> Iterator[None]:
    """The replays of the logs committed inside it queued as one task at its end (after the
    commit of the transaction around it, if any; each log still replayed in its own transaction
    by :func:`replay_hand_log`): the worker's start of a task (its connection to the database,
    its bookkeeping) paid once for them all. A log committed is queued even when a later one
    fails."""
    outer = getattr(_queued, "ids", None)
    if outer is not None:  # already inside one: its logs go with the outer ones
        yield
        return
    ids: list[int] = []
    _queued.ids = ids
    try:
        yield
    finally:
        _queued.ids = None
        # after the logs' own callbacks (run in the order they were registered)
        transaction.on_commit(lambda: _queue_replays(ids))


#: What receiving a hand log may refuse, alone or in a batch (each log of a batch as if alone).
RECEIVING_REFUSALS = (
    Refusal.HAND_LOG_DUPLICATE,
    Refusal.HAND_LOG_TABLE,
    Refusal.DAY_CLOSED,
    Refusal.SESSION_WITHOUT_DECKS,
)


@declare_act(
    act=Act.UPLOAD_HAND_LOG,
    action=Action.HAND_LOG_RECEIVED,
    article="hand_log.table",
    refusals=RECEIVING_REFUSALS,
    profile=lambda kw: kw["session"].profile,
)
def upload_hand_log(*, actor: User, session: Session, raw: bytes, source: str) -> HandLog:
    """Receive a hand log for a session: validated (a rejection names the field, nothing is
    stored), stored unchanged with its SHA-256, linked to its session and shoe, and queued for
    replay once committed. A log already received (same SHA-256) or for a day closed in the
    control register is refused (FR art. 68)."""
    return _receive_hand_log(actor=actor, session=session, raw=raw, source=source)


def _receive_hand_log(*, actor: User, session: Session, raw: bytes, source: str) -> HandLog:
    """:func:`upload_hand_log` once its declaration's gate is passed (the actor may upload, and
    holds his approval on the day: the same for every log of a batch, checked once for it)."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    profile = session.profile
    doc = rules.parse_hand_log(raw, profile)
    _refuse_closed_day(session.day, profile)
    upload_rules.check_log_table(doc["table"], session.table.code, profile)
    # one read: the shoe of that label (labels are unique: this séance's, or another's, refused),
    # or else any shoe of the séance (which is enough for the decks' check), or none (refused:
    # FR art. 40)
    found = (
        Shoe.objects.filter(Q(session_id=session.pk) | Q(label=doc["shoe_id"]))
        .select_related("croupier")
        .annotate(labelled=ExpressionWrapper(Q(label=doc["shoe_id"]), output_field=BooleanField()))
        .order_by("-labelled", "pk")
        .first()
    )
    if found is not None and found.session_id != session.pk:
        other = Session.objects.select_related("table").get(pk=found.session_id)
        upload_rules.check_shoe_of_this_session(found.label, session, other)
    if found is None:
        _require_decks_in_shoe(session, field="session", recording=_("journal de mains"))
    shoe = found if found is not None and found.label == doc["shoe_id"] else None
    # its rounds were played once its shoe was filled (the moment of the upload for a shoe the
    # séance never filled): the rules of the books above bind them (LU art. 11), and the croupier
    # who dealt them holds his approval that day (LU art. 51, 54, 63); the croupier who sends his
    # own log is the actor, whose roles the gate has just read: not read a second time
    croupier_id = shoe.croupier_id if shoe is not None else session.croupier_id
    if croupier_id == actor.pk:
        croupier = actor
    else:
        croupier = shoe.croupier if shoe is not None else session.croupier
    act_checks.run(
        act_checks.Hook.SESSION_PLAY,
        day=session.day,
        profile=profile,
        people={"croupier": croupier},
        at=shoe.filled_at if shoe is not None else clock.now(),
        subject=session,
    )
    digest = hashlib.sha256(raw).hexdigest()
    try:
        return _store_hand_log(
            actor=actor, session=session, raw=raw, doc=doc, digest=digest, source=source, shoe=shoe
        )
    except IntegrityError as exc:
        constraint = getattr(getattr(exc.__cause__, "diag", None), "constraint_name", "") or ""
        if "sha256" not in constraint:
            raise
    # the same bytes already received (the unique SHA-256 refused the insert; nothing was stored)
    upload_rules.refuse_duplicate(digest, profile)


@transaction.atomic
def _store_hand_log(
    *,
    actor: User,
    session: Session,
    raw: bytes,
    doc: dict[str, Any],
    digest: str,
    source: str,
    shoe: Shoe | None | object = _LOOK_UP,
) -> HandLog:
    """The storing half of :func:`upload_hand_log`, in one transaction with its audit event
    (``shoe``: the séance's shoe of the log's label, when the caller has read it; a shoe row
    is never deleted nor relabelled, the books' guards refuse it)."""
    _share_lock_day(session.day, session.profile)  # the day read again, under the lock
    if shoe is _LOOK_UP:
        shoe = session.shoes.filter(label=doc["shoe_id"]).first()
    assert shoe is None or isinstance(shoe, Shoe)
    log = HandLog(
        session=session,
        shoe=shoe,
        croupier_id=shoe.croupier_id if shoe else session.croupier_id,
        sha256=digest,
        raw=raw.decode("utf-8"),
        shoe_label=doc["shoe_id"],
        table_code=doc["table"],
        profile=doc["profile"],
        limits_min=Decimal(doc["limits"]["min"]),
        limits_max=Decimal(doc["limits"]["max"]),
        house_rules=doc["house_rules"],
        rounds=len(doc["rounds"]),
        source=source,
        uploaded_by=actor,
        uploaded_at=clock.now(),
    )
    _save(log, "")
    audit.record(
        actor=actor,
        action=Action.HAND_LOG_RECEIVED,
        obj=log,
        payload={
            "session": session.pk,
            "shoe": shoe.pk if shoe else None,
            "sha256": digest,
            "rounds": log.rounds,
            "source": source,
        },
    )
    _queue_replay_on_commit(log.pk)
    return log


@declare_act(
    act=Act.UPLOAD_HAND_LOG,
    action=Action.HAND_LOG_RECEIVED,
    schema=HandLogBatchInSerializer,
    article="hand_log.table",
    refusals=RECEIVING_REFUSALS,
    profile=lambda kw: kw["session"].profile,
)
def upload_hand_logs(
    *, actor: User, session: Session, logs: list[bytes], source: str
) -> list[HandLog | RegulationError]:
    """Receive several hand logs of one séance, in their order, each as
    :func:`upload_hand_log` receives it alone: checked, stored in its own transaction with its
    audit event, or refused (nothing of it stored) without stopping the others. Returns, for each
    log, its row or its refusal. The declaration's gate (the actor's right and approval) is passed
    once for all of them. Their replays are queued once the last one is received, as one task
    (each log replayed in its own transaction)."""
    results: list[HandLog | RegulationError] = []
    with _replays_queued_together():
        for raw in logs:
            try:
                rules.check_hand_log_size(len(raw))
                results.append(_receive_hand_log(actor=actor, session=session, raw=raw, source=source))
            except RegulationError as refusal:
                results.append(refusal)
    return results


def _amount(value: Any) -> Decimal | None:
    return Decimal(value) if isinstance(value, str) else None


def replay_hand_logs(*, hand_log_ids: list[int]) -> list[Replay]:
    """Replay stored logs one after the other, each in its own transaction as
    :func:`replay_hand_log` (one that fails leaves the others replayed; the first failure is raised
    once all have been tried)."""
    replays: list[Replay] = []
    failure: Exception | None = None
    for hand_log_id in hand_log_ids:
        try:
            replays.append(replay_hand_log(hand_log_id=hand_log_id))
        except Exception as exc:  # the others are replayed all the same; raised below
            failure = failure or exc
    if failure is not None:
        raise failure
    return replays


def replay_hand_log(*, hand_log_id: int) -> Replay:
    """Replay a stored log with the engine and store its discrepancies (and the differences from its
    session) as rows. Idempotent: the log row is locked and a log has one replay row, so a second
    run (a retried or duplicated task) returns the stored result and stores nothing."""
    with transaction.atomic():
        # only the log row is locked (no_key: rows pointing at it may still be inserted)
        log = (
            HandLog.objects.select_for_update(no_key=True, of=("self",))
            .select_related("session__table")
            .get(pk=hand_log_id)
        )
        existing = Replay.objects.filter(hand_log=log).first()
        if existing is not None:
            return existing
        session = log.session
        doc = json.loads(log.raw)
        report = replay_valid(doc, validate(doc))
        maxima = list(session.maximum_changes.values_list("previous", flat=True))
        boxes = rules.boxes_used(doc)
        rows = [
            Discrepancy(
                hand_log=log,
                session=session,
                code=d["code"],
                article=d["article"],
                detail=d["detail"],
            )
            for d in rules.session_differences(log, session, maxima, boxes)
        ]
        for d in report["discrepancies"]:
            expected = _amount(d.get("expected"))
            # BET_UNIT and ILLEGAL_INSURANCE name the recorded stake "amount" (hand-log.md §6).
            recorded = _amount(d["recorded"] if "recorded" in d else d.get("amount"))
            delta = Decimal("0")
            if d["code"].startswith("SETTLEMENT_"):
                delta = (recorded or Decimal("0")) - (expected or Decimal("0"))
            rows.append(
                Discrepancy(
                    hand_log=log,
                    session=session,
                    code=d["code"],
                    round=d["round"],
                    box=d["box"],
                    hand=d["hand"],
                    player=d["player"] or "",
                    expected=expected,
                    recorded=recorded,
                    delta=delta,
                    article=d["article"],
                    detail={
                        k: v
                        for k, v in d.items()
                        if k
                        not in {"code", "round", "box", "hand", "player", "expected", "recorded", "article"}
                    },
                )
            )
        Discrepancy.objects.bulk_create(rows, batch_size=1000)
        _report_card_incidents(log, session, report["discrepancies"])
        over, under = wrong_payments(report)
        replay = Replay.objects.create(
            hand_log=log,
            ok=not rows,
            rounds_replayed=sum(1 for r in report["rounds"] if r["replayed"]),
            discrepancy_count=len(rows),
            overpaid=Decimal(over) / 100,
            underpaid=Decimal(under) / 100,
            finished_at=clock.now(),
        )
        audit.record(
            actor=None,
            action=Action.HAND_LOG_REPLAYED,
            obj=log,
            payload={
                "sha256": log.sha256,
                "ok": replay.ok,
                "discrepancies": len(rows),
                "overpaid": replay.overpaid,
                "underpaid": replay.underpaid,
            },
        )
        return replay


def _report_card_incidents(log: HandLog, session: Session, discrepancies: list[dict[str, Any]]) -> None:
    """A card too many, or a card that is no card of the shoe, found by the replay is a card
    incident on the shoe's decks, reported to the depot in the replay's transaction
    (FR art. 40, LU art. 7)."""
    found = [d for d in discrepancies if d["code"] in REPLAY_CODES]
    if not found:
        return
    decks = list(log.shoe.decks.values_list("deck_id", flat=True)) if log.shoe is not None else []
    for code in dict.fromkeys(d["code"] for d in found):
        first = next(d for d in found if d["code"] == code)
        detail = {k: v for k, v in first.items() if k not in {"code", "article"}}
        report_incident_from_replay(
            code=code,
            table_number=session.table.number,
            day=session.day,
            shoe_reference=log.shoe_label,
            decks=decks,
            detail=json.dumps(detail, ensure_ascii=False, default=str),
        )


@declare_act(
    act=Act.ACKNOWLEDGE_DISCREPANCIES,
    action=Action.DISCREPANCY_ACKNOWLEDGED,
    schema=AcknowledgeInSerializer,
    article="books.no_erasure",
    refusals=(Refusal.EXPLANATION_REQUIRED,),
)
@transaction.atomic
def acknowledge_discrepancies(*, actor: User, discrepancies: Any, note: str = "") -> list[Any]:
    """The director takes note of discrepancies found by the replay: one signed, dated row each
    (an already acknowledged one is left as it is). FR art. 55-4, 68; LU art. 32. A log of a
    shoe the séance never filled (``SHOE_UNKNOWN``) is taken note of only with his explanation
    in ``note`` (FR art. 40, LU art. 7), which opens an incident for the officer to close."""
    profile = get_casino().profile
    discrepancies = list(discrepancies)
    note = (note or "").strip()
    done = set(
        DiscrepancyAcknowledgement.objects.filter(discrepancy__in=discrepancies).values_list(
            "discrepancy_id", flat=True
        )
    )
    unknown = [d for d in discrepancies if d.code in EXPLAINED_CODES and d.pk not in done]
    # a log of a shoe the séance never filled: its cards come from no recorded deck, and
    # the director says how (FR art. 40, LU art. 7)
    upload_rules.check_explained([d.detail.get("shoe_id", "") for d in unknown], note, profile)
    rows = []
    now = clock.now()
    for discrepancy in discrepancies:
        if DiscrepancyAcknowledgement.objects.filter(discrepancy=discrepancy).exists():
            continue
        row = _save(
            DiscrepancyAcknowledgement(discrepancy=discrepancy, by=actor, at=now, note=note),
            cite("books.no_erasure", profile),
        )
        audit.record(
            actor=actor,
            action=Action.DISCREPANCY_ACKNOWLEDGED,
            obj=row,
            payload={
                "discrepancy": discrepancy.pk,
                "code": discrepancy.code,
                "session": discrepancy.session_id,
                "note": row.note,
            },
        )
        rows.append(row)
        if discrepancy.code in EXPLAINED_CODES:
            # explained, not closed: an incident for the officer, who closes it (the log stays
            # named by the self-inspection until then; FR art. 40, LU art. 7)
            session = Session.objects.select_related("table").get(pk=discrepancy.session_id)
            report_incident_from_replay(
                code=discrepancy.code,
                table_number=session.table.number,
                day=session.day,
                shoe_reference=str(discrepancy.detail.get("shoe_id", "")),
                decks=[],
                detail=note,
                occurred_at=now,
                actor=actor,
            )
    return rows
