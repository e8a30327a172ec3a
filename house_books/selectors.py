"""Reading the other books (for the registers, the API, the portal and the inspection)."""

from __future__ import annotations

import datetime as dt
import functools
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db.models import Exists, F, Max, OuterRef, Q, Subquery, Sum
from django.utils import timezone

from audit.actions import Action
from audit.models import AuditEvent
from cards_registry import selectors as depot
from casino_ops import clock, roles
from casino_ops.services import get_casino
from tables import selectors as tables

from .models import (
    Approval,
    ApprovalEnd,
    ApprovalFunction,
    BankFailure,
    ClosingDown,
    DeviceAssignment,
    DeviceState,
    Disposal,
    EarlyStop,
    Exclusion,
    ExclusionOrigin,
    OrphanEntry,
    OrphanRepayment,
    OrphanTransfer,
    RefusedEntry,
    RoleEntry,
    RoleEntryKind,
    SeanceHours,
    ShoeDevice,
    TableNotice,
    TipsCount,
)
from .rules import approvals as approval_rules
from .rules.people import INCOMPATIBLE

if TYPE_CHECKING:
    import holidays

ZERO = Decimal("0.00")


def _sum(query: Any, field: str = "amount") -> Decimal:
    return query.aggregate(total=Sum(field))["total"] or ZERO


# -- Orphans ------------------------------------------------------------------------------------


def orphan_entry_balance(entry: Any) -> Decimal:
    """What is left of one entry after its repayments."""
    amount: Decimal = entry.amount
    return amount - _sum(entry.repayments.all())


def orphan_balance(exercise: int) -> Decimal:
    """The credit balance of the account "orphelins" for ``exercise``."""
    return (
        _sum(OrphanEntry.objects.filter(exercise=exercise))
        - _sum(OrphanRepayment.objects.filter(entry__exercise=exercise))
        - _sum(OrphanTransfer.objects.filter(exercise=exercise))
    )


