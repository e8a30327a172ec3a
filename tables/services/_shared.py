"""What the acts of the tables share: who may sign or count, the locks, the
refusal of a closed day, and the advance book's next line (FR art. 42, 68, 69; LU art. 9, 10)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import TypeVar

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Max, Model

from cards_registry.selectors import decks_out
from casino_ops import access
from casino_ops.access import Act
from casino_ops.models import CasinoSettings
from casino_ops.regulations import cite

from .. import clock, rules
from ..models import (
    AdvanceEntry,
    AuthorisedMinimum,
    ControlDay,
    Delegation,
    EntryKind,
    Session,
    Shoe,
    Table,
)
from ..rules import sessions as session_rules

M = TypeVar("M", bound=Model)

ADVANCE_KINDS = (EntryKind.INITIAL_ADVANCE, EntryKind.FURTHER_ADVANCE)
AMOUNT_KINDS = (*ADVANCE_KINDS, EntryKind.INTERRUPTION_COUNTED, EntryKind.CLOSING)


def _require_signer(user: User | None, profile: str, field: str = "signed_by") -> None:
    """A director or a committee member signs the advance book (FR art. 69, LU art. 10)."""
    if field == "actor":
        access.require(user, Act.SIGN_ADVANCE, profile=profile)
    else:
        access.require_named(user, Act.SIGN_ADVANCE, profile=profile, field=field)


def _require_management(user: User, profile: str, field: str = "actor") -> None:
    """Tables are put on the floor by the director or a committee member (the casino's management)."""
    access.require(user, Act.PUT_ON_FLOOR, profile=profile, field=field)


def _require_table_staff(user: User | None, profile: str, field: str = "counted_by") -> None:
    """The advance and the closing cash are counted by the table's croupier (FR art. 69, LU art. 10)."""
    if field == "actor":
        access.require(user, Act.COUNT, profile=profile)
    else:
        access.require_named(user, Act.COUNT, profile=profile, field=field)


def _require_director(user: User, profile: str) -> None:
    """Corrections are approved by the director in words (FR art. 68); he closes the day (FR art. 72)."""
    access.require(user, Act.CONTROL_REGISTER, profile=profile)


def _require_maximum_fixer(user: User, profile: str, day: dt.date, field: str = "actor") -> Delegation | None:
    """The maximum is fixed by the director (FR art. 55-5 §4, LU art. 33 §4), or by a committee
    member recorded as his approved delegate for the direction of play on that day (LU art. 51 V).
    Returns the delegation used (None for the director)."""
    if access.may(user, Act.FIX_MAXIMUM):
        access.require_approved(user, Act.FIX_MAXIMUM, profile=profile, field=field)
        return None
    delegation = None
    if access.may(user, Act.FIX_MAXIMUM_AS_DELEGATE):
        delegations = Delegation.objects.filter(delegate=user, valid_from__lte=day).order_by("-valid_from")
        delegation = next((d for d in delegations if d.covers(day)), None)
    else:  # neither the director nor a committee member: not a matter of delegation
        access.require(user, Act.FIX_MAXIMUM, profile=profile, field=field)
    session_rules.check_delegation_covers(delegation, profile, field)
    access.require_approved(user, Act.FIX_MAXIMUM_AS_DELEGATE, profile=profile, field=field)
    return delegation


def _authorised_minimum(casino: CasinoSettings, day: dt.date) -> Decimal:
    """The authorised minimum on ``day``: the latest act citing the decree, in force and stamped
    by an officer by that day; before any such act, the casino's setting."""
    acts = AuthorisedMinimum.objects.filter(stamped_at__isnull=False, in_force_on__lte=day).order_by(
        "-in_force_on", "-stamped_at"
    )
    for act in acts:
        if act.stamped_at is not None and clock_day(act.stamped_at, casino) <= day:
            return act.minimum
    return casino.authorised_min_stake


def clock_day(moment: dt.datetime, casino: CasinoSettings) -> dt.date:
    return casino.gaming_day(moment)


def _refuse_closed_day(day: dt.date, profile: str, *, lock: bool = False) -> ControlDay | None:
    query = ControlDay.objects.filter(day=day)
    if lock:
        query = query.select_for_update(no_key=True)
    control_day = query.first()
    session_rules.check_day_open(control_day is not None and control_day.is_closed, day, profile)
    return control_day


def _share_lock_day(day: dt.date, profile: str) -> None:
    """Hold the day's control-register row FOR SHARE until commit, and refuse a closed day
    (read under that lock, in the same statement): concurrent uploads go on side by side,
    while ``close_day`` (which locks the row for update) waits for them, and a log stored
    after the closing sees the day closed."""
    if connection.vendor != "postgresql":
        _refuse_closed_day(day, profile)  # SQLite runs one writing transaction at a time
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT closed_at IS NOT NULL FROM {ControlDay._meta.db_table} WHERE day = %s FOR SHARE",  # noqa: S608
            [day],
        )
        row = cursor.fetchone()
    session_rules.check_day_open(row is not None and bool(row[0]), day, profile)


