"""Demo data of the tables (``manage.py seed_demo``), idempotent.

Yesterday: a session at each of the four tables, with further advances, an
interruption, hand logs simulated by the engine's simulator (some with
faults: wrong payments, an illegal double, a stake under the minimum, limits
differing from the session's) replayed, closings certified "exact", the day
closed by the director in the control register, then a correction approved by
the director. Today: sessions open at tables 1 and 2, a shoe at table 1 filled
from the sixain the card depot issued to it, and hand logs dealt from it.
Under LU yesterday's séances close at midnight, the closing hour then notified, and the book
of notices to the minister holds the raise of the minimum planned for next month (LU art. 26).
:func:`seed_past_day` writes an older gaming day (the LU demo's month before yesterday).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import json
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

from django.utils import timezone

from cards_registry import services as depot
from cards_registry.models import Deck, DeckStatus
from cards_registry.selectors import current_key_holder, decks_checked_for_play, decks_out
from casino_ops import clock, roles
from casino_ops.services import get_casino

from . import services
from .blackjack.simulator import simulate_shoe
from .clock import history_at
from .models import (
    ControlDay,
    Discrepancy,
    EntryKind,
    MinistryNotice,
    Session,
    SessionStatus,
    Shoe,
    ShoeDeck,
    Table,
)
from .services.shoes import last_shoe_ids

MINIMUM = Decimal("10.00")
MAXIMUM = Decimal("1000.00")
ADVANCE = Decimal("30000.00")
GUARANTEE_FUND = Decimal("250000.00")
# (table number, faults of each hand log, closing cash)
YESTERDAY = {
    1: ([(), ("SETTLEMENT_MISMATCH",)], Decimal("31250.00")),
    2: ([("ILLEGAL_DOUBLE",), (), ()], Decimal("58900.00")),
    3: ([("BET_BELOW_MIN", "SETTLEMENT_MISSING"), ()], Decimal("29410.50")),
    4: ([(), ("LIMITS",)], Decimal("30880.00")),
}


def _log(session: Session, seed: int, faults: tuple[str, ...], shoe_id: str | None = None) -> bytes:
    limits = (
        ("25.00", "2500.00") if "LIMITS" in faults else (f"{session.minimum:.2f}", f"{session.maximum:.2f}")
    )
    doc = simulate_shoe(
        seed,
        session.profile,
        house_rules=dict(session.house_rules),
        limits=limits,
        table=session.table.code,
        shoe_id=shoe_id or f"{session.table.code}-{session.day:%Y%m%d}-DEMO-{seed}",
        faults=[f for f in faults if f != "LIMITS"],
    )
    return json.dumps(doc).encode()


def _receive(
    actor: Any, session: Session, seed: int, faults: tuple[str, ...], shoe_id: str | None = None
) -> None:
    log = services.upload_hand_log(
        actor=actor, session=session, raw=_log(session, seed, faults, shoe_id), source="command"
    )
    # replayed at once (the task queued on commit then finds the replay done)
    services.replay_hand_log(hand_log_id=log.pk)


def _open(director: Any, croupier: Any, table: Any, day: dt.date) -> Session:
    return services.open_session(
        actor=director,
        table=table,
        day=day,
        minimum=MINIMUM,
        maximum=MAXIMUM,
        advance_amount=ADVANCE,
        croupier=croupier,
        # LU art. 22: the cash shown at the start, at least the largest advance
        guarantee_fund=GUARANTEE_FUND if get_casino().profile == "LU" else None,
    )


def seed_tables(context: dict[str, Any]) -> None:
    """The demo's four tables (before the depot issues them decks)."""
    director = context["users"][roles.DIRECTOR]
    for number in range(1, 5):
        if not Table.objects.filter(number=number).exists():
            services.create_table(actor=director, number=number, code=f"BJ{number:02d}")
            context["created"].append(f"table BJ{number:02d}")
    context["tables"] = list(Table.objects.order_by("number"))