def orphan_entries(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    query = (
        OrphanEntry.objects.select_related("recorded_by").prefetch_related("repayments").order_by("number")
    )
    if date_from is not None:
        query = query.filter(found_at__date__gte=date_from)
    if date_to is not None:
        query = query.filter(found_at__date__lte=date_to)
    return query


def orphan_repayments(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    query = OrphanRepayment.objects.select_related("entry", "recorded_by").order_by("repaid_on", "pk")
    if date_from is not None:
        query = query.filter(repaid_on__gte=date_from)
    if date_to is not None:
        query = query.filter(repaid_on__lte=date_to)
    return query


def orphan_transfers(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    query = OrphanTransfer.objects.select_related("recorded_by").order_by("exercise")
    if date_from is not None:
        query = query.filter(transferred_on__gte=date_from)
    if date_to is not None:
        query = query.filter(transferred_on__lte=date_to)
    return query


def orphan_exercises_open(before: int) -> list[tuple[int, Decimal]]:
    """Exercises before ``before`` with orphans but no transfer: (exercise, balance)."""
    done = set(OrphanTransfer.objects.values_list("exercise", flat=True))
    years = sorted(set(OrphanEntry.objects.filter(exercise__lt=before).values_list("exercise", flat=True)))
    return [(year, orphan_balance(year)) for year in years if year not in done]


def orphans_entered_late(day: dt.date | None = None) -> list[Any]:
    """Entries written after the gaming day their sum was found (LU art. 8: paid at once into
    the cash and written in the book), whatever the delay: every one, or (``day``) those found
    or written on that gaming day."""
    casino = get_casino()
    query = orphan_entries()
    if day is not None:  # found that day, or written that day (±1 for the roll-over)
        near = (day - dt.timedelta(days=1), day + dt.timedelta(days=1))
        query = query.filter(Q(found_at__date__range=near) | Q(recorded_at__date__range=near))
    late = []
    for entry in query:
        found, written = casino.gaming_day(entry.found_at), casino.gaming_day(entry.recorded_at)
        if written > found and (day is None or day in (found, written)):
            late.append(entry)
    return late


# -- Approvals ----------------------------------------------------------------------------------


def _in_force_on(day: dt.date) -> Any:
    """The approvals in force on ``day``: given on or before it, not ended, revoked, resigned
    or dismissed on or before it."""
    return (
        Approval.objects.filter(approved_on__lte=day)
        .filter(Q(ended_on__isnull=True) | Q(ended_on__gt=day))
        .exclude(Exists(_revoked_since(day)))
    )


def _revoked_since(day: dt.date) -> Any:
    """A revocation of the same person between the approval's start and ``day``: it ended every
    power of that person (LU art. 51 IV), whatever other approval he held, which never launders
    it."""
    return Approval.objects.filter(
        person=OuterRef("person"),
        end_kind=ApprovalEnd.REVOKED,
        ended_on__gte=OuterRef("approved_on"),
        ended_on__lte=day,
    )


def approved_on(user: Any, day: dt.date) -> bool:
    """Whether ``user`` holds an approval in force on ``day``."""
    if user is None or not getattr(user, "pk", None):
        return False
    return bool(_in_force_on(day).filter(person=user).exists())


def approvals_in_force(people: list[Any], day: dt.date) -> tuple[bool, set[Any]]:
    """Whether the book of approvals is kept, and which of ``people`` hold an approval in
    force on ``day`` (their keys), in one query: :func:`approvals_book_kept` and
    :func:`approved_on` for each person, as an act that names several people reads them. The
    gate of every act reads it: the people's rows (and one row of the book, to tell that it is
    kept) are read plainly and judged by :func:`house_books.rules.approvals.in_force_on`, a
    query of a few columns costing the gate a fifth of one built of subqueries."""
    ids = list(dict.fromkeys(p.pk for p in people if p is not None and getattr(p, "pk", None)))
    if not ids:
        return approvals_book_kept(), set()
    any_row = Approval.objects.order_by().values("pk")[:1]
    rows = (
        Approval.objects.filter(Q(person__in=ids) | Q(pk=Subquery(any_row)))
        .order_by()
        .values_list("person", "approved_on", "ended_on", "end_kind")
    )
    kept = False
    held: dict[Any, list[tuple[dt.date, dt.date | None, str]]] = {pk: [] for pk in ids}
    for person, approved, ended, kind in rows:
        kept = True
        if person in held:
            held[person].append((approved, ended, kind))
    return kept, {person for person, own in held.items() if approval_rules.in_force_on(own, day)}


#: Bumped by every act on the book of approvals and by every act at its gate: a person's
#: approvals read for a day are kept on the person's instance (:func:`approval_memo`) for the act
#: in course only, and never once the book has changed.
_APPROVALS_GENERATION = [0]


def approvals_changed() -> None:
    """An approval was recorded or ended, or a new act starts: forget every memo of approvals."""
    _APPROVALS_GENERATION[0] += 1


def approval_memo(person: Any, day: dt.date) -> tuple[bool, bool] | None:
    """(book kept, approval in force) for ``person`` on ``day`` as read for the act in course,
    or ``None``: not read since the book last changed. The gate and the act's own check read a
    person once (one query per act)."""
    memo = getattr(person, "_approvals_in_force_memo", None)
    if not memo or memo[0] != _APPROVALS_GENERATION[0]:
        return None
    found: tuple[bool, bool] | None = memo[1].get(day)
    return found


def remember_approval(person: Any, day: dt.date, kept: bool, in_force: bool) -> None:
    memo: tuple[int, dict[dt.date, tuple[bool, bool]]] | None = getattr(
        person, "_approvals_in_force_memo", None
    )
    if not memo or memo[0] != _APPROVALS_GENERATION[0]:
        memo = (_APPROVALS_GENERATION[0], {})
        try:
            person._approvals_in_force_memo = memo
        except AttributeError:  # a person that takes no attribute: read again next time
            return
    memo[1][day] = (kept, in_force)


def revocation_of(user: Any, day: dt.date) -> Any:
    """The revocation by the minister, on or before ``day``, of an approval ``user`` held
    (``None``: none)."""
    return (
        Approval.objects.filter(person=user, end_kind=ApprovalEnd.REVOKED, ended_on__lte=day)
        .order_by("-ended_on")
        .first()
    )


def last_revocation_of(user: Any) -> Any:
    """The latest revocation by the minister of any approval ``user`` held (``None``: none)."""
    return (
        Approval.objects.filter(person=user, end_kind=ApprovalEnd.REVOKED, ended_on__isnull=False)
        .order_by("-ended_on", "-pk")
        .first()
    )


#: LU art. 51 I: a casino that plays counterpart games other than the boule and the vingt-trois
#: (blackjack is one) has a management committee of at least four members, the director included.
COMMITTEE_MINIMUM = 4


def committee_in_force(day: dt.date) -> list[Any]:
    """The director and the committee members approved and in force on ``day``."""
    return list(
        Approval.objects.filter(
            function__in=[ApprovalFunction.DIRECTOR, ApprovalFunction.COMMITTEE], approved_on__lte=day
        )
        .filter(Q(ended_on__isnull=True) | Q(ended_on__gt=day))
        .exclude(Exists(_revoked_since(day)))
        .select_related("person")
        .order_by("function", "approved_on", "pk")
    )


def approvals(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    """Approvals given or ended in the period (all when no period)."""
    query = Approval.objects.select_related("person", "recorded_by", "ended_by").order_by("approved_on", "pk")
    if date_from is not None and date_to is not None:
        query = query.filter(
            Q(approved_on__lte=date_to) & (Q(ended_on__isnull=True) | Q(ended_on__gte=date_from))
        )
    return query


# -- Tips ---------------------------------------------------------------------------------------


def tips_counts(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    query = TipsCount.objects.select_related("counted_by", "witness").order_by("day")
    if date_from is not None:
        query = query.filter(day__gte=date_from)
    if date_to is not None:
        query = query.filter(day__lte=date_to)
    return query


def tips_account(date_from: dt.date, date_to: dt.date) -> list[dict[str, Any]]:
    """The account "pourboires": one line per day counted, with the exercise's running total."""
    before = _sum(TipsCount.objects.filter(day__year=date_from.year, day__lt=date_from))
    lines: list[dict[str, Any]] = []
    running = before
    for count in tips_counts(date_from, date_to):
        if count.day.year != (lines[-1]["day"].year if lines else date_from.year):
            running = ZERO
        running += count.amount
        lines.append({"day": count.day, "amount": count.amount, "total": running, "count": count})
    return lines


def days_without_tips_count(days: list[dt.date]) -> list[dt.date]:
    counted = set(TipsCount.objects.filter(day__in=days).values_list("day", flat=True))
    return [d for d in days if d not in counted]


# -- Séance hours (LU art. 71) ------------------------------------------------------------------


def hours_in_force(at: dt.datetime) -> Any:
    """The séance hours notified and in force at ``at`` (``None`` when none was notified)."""
    return SeanceHours.objects.filter(effective_from__lte=at).order_by("-effective_from", "-pk").first()


def is_sunday_or_holiday(day: dt.date, profile: str | None = None) -> bool:
    """Sundays and the country's legal public holidays (LU art. 71: the start hour may
    differ "les dimanches et jours fériés"): Luxembourg's under LU, France's under FR
    (the python-holidays calendars, Easter's moving feasts included)."""
    if day.weekday() == 6:
        return True
    return day in _public_holidays(profile or get_casino().profile, day.year)


@functools.cache
def _public_holidays(profile: str, year: int) -> holidays.HolidayBase:
    # imported here, not with the module: every process loads this module with the admin (a
    # command, a worker), and the calendars cost it a fifteenth of its start
    import holidays

    return holidays.country_holidays("LU" if profile == "LU" else "FR", years=year)


def seance_window(hours: Any, day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """When the séances of gaming ``day`` may begin and when they close, under ``hours``
    (a closing hour at or before the start hour falls on the next morning)."""
    start_time = hours.holiday_start if is_sunday_or_holiday(day) else hours.weekday_start
    start = timezone.make_aware(dt.datetime.combine(day, start_time))
    close_day = day if hours.closing > start_time else day + dt.timedelta(days=1)
    return start, timezone.make_aware(dt.datetime.combine(close_day, hours.closing))


def seance_hours(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    query = SeanceHours.objects.select_related("recorded_by").order_by("effective_from", "pk")
    if date_to is not None:
        query = query.filter(effective_from__date__lte=date_to)
    return query


def early_stops(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    query = EarlyStop.objects.select_related("session__table", "recorded_by").order_by("stopped_at", "pk")
    if date_from is not None:
        query = query.filter(session__day__gte=date_from)
    if date_to is not None:
        query = query.filter(session__day__lte=date_to)
    return query


def sessions_outside_hours(first: dt.date, last: dt.date) -> list[tuple[Any, str]]:
    """Séances of ``first``..``last`` opened before their start hour, closed before the closing
    hour without a recorded reason, or played past the closing hour (LU art. 71): closed after
    it, still open after it, or a shoe filled at or after it: (session, what)."""
    found = []
    now = clock.now()
    for session in (
        tables.sessions()
        .filter(day__gte=first, day__lte=last)
        .annotate(last_filled=Max("shoes__filled_at"))
        .select_related("table")
        .order_by("day", "pk")
    ):
        hours = hours_in_force(session.opened_at)
        if hours is None:
            continue
        start, close = seance_window(hours, session.day)
        if session.opened_at < start:
            found.append((session, "early_open"))
        closed_at = getattr(session, "closed_at", None)
        if closed_at is not None and closed_at < close and not _has_early_stop(session):
            found.append((session, "early_close"))
        if closed_at is not None and closed_at > close:
            found.append((session, "late_close"))
        elif closed_at is None and now > close:
            found.append((session, "open_late"))
        if session.last_filled is not None and session.last_filled >= close:
            found.append((session, "late_shoe"))
    return found


def early_stop_of(session: Any) -> Any:
    return EarlyStop.objects.filter(session=session).first()


def _has_early_stop(session: Any) -> bool:
    return EarlyStop.objects.filter(session=session).exists()


# -- Bank failure (LU art. 11) ------------------------------------------------------------------


def pending_bank_failure(at: dt.datetime) -> Any:
    """The bank failure before ``at`` with no new authorisation yet (``None``: none)."""
    return (
        BankFailure.objects.filter(occurred_at__lte=at, new_authorisation__isnull=True)
        .order_by("occurred_at")
        .first()
    )


def bank_failures(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    query = BankFailure.objects.select_related("recorded_by", "new_authorisation").order_by("occurred_at")
    if date_from is not None:
        query = query.filter(occurred_at__date__gte=date_from)
    if date_to is not None:
        query = query.filter(occurred_at__date__lte=date_to)
    return query


def sessions_opened_without_authorisation(first: dt.date, last: dt.date) -> list[tuple[Any, Any]]:
    """Séances opened after a bank failure and before its new authorisation."""
    found: list[tuple[Any, Any]] = []
    failures = list(BankFailure.objects.select_related("new_authorisation"))
    if not failures:
        return found
    for session in tables.sessions().filter(day__gte=first, day__lte=last).select_related("table"):
        for failure in failures:
            authorisation = getattr(failure, "new_authorisation", None)
            # the séances may open again from the day the new authorisation is granted (an
            # opening before it is recorded is refused by the act itself)
            resumed = (
                timezone.make_aware(dt.datetime.combine(authorisation.granted_on, dt.time.min))
                if authorisation is not None
                else None
            )
            if session.opened_at >= failure.occurred_at and (resumed is None or session.opened_at < resumed):
                found.append((session, failure))
    return found


# -- Acts by people not approved (LU art. 51, 54, 63) -------------------------------------------


def approvals_book_kept() -> bool:
    return Approval.objects.exists()


def acts_by_unapproved(first: dt.date, last: dt.date) -> list[tuple[Any, str, Any]]:
    """Entries of the advance books of ``first``..``last`` signed or counted by someone not
    approved that day: (entry, role, person)."""
    found = []
    for entry in tables.advance_entries(first, last).order_by("session__day", "pk"):
        for role in ("signed_by", "counted_by"):
            person = getattr(entry, role, None)
            if person is not None and not approved_on(person, entry.session.day):
                found.append((entry, role, person))
    return found


# -- Shoe devices (LU art. 32 §3, 40, 52) -------------------------------------------------------


def devices() -> Any:
    return ShoeDevice.objects.select_related("recorded_by").order_by("number")


def device_assignments(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    query = DeviceAssignment.objects.select_related("device", "assigned_by").order_by("day", "table_number")
    if date_from is not None:
        query = query.filter(day__gte=date_from)
    if date_to is not None:
        query = query.filter(day__lte=date_to)
    return query


def devices_out_of_cabinet(before: dt.date) -> list[Any]:
    """Assignments of days before ``before`` whose shoe never went back to the cabinet."""
    return list(device_assignments(date_to=before - dt.timedelta(days=1)).filter(returned_at__isnull=True))


def devices_used_before_registered(first: dt.date, last: dt.date) -> list[Any]:
    """Assignments of ``first``..``last`` for a gaming day before the shoe entered the
    cabinet's book (the inventory precedes the use, LU art. 32 §3, 40)."""
    casino = get_casino()
    return [
        a
        for a in device_assignments(first, last).select_related("device")
        if a.day < casino.gaming_day(a.device.recorded_at)
    ]


def systematic_assignments(first: dt.date, last: dt.date, minimum: int = 3) -> list[tuple[int, int, dt.date]]:
    """(device number, table, Monday) when a device served the same table at every séance
    (at least ``minimum``) that table held in a week."""
    weeks: dict[tuple[int, dt.date], list[int]] = defaultdict(list)
    for a in device_assignments(first, last):
        monday = a.day - dt.timedelta(days=a.day.weekday())
        weeks[(a.table_number, monday)].append(a.device.number)
    return [
        (numbers[0], table, monday)
        for (table, monday), numbers in sorted(weeks.items())
        if len(numbers) >= minimum and len(set(numbers)) == 1
    ]


# -- Exclusions ---------------------------------------------------------------------------------


def exclusions(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    """The fichier des exclus: measures in force during the period (decided by its end, not
    lifted before its start), oldest first."""
    query = Exclusion.objects.select_related("recorded_by").order_by("decided_on", "pk")
    if date_to is not None:
        query = query.filter(decided_on__lte=date_to)
    if date_from is not None:
        query = query.filter(Q(lifted_on__isnull=True) | Q(lifted_on__gte=date_from))
    return query


def refused_entries(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    """The entries refused at the door under an exclusion (LU art. 67, 75), by exclusion (in
    the order of the fichier) then by moment; within the period when one is given."""
    query = RefusedEntry.objects.select_related("exclusion", "recorded_by").order_by(
        "exclusion__decided_on", "exclusion_id", "refused_at", "pk"
    )
    if date_from is not None:
        query = query.filter(refused_at__date__gte=date_from)
    if date_to is not None:
        query = query.filter(refused_at__date__lte=date_to)
    return query


@dataclass(frozen=True)
class ExclusionNotice:
    """A notice of the fichier des exclus: the day the director declared, the moment the system
    recorded it (never typed), and the gaming days between."""

    exclusion: Exclusion
    kind: str  # "director_notice" (LU art. 68: the minister's decision told to the director) or
    # "minister_notice" (LU art. 69: the casino's own measure notified to the minister)
    declared: dt.date
    recorded_at: dt.datetime
    gap_days: int


def exclusion_notices(day: dt.date | None = None) -> list[ExclusionNotice]:
    """Every notice of the fichier with its declared day and its recording: the minister's decision
    is recorded with the exclusion's entry (its ``recorded_at``), the notice to the minister by its
    own act (the moment of its event in the chain, the last when given again). ``day``: only those
    declared or recorded on that gaming day."""
    casino = get_casino()
    found: list[ExclusionNotice] = []

    def add(exclusion: Exclusion, kind: str, declared: dt.date, recorded_at: dt.datetime) -> None:
        recorded_day = casino.gaming_day(recorded_at)
        if day is None or day in (declared, recorded_day):
            found.append(
                ExclusionNotice(exclusion, kind, declared, recorded_at, (recorded_day - declared).days)
            )

    for exclusion in Exclusion.objects.filter(
        origin=ExclusionOrigin.MINISTER, director_notified_on__isnull=False
    ).order_by("pk"):
        if exclusion.director_notified_on is not None:
            add(exclusion, "director_notice", exclusion.director_notified_on, exclusion.recorded_at)
    own = {
        str(e.pk): e
        for e in Exclusion.objects.filter(origin=ExclusionOrigin.CASINO, minister_notified_on__isnull=False)
    }
    recorded: dict[str, dt.datetime] = dict(
        AuditEvent.objects.filter(
            object_type=Exclusion._meta.label_lower,
            object_id__in=list(own),
            action=Action.HOUSE_EXCLUSION_NOTIFIED,
        )
        .order_by("id")
        .values_list("object_id", "recorded_at")
    )
    for pk, exclusion in sorted(own.items(), key=lambda item: int(item[0])):
        if pk in recorded and exclusion.minister_notified_on is not None:
            add(exclusion, "minister_notice", exclusion.minister_notified_on, recorded[pk])
    return found


def exclusion_notice_recordings(exclusions: list[Exclusion]) -> dict[int, dt.datetime]:
    """The moment each exclusion's notice was recorded (its entry for the minister's decisions, the
    last notice act for the casino's own): what the register and the admin show beside the day."""
    recorded = {e.pk: e.recorded_at for e in exclusions if e.origin == ExclusionOrigin.MINISTER}
    own = [str(e.pk) for e in exclusions if e.origin == ExclusionOrigin.CASINO and e.minister_notified_on]
    if own:
        for object_id, at in (
            AuditEvent.objects.filter(
                object_type=Exclusion._meta.label_lower,
                object_id__in=own,
                action=Action.HOUSE_EXCLUSION_NOTIFIED,
            )
            .order_by("id")
            .values_list("object_id", "recorded_at")
        ):
            recorded[int(object_id)] = at
    return recorded


def own_exclusions_not_notified(today: dt.date, notice_days: int) -> Any:
    """The casino's own exclusions whose notice to the minister is missing past the delay,
    or was given late."""
    limit = dt.timedelta(days=notice_days)
    return (
        Exclusion.objects.filter(origin=ExclusionOrigin.CASINO)
        .filter(
            Q(minister_notified_on__isnull=True, decided_on__lt=today - limit)
            | Q(minister_notified_on__gt=F("decided_on") + limit)
        )
        .order_by("decided_on", "pk")
    )


# -- Closing down (LU art. 52) -------------------------------------------------------------------


def closing_down() -> ClosingDown | None:
    """The casino's closing down, if recorded (with who recorded and stamped it)."""
    return ClosingDown.objects.select_related("recorded_by", "visa_by").first()


def closed_at_or_before(at: dt.datetime) -> ClosingDown | None:
    """The closing down in force at ``at``: no séance opens after it."""
    return ClosingDown.objects.filter(closed_at__lte=at).first()


def closings(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    query = ClosingDown.objects.select_related("recorded_by", "visa_by").order_by("closed_at")
    if date_from:
        query = query.filter(closed_at__date__gte=date_from)
    if date_to:
        query = query.filter(closed_at__date__lte=date_to)
    return query


def closings_awaiting_visa() -> Any:
    return ClosingDown.objects.filter(visa_by__isnull=True).order_by("closed_at")


def things_not_disposed() -> list[tuple[str, str]]:
    """After a closing down, what is still held: ``(kind, label)`` with kind ``deck`` or
    ``device``. A deck held by the depot and absent from the closing's list, a deck listed for
    destruction that the depot still holds, a shoe device still in the cabinet's book."""
    closing = ClosingDown.objects.first()
    if closing is None:
        return []
    listed = {(d["manufacturer"], d["serial"]) for d in closing.decks}
    held = {
        (deck.manufacturer.code, deck.serial)
        for query in (depot.decks_in_cabinet_per_books(), depot.decks_out())
        for deck in query.select_related("manufacturer")
    }
    found: list[tuple[str, str]] = []
    for code, serial in sorted(held):
        if (code, serial) not in listed or closing.disposal == Disposal.DESTROYED:
            found.append(("deck", f"{code} {serial}"))
    for number in ShoeDevice.objects.exclude(state=DeviceState.DISPOSED).values_list("number", flat=True):
        found.append(("device", str(number)))
    return found


# -- Table notices (LU art. 74) --------------------------------------------------------------------


def table_notices(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    query = TableNotice.objects.select_related("posted_by").order_by("table_number", "posted_at")
    if date_from:
        query = query.filter(day__gte=date_from)
    if date_to:
        query = query.filter(day__lte=date_to)
    return query


def notices_in_force() -> list[dict[str, Any]]:
    """Each table in service with its limits in force and its last posted notice
    (``notice``: ``None`` if none), and ``stale``: the notice differs from the limits."""
    last: dict[int, TableNotice] = {}
    for posted in TableNotice.objects.select_related("posted_by").order_by("table_number", "posted_at"):
        last[posted.table_number] = posted
    rows = []
    for row in tables.limits_in_force():
        notice = last.get(row["number"])
        stale = (
            notice is not None
            and row["minimum"] is not None
            and (
                (notice.minimum, notice.maximum, notice.advance)
                != (row["minimum"], row["maximum"], row["advance"])
            )
        )
        rows.append({**row, "notice": notice, "stale": stale})
    return rows


def table_notices_kept() -> bool:
    return TableNotice.objects.exists()


def devices_book_kept() -> bool:
    """Whether the casino keeps its book of shoe devices (at least one registered)."""
    return ShoeDevice.objects.exists()


def device_assigned(table_number: int, day: dt.date) -> bool:
    """Whether the director assigned a shoe to table ``table_number`` for the séance of ``day``."""
    return DeviceAssignment.objects.filter(table_number=table_number, day=day).exists()


def days_played_without_approvals_book(first: dt.date, last: dt.date) -> list[dt.date]:
    """The days of ``first``..``last`` with a séance, when no approval at all is in the book."""
    if approvals_book_kept():
        return []
    return sorted(set(tables.sessions().filter(day__gte=first, day__lte=last).values_list("day", flat=True)))


# -- The book of roles (FR art. 68, 69; LU art. 10, 51, 54) -------------------------------------


def person_name(user: Any) -> str:
    """A person as the book of roles writes them: the username, then the full name."""
    full = user.get_full_name().strip()
    return f"{user.get_username()} ({full})" if full else user.get_username()


def role_entries(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    rows = RoleEntry.objects.select_related("person", "recorded_by").order_by("recorded_at", "pk")
    if date_from:
        rows = rows.filter(recorded_at__date__gte=date_from)
    if date_to:
        rows = rows.filter(recorded_at__date__lte=date_to)
    return rows


def roles_book_kept() -> bool:
    return RoleEntry.objects.exists()


def roles_by_act(person: Any = None) -> dict[int, set[str]]:
    """The roles each person holds by the book of roles (the grants not taken back), by user id."""
    rows = RoleEntry.objects.exclude(kind=RoleEntryKind.NAME).order_by("recorded_at", "pk")
    if person is not None:
        rows = rows.filter(person=person)
    held: dict[int, set[str]] = defaultdict(set)
    for person_id, kind, role in rows.values_list("person_id", "kind", "role"):
        if kind == RoleEntryKind.GRANT:
            held[person_id].add(role)
        else:
            held[person_id].discard(role)
    return dict(held)


def names_by_act() -> dict[int, str]:
    """Each person's name as the last entry of the book of roles left it, by user id."""
    names: dict[int, str] = {}
    for person_id, name in RoleEntry.objects.order_by("recorded_at", "pk").values_list(
        "person_id", "person_name"
    ):
        names[person_id] = name
    return names


def roles_not_by_act() -> list[tuple[Any, str, bool]]:
    """``(user, role, held)``: a role a user holds that no act gave (``held``), or one an act gave
    that the user no longer holds, taken back by no act. The officer's role is the authority's
    (its enrolment), not the casino's book: it is left out."""
    User = get_user_model()
    by_act = roles_by_act()
    held: dict[int, set[str]] = defaultdict(set)
    for user_id, role in User.groups.through.objects.filter(group__name__in=roles.ALL_ROLES).values_list(
        "user_id", "group__name"
    ):
        held[user_id].add(role)
    found = []
    people = {u.pk: u for u in User.objects.filter(pk__in=set(held) | set(by_act))}
    for user_id in sorted(people):
        given = by_act.get(user_id, set())
        now = held.get(user_id, set())
        for role in sorted((now - given) - {roles.OFFICER}):
            found.append((people[user_id], role, True))
        for role in sorted(given - now):
            found.append((people[user_id], role, False))
    return found


def names_changed() -> list[tuple[Any, str, str]]:
    """``(user, name in the book, name now)`` for every person whose name changed since the book
    of roles last wrote it, without an act."""
    recorded = names_by_act()
    people = get_user_model().objects.filter(pk__in=recorded).order_by("pk")
    return [(u, recorded[u.pk], person_name(u)) for u in people if person_name(u) != recorded[u.pk]]


def incompatible_roles() -> list[tuple[Any, list[str]]]:
    """``(user, roles)`` for every user holding two roles no person holds together (an officer
    who is also casino staff; a signer who is also a croupier or cashier)."""
    User = get_user_model()
    held: dict[int, set[str]] = defaultdict(set)
    for user_id, role in User.groups.through.objects.filter(group__name__in=roles.ALL_ROLES).values_list(
        "user_id", "group__name"
    ):
        held[user_id].add(role)
    clashing = {
        user_id: [r for r in roles.ALL_ROLES if r in rs]
        for user_id, rs in held.items()
        if any(frozenset({a, b}) in INCOMPATIBLE for a in rs for b in rs if a != b)
    }
    people = User.objects.filter(pk__in=clashing).order_by("pk")
    return [(u, clashing[u.pk]) for u in people]


def superusers_unrecorded() -> list[Any]:
    """The superusers who joined once the database held acts, with no event recording them."""
    first = AuditEvent.objects.order_by("id").values_list("recorded_at", flat=True).first()
    if first is None:
        return []
    recorded = set(
        AuditEvent.objects.filter(action=Action.HOUSE_SUPERUSER_CREATED).values_list("object_id", flat=True)
    )
    late = get_user_model().objects.filter(is_superuser=True, date_joined__gt=first).order_by("pk")
    return [u for u in late if str(u.pk) not in recorded]
