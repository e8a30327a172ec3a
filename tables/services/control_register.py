"""The control register (FR model n° 12): closing the day, and corrections of its lines and
of the advance book's entries (FR art. 68, 72; LU art. 10)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from audit.checkpoints import checkpoint_on_commit
from casino_ops import officers
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.officers import OfficerSignature
from casino_ops.refusals import Refusal
from casino_ops.regulations import RegulationError, cite
from casino_ops.services import get_casino
from casino_ops.validators import earliest_date

from .. import clock, rules, selectors
from ..models import (
    AdvanceEntry,
    ControlDay,
    ControlLine,
    EntryKind,
    Session,
    SessionStatus,
)
from ..rules import days as day_rules
from ._shared import (
    ADVANCE_KINDS,
    AMOUNT_KINDS,
    _entry,
    _lock_session,
    _refuse_closed_day,
    _refuse_decks_out,
    _require_decks_in_shoe,
    _save,
)


def _check_day_may_close(day: dt.date, profile: str) -> None:
    """Only a past gaming day, or the current one once it has ended, is closed (FR art. 72)."""
    article = cite("control_register", profile)
    day_rules.check_day_may_close(day, opened=earliest_date(), now=clock.now(), article=article)


@declare_act(
    act=Act.CONTROL_REGISTER,
    action=Action.CONTROL_REGISTER_DAY_CLOSED,
    article="control_register",
    refusals=(Refusal.SESSIONS_NOT_CLOSED, Refusal.DECKS_NOT_RETURNED),
)
@transaction.atomic
def close_day(*, actor: User, day: dt.date) -> ControlDay:
    """The director closes the day of the control register: every session of the day is closed
    and its result carried; the day's total is written (FR art. 72; LU art. 10). Only a day
    that has ended (a past gaming day, or the current one after its date) is closed."""
    profile = get_casino().profile
    _check_day_may_close(day, profile)
    control_day, _created = ControlDay.objects.select_for_update(no_key=True).get_or_create(day=day)
    if control_day.is_closed:
        _refuse_closed_day(day, profile)
    running = list(
        Session.objects.filter(day=day)
        .exclude(status=SessionStatus.CLOSED)
        .values_list("table__code", flat=True)
    )
    day_rules.check_sessions_closed(running, profile)
    _refuse_decks_out(profile, day=day)
    total = sum((line.result for line in selectors.effective_control_lines(control_day)), Decimal("0.00"))
    control_day.closed_at = clock.now()
    control_day.closed_by = actor
    control_day.total = total
    _save(control_day, cite("control_register", profile), update_fields=["closed_at", "closed_by", "total"])
    audit.record(
        actor=actor,
        action=Action.CONTROL_REGISTER_DAY_CLOSED,
        obj=control_day,
        payload={"day": day, "total": total, "lines": control_day.lines.count()},
    )
    checkpoint_on_commit()  # a signed checkpoint at every close of day
    return control_day


@declare_act(
    act=Act.STAMP_CONTROL_REGISTER,
    action=Action.CONTROL_REGISTER_DAY_STAMPED,
    article="control_register",
    refusals=(Refusal.ALREADY_STAMPED, Refusal.DAY_NOT_CLOSED),
)
@transaction.atomic
def stamp_control_day(
    *, actor: User, control_day: ControlDay, remark: str = "", signature: OfficerSignature | None = None
) -> ControlDay:
    """The officer stamps (vise) a day closed in the control register (FR art. 72: the register
    is totalled, closed and stamped at the day's end)."""
    profile = get_casino().profile
    article = cite("control_register", profile)
    control_day = ControlDay.objects.select_for_update(no_key=True).get(pk=control_day.pk)
    day_rules.check_day_stampable(control_day, article)
    remark = (remark or "").strip()
    sealed = officers.seal(
        officer=actor,
        act=Action.CONTROL_REGISTER_DAY_STAMPED,
        target=control_day,
        fields={"remark": remark},
        signature=signature,
        profile=profile,
    )
    control_day.stamped_by = actor
    control_day.stamped_at = clock.now()
    control_day.stamp_remark = remark
    _save(control_day, article, update_fields=["stamped_by", "stamped_at", "stamp_remark"])
    audit.record(
        actor=actor,
        action=Action.CONTROL_REGISTER_DAY_STAMPED,
        obj=control_day,
        payload={
            "day": control_day.day,
            "total": control_day.total,
            "remark": remark,
            officers.SIGNATURE_KEY: sealed,
            "stamped_at": control_day.stamped_at,
        },
    )
    return control_day


@declare_act(
    act=Act.CONTROL_REGISTER,
    action=Action.CONTROL_REGISTER_CORRECTED,
    article="books.no_erasure",
    refusals=(Refusal.AMOUNT_INVALID,),
)
@transaction.atomic
def correct_control_line(
    *, actor: User, line: ControlLine, result: Decimal, approval: str, reason: str
) -> ControlLine:
    """A correction of a line of the control register: a new line pointing at the one it
    corrects, approved in words by the director (FR art. 68). Allowed after the day's closing."""
    profile = get_casino().profile
    line = ControlLine.objects.select_for_update(no_key=True).get(pk=line.pk)
    rules.check_approval_in_words(approval, reason, profile)
    day_rules.check_corrected_result(result, profile)
    if result != 0:
        _require_decks_in_shoe(line.session, field="result", recording=_("résultat"))
    original = line.corrects or line
    correction = _control_correction(
        line,
        session=line.session,
        advances=line.advances,
        closing_cash=line.closing_cash,
        result=result,
        actor=actor,
        approval=approval,
        reason=reason,
        profile=profile,
    )
    after = _after_correction(line.control_day_id, profile=profile)
    audit.record(
        actor=actor,
        action=Action.CONTROL_REGISTER_CORRECTED,
        obj=correction,
        payload={
            "corrects": original.pk,
            "previous": line.result,
            "result": result,
            "approval": approval,
            "reason": reason,
            **after,
        },
    )
    return correction


@declare_act(
    act=Act.CONTROL_REGISTER,
    action=Action.ADVANCE_BOOK_CORRECTED,
    article="books.no_erasure",
    refusals=(Refusal.NOT_CORRECTABLE, Refusal.ADVANCE_NOT_EQUAL),
    profile=lambda kw: kw["entry"].session.profile,
)
@transaction.atomic
def correct_advance_entry(
    *, actor: User, entry: AdvanceEntry, amount: Decimal, approval: str, reason: str
) -> AdvanceEntry:
    """Correct an amount of the advance book: a new line pointing at the line it corrects,
    approved in words by the director (FR art. 68). If the session is closed, its result is
    corrected too in the control register, by a correction line (even after the day's closing)."""
    session = _lock_session(entry.session_id)
    profile = session.profile
    entry = AdvanceEntry.objects.get(pk=entry.pk)
    written = day_rules.correctable_amount(entry, AMOUNT_KINDS, profile)
    rules.check_approval_in_words(approval, reason, profile)
    rules.check_amount(amount, "amount", "books.no_erasure", profile, allow_zero=True)
    previous = entry.corrections.order_by("-line").values_list("amount", flat=True).first()
    previous = written if previous is None else previous
    if entry.kind in ADVANCE_KINDS:
        _check_corrected_advance(session, entry, amount, profile)
    correction = _entry(
        session,
        EntryKind.CORRECTION,
        amount=amount,
        signed_by=actor,
        corrects=entry,
        note=f"{approval} — {reason}",
    )
    delta = amount - previous
    if entry.kind in ADVANCE_KINDS:
        session.advances_total += delta
    elif entry.kind == EntryKind.CLOSING:
        session.closing_cash = (session.closing_cash or Decimal("0")) + delta
    control_correction = None
    if session.status == SessionStatus.CLOSED and entry.kind != EntryKind.INTERRUPTION_COUNTED:
        session.result = (session.closing_cash or Decimal("0")) - session.advances_total
        if session.result != 0:
            _require_decks_in_shoe(session, field="amount", recording=_("résultat"))
        line = session.control_lines.order_by("-id").first()
        if line is not None and line.result != session.result:
            control_correction = _control_correction(
                line,
                session=session,
                advances=session.advances_total,
                closing_cash=session.closing_cash or Decimal("0"),
                result=session.result,
                actor=actor,
                approval=approval,
                reason=_("Report de la correction de la ligne %(l)s du carnet d'avances : %(r)s")
                % {"l": entry.line, "r": reason},
                profile=profile,
            )
    _save(
        session, cite("books.no_erasure", profile), update_fields=["advances_total", "closing_cash", "result"]
    )
    control_day_id = ControlDay.objects.filter(day=session.day).values_list("pk", flat=True).first()
    after = _after_correction(control_day_id, profile=profile) if control_day_id is not None else {}
    audit.record(
        actor=actor,
        action=Action.ADVANCE_BOOK_CORRECTED,
        obj=correction,
        payload={
            "session": session.pk,
            "line": correction.line,
            "corrects_line": entry.line,
            "previous": previous,
            "amount": amount,
            "approval": approval,
            "reason": reason,
            "control_correction": control_correction.pk if control_correction else None,
            **after,
        },
    )
    return correction


def _check_corrected_advance(session: Session, entry: AdvanceEntry, amount: Decimal, profile: str) -> None:
    """A corrected advance obeys the rules of the advance it corrects (FR art. 42, 49, 53; LU art.
    9, 21, 22): each further advance equals the initial one; the initial advance is at least
    3,000 times the minimum (FR), the same all day at the table and fixed for the exercise, and
    (LU) within the guarantee fund the séance showed. The refusal names the corrected amount."""
    advances = selectors.effective_advances(session)
    day_rules.check_corrected_advance(
        further=entry.kind == EntryKind.FURTHER_ADVANCE,
        amount=amount,
        initial=advances[0][1] if advances else session.advance_amount,
        advances=advances,
        profile=profile,
    )
    earlier = [
        s
        for s in selectors.effective_session_advances(
            Session.objects.filter(table_id=session.table_id, fiscal_year=session.fiscal_year).exclude(
                pk=session.pk
            )
        )
    ]
    same_day = [s for s in earlier if s["day"] == session.day]
    first = earlier[0] if earlier else None
    try:
        rules.check_advance(
            profile=profile,
            minimum=session.minimum,
            advance=amount,
            same_day_advance=same_day[-1]["advance_amount"] if same_day else None,
            year_minimum=first["minimum"] if first else None,
            year_advance=first["advance_amount"] if first else None,
            same_day_minimum=same_day[-1]["minimum"] if same_day else None,
        )
        if profile == "LU":
            year = selectors.effective_session_advances(
                Session.objects.filter(fiscal_year=session.fiscal_year).exclude(pk=session.pk)
            )
            largest = max([amount, *(s["advance_amount"] for s in year)])
            rules.check_guarantee_fund(profile=profile, fund=session.guarantee_fund, largest_advance=largest)
    except RegulationError as refusal:
        refusal.field = "amount"
        raise


def _after_correction(control_day_id: int, *, profile: str) -> dict[str, object]:
    """What a correction does to its day of the control register: a closed day's total is
    written again from its lines (the total written at the closing always equals the day's
    lines, FR art. 72), and a visa given before the correction no longer holds: the day awaits
    a new visa (FR art. 72). Returns what the correction's event records of it."""
    control_day = ControlDay.objects.select_for_update(no_key=True).get(pk=control_day_id)
    done: dict[str, object] = {}
    fields = []
    if control_day.is_closed:
        total = sum((line.result for line in selectors.effective_control_lines(control_day)), Decimal("0.00"))
        done["day_total"] = total
        if total != control_day.total:
            done["day_total_before"] = control_day.total
            control_day.total = total
            fields.append("total")
    if control_day.is_stamped:
        done["visa_voided"] = {
            "stamped_at": control_day.stamped_at,
            "stamped_by": control_day.stamped_by_id,
            "remark": control_day.stamp_remark,
        }
        control_day.stamped_at = None
        control_day.stamped_by = None
        control_day.stamp_remark = ""
        fields += ["stamped_at", "stamped_by", "stamp_remark"]
    if fields:
        _save(control_day, cite("control_register", profile), update_fields=fields)
    return done


# -- shoes -------------------------------------------------------------------------------


def _control_correction(
    line: ControlLine,
    *,
    session: Session | None,
    advances: Decimal,
    closing_cash: Decimal,
    result: Decimal,
    actor: User,
    approval: str,
    reason: str,
    profile: str,
) -> ControlLine:
    """A new line of the control register that corrects ``line`` (always pointing at the
    original line, never at an earlier correction): both stay in the book (FR art. 68)."""
    return _save(
        ControlLine(
            control_day=line.control_day,
            table=line.table,
            session=session,
            advances=advances,
            closing_cash=closing_cash,
            result=result,
            at=clock.now(),
            by=actor,
            corrects=line.corrects or line,
            approval=approval,
            reason=reason,
        ),
        cite("books.no_erasure", profile),
    )