def _next_line(table: Table) -> int:
    """The next line of the table's advance book; the table row is locked until commit."""
    Table.objects.select_for_update(no_key=True).filter(pk=table.pk).values_list("pk", flat=True).get()
    last = AdvanceEntry.objects.filter(table=table).aggregate(m=Max("line"))["m"]
    return (last or 0) + 1


def _entry(
    session: Session,
    kind: str,
    *,
    amount: Decimal | None = None,
    counted_by: User | None = None,
    signed_by: User | None = None,
    cashier: User | None = None,
    key_holder: User | None = None,
    corrects: AdvanceEntry | None = None,
    note: str = "",
    at: dt.datetime | None = None,
) -> AdvanceEntry:
    entry = AdvanceEntry(
        table=session.table,
        line=_next_line(session.table),
        session=session,
        kind=kind,
        amount=amount,
        at=at or clock.now(),
        counted_by=counted_by,
        signed_by=signed_by,
        cashier=cashier,
        key_holder=key_holder,
        corrects=corrects,
        note=note,
    )
    return _save(entry, cite("advance.book", session.profile))


def _save(instance: M, article: str, *, update_fields: list[str] | None = None) -> M:
    """Validate (a bad value is a RegulationError naming the field, citing ``article``), then save:
    a new row is inserted, an existing one updated in ``update_fields`` only."""
    rules.validated(instance, article, fields=update_fields)
    if update_fields is None:
        instance.save(force_insert=True)
    else:
        instance.save(update_fields=update_fields)
    return instance


def _lock_session(session: Session | int) -> Session:
    pk = session if isinstance(session, int) else session.pk
    return Session.objects.select_for_update(no_key=True, of=("self",)).select_related("table").get(pk=pk)


def _require_status(session: Session, *allowed: str, field: str = "session") -> None:
    session_rules.check_status(session, allowed, field)


def _user_id(user: User | None) -> int | None:
    return getattr(user, "pk", None)


# -- sessions, limits, advances ----------------------------------------------------------


def _refuse_decks_out(profile: str, *, day: dt.date, table_number: int | None = None) -> None:
    """A session (its table's decks) or the day (every table's) is not closed while decks
    issued by the card depot are not back in the cabinet (FR art. 40 §5, LU art. 7 §5)."""
    serials = list(decks_out(table_number=table_number, day=day).values_list("serial", flat=True))
    session_rules.check_no_decks_out(serials, profile, table_number=table_number)


def _require_decks_in_shoe(session: Session, *, field: str, recording: str) -> None:
    """A séance records rounds (hand logs) or a result only when decks of the depot are in a
    shoe of it: decks issued to its table for its gaming day (or used decks checked at its
    start), unsealed or checked at the table and put in the shoe (FR art. 40, 55-4; LU art. 7,
    32). ``recording`` names what is refused."""
    has_shoe = Shoe.objects.filter(session_id=session.pk).exists()
    session_rules.check_decks_in_shoe(has_shoe, session, field=field, recording=recording)
