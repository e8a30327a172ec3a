"""Sessions and the advance book (FR model n° 10): opening with the advance, further
advances, interruptions, closing with the count certified "exact" (FR art. 42, 49, 69; LU art. 9,
10, 15, 21-23)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from audit.checkpoints import checkpoint_on_commit
from casino_ops import access, act_checks
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite
from casino_ops.rules import check_counter_not_signer
from casino_ops.services import get_casino

from .. import clock, rules, selectors
from ..models import (
    AdvanceEntry,
    ControlDay,
    ControlLine,
    EntryKind,
    MinistryNotice,
    Session,
    SessionStatus,
    Table,
)
from ..rules import sessions as session_rules
from ..serializers import (
    AdvanceInSerializer,
    CloseInSerializer,
    InterruptInSerializer,
    NoInputSerializer,
    OpenSessionInSerializer,
)
from ._shared import (
    _authorised_minimum,
    _entry,
    _lock_session,
    _refuse_closed_day,
    _refuse_decks_out,
    _require_decks_in_shoe,
    _require_maximum_fixer,
    _require_signer,
    _require_status,
    _require_table_staff,
    _save,
    _user_id,
)


@declare_act(
    act=Act.SIGN_ADVANCE,
    action=Action.SESSION_OPENED,
    schema=OpenSessionInSerializer,
    article="advance.count_and_sign",
    refusals=(
        Refusal.SESSION_NOT_TODAY,
        Refusal.MAXIMUM_BY_DIRECTOR,
        Refusal.TABLE_OUT_OF_SERVICE,
        Refusal.SESSION_STILL_OPEN,
        Refusal.DAY_CLOSED,
    ),
)
@transaction.atomic
def open_session(
    *,
    actor: User,
    table: Table,
    minimum: Decimal,
    maximum: Decimal,
    advance_amount: Decimal,
    croupier: User,
    guarantee_fund: Decimal | None = None,
    ministry_notice: MinistryNotice | None = None,
    day: dt.date | None = None,
) -> Session:
    """Open a session with its limits and its initial advance, counted, announced and written at
    once, signed by the director or a committee member (FR art. 42, 49, 53, 55-5, 69; LU art. 9,
    10, 21, 22, 26, 33). Under LU a raised minimum cites ``ministry_notice``, the notice to the
    minister recorded eight days before at least. ``actor`` signs and fixes the maximum (the director, or his recorded
    delegate, LU art. 51 V); ``croupier`` counted the advance. The session belongs to the current
    gaming day (``day``, when given, must be it)."""
    casino = get_casino()
    profile = casino.profile
    now = clock.now()
    today = casino.gaming_day(now)
    if day is None:
        day = today
    rules.check_gaming_day(profile=profile, day=day, current=today)
    delegation = _require_maximum_fixer(actor, profile, day)
    _require_table_staff(croupier, profile, field="croupier")
    check_counter_not_signer(croupier, actor, profile, field="croupier")
    table = Table.objects.select_for_update(no_key=True).get(pk=table.pk)
    session_rules.check_table_opens(
        table,
        table.in_service
        and Session.objects.filter(table=table).exclude(status=SessionStatus.CLOSED).exists(),
        profile,
    )
    _refuse_closed_day(day, profile)
    act_checks.run(
        act_checks.Hook.SESSION_OPEN,
        day=day,
        profile=profile,
        people={"actor": actor, "croupier": croupier},
        at=now,
        subject=table,
    )
    authorised = _authorised_minimum(casino, day)
    rules.check_limits(minimum, maximum, authorised, profile)
    year = casino.exercise_of(day)
    # each earlier advance as it stands, corrections applied (FR art. 68)
    advances = {
        s["id"]: s["advance_amount"]
        for s in selectors.effective_session_advances(Session.objects.filter(table=table, fiscal_year=year))
    }
    earlier = [
        {**s, "advance_amount": advances[s["id"]]}
        for s in Session.objects.filter(table=table, fiscal_year=year)
        .order_by("day", "opened_at", "pk")
        .values("id", "day", "minimum", "maximum", "advance_amount")
    ]
    same_day = [s for s in earlier if s["day"] == day]
    first = earlier[0] if earlier else None
    latest = earlier[-1] if earlier else None
    rules.check_minimum_against_history(
        profile=profile,
        minimum=minimum,
        same_day_minimum=same_day[-1]["minimum"] if same_day else None,
        year_minimum=max(s["minimum"] for s in earlier) if earlier else None,
    )
    rules.check_same_day_reopening(
        profile=profile,
        minimum=minimum,
        maximum=maximum,
        advance=advance_amount,
        same_day_minimum=same_day[-1]["minimum"] if same_day else None,
        same_day_maximum=same_day[-1]["maximum"] if same_day else None,
        same_day_advance=same_day[-1]["advance_amount"] if same_day else None,
    )
    rules.check_season_maximum(
        profile=profile,
        minimum=minimum,
        maximum=maximum,
        season_minimum=latest["minimum"] if latest else None,
        season_maximum=latest["maximum"] if latest else None,
    )
    rules.check_advance(
        profile=profile,
        minimum=minimum,
        advance=advance_amount,
        same_day_advance=same_day[-1]["advance_amount"] if same_day else None,
        year_minimum=first["minimum"] if first else None,
        year_advance=first["advance_amount"] if first else None,
        same_day_minimum=same_day[-1]["minimum"] if same_day else None,
    )
    if profile == "LU":
        largest = max(
            [
                advance_amount,
                *(
                    s["advance_amount"]
                    for s in selectors.effective_session_advances(Session.objects.filter(fiscal_year=year))
                ),
            ]
        )
        rules.check_guarantee_fund(profile=profile, fund=guarantee_fund, largest_advance=largest)
    # the notice's day is the day the system recorded it, never the day declared (LU art. 26)
    rules.check_ministry_notice(
        profile=profile,
        minimum=minimum,
        authorised_min=authorised,
        required=rules.ministry_notice_required(
            profile=profile,
            minimum=minimum,
            authorised_min=authorised,
            year_minimum=max(s["minimum"] for s in earlier) if earlier else None,
        ),
        day=day,
        notice_minimum=ministry_notice.minimum if ministry_notice else None,
        recorded_on=casino.gaming_day(ministry_notice.recorded_at) if ministry_notice else None,
    )
    session = _save(
        Session(
            table=table,
            day=day,
            fiscal_year=year,
            profile=profile,
            house_rules=casino.house_rules(),
            minimum=minimum,
            maximum=maximum,
            advance_amount=advance_amount,
            guarantee_fund=guarantee_fund,
            ministry_notified_on=ministry_notice.sent_on if ministry_notice else None,
            ministry_notice_reference=ministry_notice.reference if ministry_notice else "",
            ministry_notice=ministry_notice,
            delegation=delegation,
            croupier=croupier,
            opened_at=now,
            opened_by=actor,
            status=SessionStatus.OPEN,
            advances_total=advance_amount,
        ),
        cite("advance.book", profile),
    )
    entry = _entry(
        session,
        EntryKind.INITIAL_ADVANCE,
        amount=advance_amount,
        counted_by=croupier,
        signed_by=actor,
        at=now,
    )
    audit.record(
        actor=actor,
        action=Action.SESSION_OPENED,
        obj=session,
        payload={
            "table": table.number,
            "day": day,
            "profile": profile,
            "minimum": minimum,
            "maximum": maximum,
            "advance": advance_amount,
            "line": entry.line,
            "counted_by": _user_id(croupier),
            "guarantee_fund": guarantee_fund,
            "house_rules": session.house_rules,
            "authorised_minimum": authorised,
            "ministry_notice": ministry_notice.pk if ministry_notice else None,
            "ministry_notified_on": session.ministry_notified_on,
            "ministry_notice_reference": session.ministry_notice_reference,
            "maximum_fixed_by": _user_id(actor),
            "delegation": delegation.pk if delegation else None,
        },
    )
    return session


@declare_act(
    act=Act.SIGN_ADVANCE,
    action=Action.SESSION_ADVANCE_ADDED,
    schema=AdvanceInSerializer,
    article="advance.count_and_sign",
    refusals=("COUNTED_BY_STAFF", Refusal.ADVANCE_NOT_EQUAL, Refusal.SESSION_STATE),
    profile=lambda kw: kw["session"].profile,
)
@transaction.atomic
def add_advance(*, actor: User, session: Session, amount: Decimal, counted_by: User) -> AdvanceEntry:
    """A further advance during the session, equal to the initial one, counted and signed
    (FR art. 42, 69; LU art. 9, 10)."""
    session = _lock_session(session)
    profile = session.profile
    _require_table_staff(counted_by, profile)
    check_counter_not_signer(counted_by, actor, profile, field="counted_by")
    # first: after a bank failure, no advance at all (LU art. 11), the séance open or not
    act_checks.run(
        act_checks.Hook.SESSION_ADVANCE,
        day=session.day,
        profile=profile,
        people={"actor": actor, "counted_by": counted_by},
        at=clock.now(),
        subject=session,
    )
    _require_status(session, SessionStatus.OPEN)
    rules.check_amount(amount, "amount", "advance.book", profile)
    initial = selectors.effective_advances(session)[0][1]  # as corrected, if it was (FR art. 68)
    rules.check_further_advance(amount, initial, profile)
    entry = _entry(session, EntryKind.FURTHER_ADVANCE, amount=amount, counted_by=counted_by, signed_by=actor)
    session.advances_total += amount
    _save(session, cite("advance.book", profile), update_fields=["advances_total"])
    audit.record(
        actor=actor,
        action=Action.SESSION_ADVANCE_ADDED,
        obj=entry,
        payload={
            "session": session.pk,
            "line": entry.line,
            "amount": amount,
            "counted_by": _user_id(counted_by),
        },
    )
    return entry


@declare_act(
    act=Act.COUNT,
    action=Action.SESSION_INTERRUPTED,
    schema=InterruptInSerializer,
    article="session.interruption",
    refusals=(
        Refusal.INTERRUPTION_MODE,
        Refusal.INTERRUPTION_AMOUNT,
        Refusal.INTERRUPTION_MUST_BE_COUNTED,
        Refusal.KEY_HOLDER,
        Refusal.CASHIER_ABSENT,
        Refusal.SESSION_STATE,
    ),
    profile=lambda kw: kw["session"].profile,
)
@transaction.atomic
def interrupt_session(
    *,
    actor: User,
    session: Session,
    mode: str,
    amount: Decimal | None = None,
    key_holder: User | None = None,
    signed_by: User | None = None,
    cashier: User | None = None,
    note: str = "",
) -> AdvanceEntry:
    """An interruption: the cash is counted and written, or locked in the box with the key held
    by the director, a committee member or the chef de partie (FR art. 69; LU art. 23). LU art. 23:
    counting is compulsory when every open table is interrupted, and a counted interruption has
    the closing formalities of art. 10 (signed by the director or a committee member, a cashier
    present). ``note``: why the play stopped, written on the line (a bank failure, LU art. 11)."""
    session = _lock_session(session)
    profile = session.profile
    _require_status(session, SessionStatus.OPEN)
    act_checks.run(
        act_checks.Hook.SESSION_INTERRUPT,
        day=session.day,
        profile=profile,
        people={
            "actor": actor,
            "key_holder": key_holder if mode == "locked" else None,
            "signed_by": signed_by if mode == "counted" and profile == "LU" else None,
            "cashier": cashier if mode == "counted" and profile == "LU" else None,
        },
        at=clock.now(),
        subject=session,
    )
    if mode == "counted" and profile == "LU":
        _require_signer(signed_by, profile, field="signed_by")
        check_counter_not_signer(actor, signed_by, profile, field="signed_by")
        session_rules.check_cashier_present(access.may(cashier, Act.BE_PRESENT_AS_CASHIER), profile)
    if mode == "counted":
        amount = session_rules.counted_amount(amount, profile)
        rules.check_amount(amount, "amount", "session.interruption", profile, allow_zero=True)
        entry = _entry(
            session,
            EntryKind.INTERRUPTION_COUNTED,
            amount=amount,
            counted_by=actor,
            signed_by=signed_by if mode == "counted" and profile == "LU" else None,
            cashier=cashier if profile == "LU" else None,
            note=str(note or "").strip(),
        )
    elif mode == "locked":
        session_rules.check_key_holder(access.may(key_holder, Act.HOLD_BOX_KEY), profile)
        session_rules.check_locked_interruption(
            profile,
            profile != "LU"
            or Session.objects.filter(status=SessionStatus.OPEN).exclude(pk=session.pk).exists(),
        )
        entry = _entry(
            session,
            EntryKind.INTERRUPTION_LOCKED,
            counted_by=actor,
            key_holder=key_holder,
            note=str(note or "").strip(),
        )
    else:
        session_rules.refuse_interruption_mode(profile)
    session.status = SessionStatus.INTERRUPTED
    _save(session, cite("advance.book", profile), update_fields=["status"])
    audit.record(
        actor=actor,
        action=Action.SESSION_INTERRUPTED,
        obj=entry,
        payload={
            "session": session.pk,
            "line": entry.line,
            "mode": mode,
            "amount": amount,
            "key_holder": _user_id(key_holder),
            "signed_by": _user_id(entry.signed_by),
            "cashier": _user_id(entry.cashier),
            "note": entry.note,
        },
    )
    return entry


@declare_act(
    act=Act.COUNT,
    action=Action.SESSION_RESUMED,
    schema=NoInputSerializer,
    article="session.interruption",
    refusals=(Refusal.KEY_HOLDER_ONLY, Refusal.SESSION_STATE),
    profile=lambda kw: kw["session"].profile,
)
@transaction.atomic
def resume_session(*, actor: User, session: Session) -> AdvanceEntry:
    """The play resumes; a box locked at the interruption is reopened by the key holder named
    then (FR art. 69; LU art. 23)."""
    session = _lock_session(session)
    _require_status(session, SessionStatus.INTERRUPTED)
    last = (
        session.entries.filter(kind__in=[EntryKind.INTERRUPTION_LOCKED, EntryKind.INTERRUPTION_COUNTED])
        .order_by("-line")
        .first()
    )
    session_rules.check_resumed_by_key_holder(last, actor.pk, session.profile)
    # the box reopened and the play resumed: by an approved person, never after a bank failure
    # not yet followed by a new authorisation (LU art. 11, 51, 54, 63)
    act_checks.run(
        act_checks.Hook.SESSION_RESUME,
        day=session.day,
        profile=session.profile,
        people={"actor": actor},
        at=clock.now(),
        subject=session,
    )
    entry = _entry(session, EntryKind.RESUMPTION, counted_by=actor)
    session.status = SessionStatus.OPEN
    _save(session, cite("advance.book", session.profile), update_fields=["status"])
    audit.record(
        actor=actor,
        action=Action.SESSION_RESUMED,
        obj=entry,
        payload={"session": session.pk, "line": entry.line},
    )
    return entry


def _require_closable(session: Session) -> None:
    """An open séance closes; so does one interrupted with its cash counted (not locked in the
    box): after a bank failure the séances stay interrupted, counted, until the new authorisation
    (LU art. 11, 23), and close without resuming."""
    if session.status == SessionStatus.INTERRUPTED:
        last = (
            session.entries.filter(kind__in=[EntryKind.INTERRUPTION_LOCKED, EntryKind.INTERRUPTION_COUNTED])
            .order_by("-line")
            .values_list("kind", flat=True)
            .first()
        )
        if last == EntryKind.INTERRUPTION_COUNTED:
            return
    _require_status(session, SessionStatus.OPEN)


@declare_act(
    act=Act.SIGN_ADVANCE,
    action=Action.SESSION_CLOSED,
    schema=CloseInSerializer,
    article="advance.count_and_sign",
    refusals=("COUNTED_BY_STAFF", Refusal.NOT_CERTIFIED_EXACT, Refusal.CASHIER_ABSENT, Refusal.SESSION_STATE),
    profile=lambda kw: kw["session"].profile,
)
@transaction.atomic
def close_session(
    *,
    actor: User,
    session: Session,
    closing_cash: Decimal,
    counted_by: User,
    certified_exact: bool,
    cashier: User | None = None,
) -> AdvanceEntry:
    """Close the session: the cash is counted, announced and written, and the director or a
    committee member (``actor``) certifies the entry "exact" with his signature; LU: with the
    table staff and a cashier present (FR art. 69; LU art. 10). The result (closing cash minus
    the advances) is carried to the day's control register (FR art. 72)."""
    session = _lock_session(session)
    profile = session.profile
    _require_table_staff(counted_by, profile)
    check_counter_not_signer(counted_by, actor, profile, field="counted_by")
    _require_closable(session)
    session_rules.check_certified_exact(certified_exact, profile)
    session_rules.check_closing_cashier(
        profile, cashier is not None, access.may(cashier, Act.BE_PRESENT_AS_CASHIER)
    )
    rules.check_amount(closing_cash, "closing_cash", "advance.count_and_sign", profile, allow_zero=True)
    if closing_cash != session.advances_total:
        _require_decks_in_shoe(session, field="closing_cash", recording=_("résultat"))
    _refuse_decks_out(profile, table_number=session.table.number, day=session.day)
    control_day = _refuse_closed_day(session.day, profile, lock=True)
    now = clock.now()
    act_checks.run(
        act_checks.Hook.SESSION_CLOSE,
        day=session.day,
        profile=profile,
        people={"actor": actor, "counted_by": counted_by, "cashier": cashier},
        at=now,
        subject=session,
    )
    entry = _entry(
        session,
        EntryKind.CLOSING,
        amount=closing_cash,
        counted_by=counted_by,
        signed_by=actor,
        cashier=cashier,
        at=now,
    )
    session.status = SessionStatus.CLOSED
    session.closed_at = now
    session.closing_cash = closing_cash
    session.result = closing_cash - session.advances_total
    _save(
        session,
        cite("advance.book", profile),
        update_fields=["status", "closed_at", "closing_cash", "result"],
    )
    if control_day is None:
        control_day, _created = ControlDay.objects.get_or_create(day=session.day)
    line = _save(
        ControlLine(
            control_day=control_day,
            table=session.table,
            session=session,
            advances=session.advances_total,
            closing_cash=closing_cash,
            result=session.result,
            at=now,
            by=actor,
        ),
        cite("advance.book", profile),
    )
    audit.record(
        actor=actor,
        action=Action.SESSION_CLOSED,
        obj=session,
        payload={
            "line": entry.line,
            "closing_cash": closing_cash,
            "advances": session.advances_total,
            "result": session.result,
            "counted_by": _user_id(counted_by),
            "cashier": _user_id(cashier),
            "certified_exact": True,
            "control_line": line.pk,
        },
    )
    checkpoint_on_commit()  # a signed checkpoint at every séance close, cosigned by the witnesses
    return entry


# -- the control register and corrections -----------------------------------------------