def seed(context: dict[str, Any]) -> None:
    tables = {t.number: t for t in context["tables"]}
    casino = get_casino()
    today = clock.demo_today()
    yesterday = today - dt.timedelta(days=1)
    # yesterday's books written as they were then, during yesterday's gaming day; under LU the
    # séances close at the closing hour the house books notified (midnight, until this morning)
    closes_at = dt.datetime.combine(today, dt.time(0, 0)) if casino.profile == "LU" else None
    if casino.profile == "LU" and not MinistryNotice.objects.exists():
        # LU art. 26: the raise of the minimum planned for next month, told to the minister when
        # the notice was sent (recorded then, its declared day that day)
        sent = today - dt.timedelta(days=10)
        with history_at(dt.datetime.combine(sent, dt.time(11, 0))):
            services.record_ministry_notice(
                actor=context["users"][roles.DIRECTOR],
                minimum=MINIMUM * 2,
                sent_on=sent,
                reference=f"MF/{sent.year}/026",
            )
        context["created"].append("notice to the minister")
    with history_at(dt.datetime.combine(yesterday, dt.time(21, 0))):
        _yesterday(context, tables, yesterday, closes_at)
    # the demo's "today" is the calendar day (the depot's demo issues its decks for it); seeded
    # after midnight but before the gaming day's roll-over, its acts are written at the roll-over
    now = timezone.now()
    moment = (
        now if casino.gaming_day(now) == today else dt.datetime.combine(today, casino.gaming_day_rollover)
    )
    with history_at(moment):
        _today(context, tables, today)


def _today(context: dict[str, Any], tables: dict[int, Any], today: dt.date) -> None:
    users = context["users"]
    director, croupier = users[roles.DIRECTOR], users[roles.CROUPIER]
    if not Session.objects.filter(day=today).exists():
        first = _open(director, croupier, tables[1], today)
        _open(director, croupier, tables[2], today)
        # hand logs only from a shoe of the depot's decks (FR art. 40, 55-4; LU art. 7, 32); at
        # table 2 the decks are still being unsealed: no shoe yet, no hand log
        for seed, faults in ((501, ()), (502, ("SETTLEMENT_MISMATCH",))):
            shoe = _fill_shoe(croupier, first)
            if shoe is not None:
                _receive(croupier, first, seed, faults, shoe.label)
        context["created"].append("sessions of today")


def _yesterday(
    context: dict[str, Any], tables: dict[int, Any], yesterday: dt.date, closes_at: dt.datetime | None
) -> None:
    """Yesterday's séances; closed as they go, or all at ``closes_at`` when given (then the day
    closed and corrected at that time too)."""
    users = context["users"]
    director, committee = users[roles.DIRECTOR], users[roles.COMMITTEE]
    croupier, cashier = users[roles.CROUPIER], users[roles.CASHIER]
    if not Session.objects.filter(day=yesterday).exists():
        closings = []
        for number, (logs, closing) in YESTERDAY.items():
            session = _open(director, croupier, tables[number], yesterday)
            if number == 2:
                services.add_advance(actor=committee, session=session, amount=ADVANCE, counted_by=croupier)
            if number == 3:
                # LU art. 23: a counted interruption is signed, before the cashier
                services.interrupt_session(
                    actor=croupier,
                    session=session,
                    mode="counted",
                    amount=Decimal("30120.00"),
                    signed_by=director,
                    cashier=cashier,
                )
                services.resume_session(actor=croupier, session=session)
            # the decks issued to the table for the day, checked there; a shoe per hand log
            decks = _issue_and_check(session, croupier)
            for i, faults in enumerate(logs):
                shoe = services.fill_shoe(actor=croupier, session=session, deck_ids=[d.pk for d in decks])
                _receive(croupier, session, 1000 * number + i, faults, shoe.label)
            _return(session)
            close = functools.partial(
                services.close_session,
                actor=director if number % 2 else committee,
                session=session,
                closing_cash=closing,
                counted_by=croupier,
                cashier=cashier,
                certified_exact=True,
            )
            if closes_at is None:
                close()
            else:
                closings.append(close)
        with _at(closes_at):
            for close in closings:
                close()
        context["created"].append("sessions of yesterday")
    # the director takes note of the discrepancies the replay found in yesterday's logs
    seen = Discrepancy.objects.filter(session__day=yesterday, acknowledgement__isnull=True).order_by("pk")
    if seen.exists():
        services.acknowledge_discrepancies(
            actor=director,
            discrepancies=list(seen),
            note="Vu avec le chef de table ; rappel de la procédure.",
        )
        context["created"].append("discrepancies acknowledged")
    control_day = ControlDay.objects.filter(day=yesterday).first()
    if control_day is not None and not control_day.is_closed:
        # the day is closed once it has ended, after midnight (FR art. 72)
        with _at(closes_at or _after_midnight(yesterday)):
            services.close_day(actor=director, day=yesterday)
            closing_line = Session.objects.get(day=yesterday, table=tables[4]).entries.get(
                kind=EntryKind.CLOSING
            )
            services.correct_advance_entry(
                actor=director,
                entry=closing_line,
                amount=(closing_line.amount or Decimal("0.00")) + Decimal("100.00"),
                approval="Approuvé : cent euros de plus, trente mille neuf cent quatre-vingts euros",
                reason="Plaque de 100 retrouvée dans le coffret à billets au recomptage.",
            )
        # the officer's visa on the day closed and corrected (FR art. 72, LU art. 10): a day left
        # unstamped is a breach once the visa's delay has run
        services.stamp_control_day(
            actor=users[roles.OFFICER],
            control_day=ControlDay.objects.get(day=yesterday),
            remark="Vu au registre de contrôle, rectification comprise.",
        )
        context["created"].append("closed control register day")


def seed_past_day(
    context: dict[str, Any],
    day: dt.date,
    plan: Sequence[tuple[int, bool, Decimal]],
    *,
    opens_at: dt.datetime,
    closes_at: dt.datetime,
    before_close: Callable[[list[Session]], None] | None = None,
) -> None:
    """An older gaming day: each ``(table, further advance, result)`` of ``plan`` opened from
    ``opens_at`` (ten minutes apart), with its advance, a shoe of a sixain the depot issued to
    the table for the day (checked there, back in the cabinet counted at the closing), a hand
    log dealt from that shoe, and maybe a second advance, closed at ``closes_at`` certified exact (its closing cash, the advances plus the
    result); then the day closed in the control register and stamped by the officer. ``before_close`` is given the open
    sessions just before their closing. Nothing is written if the day already has a session."""
    if Session.objects.filter(day=day).exists():
        return
    users = context["users"]
    director, committee = users[roles.DIRECTOR], users[roles.COMMITTEE]
    croupier, cashier = users[roles.CROUPIER], users[roles.CASHIER]
    tables = {t.number: t for t in context["tables"]}
    sessions, shoes = [], []
    for rank, (number, _further, _result) in enumerate(plan):
        with history_at(opens_at + dt.timedelta(minutes=10 * rank)):
            session = _open(director, croupier, tables[number], day)
            # its decks issued by the depot, checked at the table and put in the shoe
            decks = _issue_and_check(session, croupier)
            shoes.append(services.fill_shoe(actor=croupier, session=session, deck_ids=[d.pk for d in decks]))
            sessions.append(session)
    with history_at(opens_at + (closes_at - opens_at) / 2):
        for session, shoe, (number, further, _result) in zip(sessions, shoes, plan, strict=True):
            # the hands dealt from that shoe (FR art. 55-4; LU art. 32)
            _receive(croupier, session, 10 * day.toordinal() + number, (), shoe.label)
            if further:
                services.add_advance(actor=committee, session=session, amount=ADVANCE, counted_by=croupier)
    with history_at(closes_at):
        if before_close is not None:
            before_close(sessions)
        for session in sessions:
            _return(session)
        for rank, (session, (_number, further, result)) in enumerate(zip(sessions, plan, strict=True)):
            services.close_session(
                actor=director if rank % 2 else committee,
                session=session,
                closing_cash=ADVANCE * (2 if further else 1) + result,
                counted_by=croupier,
                cashier=cashier,
                certified_exact=True,
            )
    with history_at(max(closes_at + dt.timedelta(minutes=20), _after_midnight(day))):
        control_day = services.close_day(actor=director, day=day)
    # the officer's visa on the closed day, the next morning (FR art. 72)
    next_morning = timezone.make_aware(dt.datetime.combine(day + dt.timedelta(days=1), dt.time(10, 0)))
    with history_at(min(next_morning, timezone.now())):
        services.stamp_control_day(
            actor=users[roles.OFFICER], control_day=control_day, remark="Vu au registre de contrôle."
        )


def _after_midnight(day: dt.date) -> dt.datetime:
    """A few minutes into the date after ``day`` (never later than now): ``day`` has ended."""
    moment = timezone.make_aware(dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0, 5)))
    return min(moment, timezone.now())


def _at(moment: dt.datetime | None) -> contextlib.AbstractContextManager[None]:
    """The acts inside written at ``moment``, or at the enclosing time when ``None``."""
    return history_at(moment) if moment is not None else contextlib.nullcontext()


def _fill_shoe(croupier: Any, session: Session) -> Any:
    """A shoe from three blue and three red decks the depot issued to the table today and that
    were unsealed at the table (FR art. 40, LU art. 7), if any."""
    by_colour: dict[str, list[Any]] = {}
    for deck in decks_checked_for_play(table_number=session.table.number, day=session.day):
        by_colour.setdefault(deck.back_colour, []).append(deck)
    pairs = [decks for decks in by_colour.values() if len(decks) >= 3]
    if len(pairs) < 2:
        return None
    decks = pairs[0][:3] + pairs[1][:3]
    return services.fill_shoe(actor=croupier, session=session, deck_ids=[d.pk for d in decks])


def _sixain_in_cabinet(day: dt.date) -> list[Any]:
    """A sixain received by ``day`` whose six decks are in the cabinet, fit for play (the oldest
    first: used decks go back to the tables until they are worn)."""
    by_sixain: dict[int, list[Any]] = {}
    live = Shoe.objects.filter(session__status__in=[SessionStatus.OPEN, SessionStatus.INTERRUPTED])
    in_live_shoes = ShoeDeck.objects.filter(shoe_id__in=last_shoe_ids(live)).values("deck_id")
    decks = (
        Deck.objects.filter(status=DeckStatus.IN_CABINET, sixain__reception__received_on__lte=day)
        .exclude(pk__in=in_live_shoes)
        .select_related("manufacturer")
        .order_by("sixain__reception__received_on", "sixain__serial", "serial")
    )
    for deck in decks:
        if deck.sixain_id is not None:
            by_sixain.setdefault(deck.sixain_id, []).append(deck)
    full = [found for found in by_sixain.values() if len(found) == 6]
    if not full:
        raise RuntimeError(f"no sixain in the cabinet for {day}")
    return full[0]


def _key_holder() -> Any:
    """The holder of the cabinet's single key (the depot's demo gives it to the director)."""
    holder = current_key_holder()
    if holder is None:
        raise RuntimeError("the card depot's key is held by no one")
    return holder


def _check_at_table(session: Session, croupier: Any, decks: Sequence[Any]) -> None:
    for index, deck in enumerate(decks, start=1):
        depot.check_at_table(
            actor=croupier,
            deck=deck,
            table_number=session.table.number,
            day=session.day,
            witness="Inspecteur de salle M. Garnier",
            order_checked=True,
            cards_counted=52,
            band_intact=True,
            video_reference=f"CAM-{session.table.code}-{session.day:%Y%m%d}-{session.pk}-{index}",
        )


def _issue_and_check(session: Session, croupier: Any) -> list[Any]:
    """A sixain of the cabinet issued to the séance's table for its day by the key holder and
    checked at the table, new decks unsealed (FR art. 40, LU art. 7)."""
    decks = _sixain_in_cabinet(session.day)
    depot.issue_decks(
        actor=_key_holder(),
        table_number=session.table.number,
        day=session.day,
        decks=decks,
        received_by=croupier,
    )
    _check_at_table(session, croupier, decks)
    return decks


def _return(session: Session) -> None:
    """The table's decks back to the cabinet at the end of play, counted and fit (FR art. 40 §5,
    LU art. 7 §5)."""
    out = list(decks_out(table_number=session.table.number, day=session.day))
    if out:
        depot.return_decks(
            actor=_key_holder(),
            table_number=session.table.number,
            day=session.day,
            results=[(d, "fit", "", 52) for d in out],
        )
