"""Regulated acts at the tables.

Limits: FR art. 53, 55-5; LU art. 26, 33. Sessions and the advance book
(FR model n° 10): FR art. 42, 49, 69; LU art. 9, 10, 15, 21-23. Control
register (FR model n° 12) and corrections: FR art. 68, 72; LU art. 10. Shoes:
FR art. 40, 55-4; LU art. 7, 32. Hand logs: FR art. 55-4, 55-5; LU art. 32, 33.

Each act is one function: keyword-only arguments, one transaction, every
rule checked (a refusal is a :class:`RegulationError` citing the article of
the casino's profile and naming the field), and its audit event recorded in
the same transaction. Registered entries are never updated or deleted: a
correction is a new entry pointing at the one it corrects (FR art. 68).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from casino_ops import roles
from casino_ops.regulations import RegulationError, cite
from casino_ops.services import get_casino

from . import rules
from .blackjack import Rejected, replay_valid, validate
from .blackjack.summary import wrong_payments
from .models import (
    AdvanceEntry,
    ControlDay,
    ControlLine,
    Discrepancy,
    EntryKind,
    HandLog,
    MaximumChange,
    Replay,
    Session,
    SessionStatus,
    Shoe,
    ShoeDeck,
    Table,
)

ADVANCE_KINDS = (EntryKind.INITIAL_ADVANCE, EntryKind.FURTHER_ADVANCE)
AMOUNT_KINDS = (*ADVANCE_KINDS, EntryKind.INTERRUPTION_COUNTED, EntryKind.CLOSING)


@transaction.atomic
def create_table(*, actor: Any, number: int, code: str, boxes: int = 7) -> Table:
    """Put a blackjack table on the floor; its number is its cash box's and advance book's."""
    if Table.objects.filter(number=number).exists():
        raise RegulationError(
            "TABLE_NUMBER_TAKEN",
            _("La table n° %(n)s existe déjà.") % {"n": number},
            field="number",
        )
    if not 1 <= boxes <= 7:
        raise RegulationError(
            "TOO_MANY_BOXES",
            _("Une table de black-jack a de 1 à 7 cases."),
            "FR art. 55-4",
            field="boxes",
        )
    table = Table.objects.create(number=number, code=code, boxes=boxes)
    audit.record(
        actor=actor,
        action="table.created",
        obj=table,
        payload={"number": number, "code": code, "boxes": boxes, "game": table.game},
    )
    return table


# -- helpers ---------------------------------------------------------------------------


def _require_signer(user: Any, profile: str, field: str = "signed_by") -> None:
    """A director or a committee member signs the advance book (FR art. 69, LU art. 10)."""
    if not roles.is_management(user):
        raise RegulationError(
            "SIGNATURE_REQUIRED",
            _("Seul le directeur responsable ou un membre du comité de direction signe le carnet d'avances."),
            cite("advance.count_and_sign", profile),
            field=field,
        )


def _require_table_staff(user: Any, profile: str, field: str = "counted_by") -> None:
    """The advance and the closing cash are counted by the table's croupier (FR art. 69, LU art. 10)."""
    if user is None or not roles.has_role(user, roles.CROUPIER, *roles.MANAGEMENT):
        raise RegulationError(
            "COUNTED_BY_STAFF",
            _("Le comptage est fait par le chef de table (croupier)."),
            cite("advance.count_and_sign", profile),
            field=field,
        )


def _require_director(user: Any, profile: str) -> None:
    """Corrections are approved by the director in words (FR art. 68); he closes the day (FR art. 72)."""
    if not roles.has_role(user, roles.DIRECTOR):
        raise RegulationError(
            "DIRECTOR_REQUIRED",
            _("Seul le directeur responsable approuve une correction ou arrête la journée."),
            cite("books.no_erasure", profile),
            field="actor",
        )


def _refuse_closed_day(day: dt.date, profile: str, *, lock: bool = False) -> ControlDay | None:
    query = ControlDay.objects.filter(day=day)
    if lock:
        query = query.select_for_update(no_key=True)
    control_day = query.first()
    if control_day is not None and control_day.is_closed:
        raise RegulationError(
            "DAY_CLOSED",
            _(
                "La journée du %(d)s est arrêtée au registre de contrôle : rien ne s'y ajoute ni ne "
                "s'y modifie, sauf par une correction approuvée par le directeur."
            )
            % {"d": day.strftime("%d/%m/%Y")},
            cite("books.no_erasure", profile),
            field="day",
        )
    return control_day


def _share_lock_day(day: dt.date) -> None:
    """Hold the day's control-register row FOR SHARE until commit: concurrent uploads go on
    side by side, while ``close_day`` (which locks the row for update) waits for them, and
    a log stored after the closing sees the day closed."""
    if connection.vendor != "postgresql":
        return  # SQLite runs one writing transaction at a time
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {ControlDay._meta.db_table} WHERE day = %s FOR SHARE", [day])  # noqa: S608


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
    counted_by: Any = None,
    signed_by: Any = None,
    cashier: Any = None,
    key_holder: Any = None,
    corrects: AdvanceEntry | None = None,
    note: str = "",
    at: dt.datetime | None = None,
) -> AdvanceEntry:
    return AdvanceEntry.objects.create(
        table=session.table,
        line=_next_line(session.table),
        session=session,
        kind=kind,
        amount=amount,
        at=at or timezone.now(),
        counted_by=counted_by,
        signed_by=signed_by,
        cashier=cashier,
        key_holder=key_holder,
        corrects=corrects,
        note=note,
    )


def _lock_session(session: Session | int) -> Session:
    pk = session if isinstance(session, int) else session.pk
    return Session.objects.select_for_update(no_key=True, of=("self",)).select_related("table").get(pk=pk)


def _require_status(session: Session, *allowed: str, field: str = "session") -> None:
    if session.status not in allowed:
        raise RegulationError(
            "SESSION_STATE",
            _("La séance %(s)s est « %(state)s » : cet acte n'est pas possible.")
            % {"s": session, "state": SessionStatus(session.status).label},
            cite("advance.book", session.profile),
            field=field,
        )


def _user_id(user: Any) -> int | None:
    return getattr(user, "pk", None)


# -- sessions, limits, advances ----------------------------------------------------------


@transaction.atomic
def open_session(
    *,
    actor: Any,
    table: Table,
    day: dt.date,
    minimum: Decimal,
    maximum: Decimal,
    advance_amount: Decimal,
    croupier: Any,
    guarantee_fund: Decimal | None = None,
    ministry_notified_on: dt.date | None = None,
) -> Session:
    """Open a session with its limits and its initial advance, counted, announced and written at
    once, signed by the director or a committee member (FR art. 42, 49, 53, 55-5, 69; LU art. 9,
    10, 21, 22, 26, 33). ``actor`` signs; ``croupier`` counted the advance."""
    casino = get_casino()
    profile = casino.profile
    _require_signer(actor, profile, field="actor")
    _require_table_staff(croupier, profile, field="croupier")
    table = Table.objects.select_for_update(no_key=True).get(pk=table.pk)
    if not table.in_service:
        raise RegulationError(
            "TABLE_OUT_OF_SERVICE",
            _("La table %(t)s n'est pas en service.") % {"t": table.code},
            cite("advance.book", profile),
            field="table",
        )
    if Session.objects.filter(table=table).exclude(status=SessionStatus.CLOSED).exists():
        raise RegulationError(
            "SESSION_STILL_OPEN",
            _(
                "La séance précédente de la table %(t)s n'est pas clôturée : aucune somme ne reste dans la caisse entre deux séances."
            )
            % {"t": table.code},
            cite("session.no_money_between", profile),
            field="table",
        )
    _refuse_closed_day(day, profile)
    rules.check_limits(minimum, maximum, casino.authorised_min_stake, profile)
    year = day.year
    earlier = list(
        Session.objects.filter(table=table, fiscal_year=year)
        .order_by("day", "opened_at")
        .values("day", "minimum", "maximum", "advance_amount")
    )
    same_day = [s for s in earlier if s["day"] == day]
    first = earlier[0] if earlier else None
    latest = earlier[-1] if earlier else None
    notice = (day - ministry_notified_on).days if ministry_notified_on else None
    rules.check_minimum_against_history(
        profile=profile,
        minimum=minimum,
        same_day_minimum=same_day[-1]["minimum"] if same_day else None,
        year_minimum=max(s["minimum"] for s in earlier) if earlier else None,
        day_days_after_notice=notice,
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
    )
    if profile == "LU":
        largest = max(
            [
                advance_amount,
                *Session.objects.filter(fiscal_year=year).values_list("advance_amount", flat=True),
            ]
        )
        rules.check_guarantee_fund(profile=profile, fund=guarantee_fund, largest_advance=largest)
    now = timezone.now()
    session = Session.objects.create(
        table=table,
        day=day,
        fiscal_year=year,
        profile=profile,
        house_rules=casino.house_rules(),
        minimum=minimum,
        maximum=maximum,
        advance_amount=advance_amount,
        guarantee_fund=guarantee_fund,
        ministry_notified_on=ministry_notified_on,
        croupier=croupier,
        opened_at=now,
        opened_by=actor,
        status=SessionStatus.OPEN,
        advances_total=advance_amount,
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
        action="session.opened",
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
        },
    )
    return session


@transaction.atomic
def add_advance(*, actor: Any, session: Session, amount: Decimal, counted_by: Any) -> AdvanceEntry:
    """A further advance during the session, equal to the initial one, counted and signed
    (FR art. 42, 69; LU art. 9, 10)."""
    session = _lock_session(session)
    profile = session.profile
    _require_signer(actor, profile, field="actor")
    _require_table_staff(counted_by, profile)
    _require_status(session, SessionStatus.OPEN)
    rules.check_amount(amount, "amount", "advance.book", profile)
    if amount != session.advance_amount:
        raise RegulationError(
            "ADVANCE_NOT_EQUAL",
            _("Chaque nouvelle avance est égale à l'avance initiale : %(a)s.")
            % {"a": f"{session.advance_amount:.2f}"},
            cite("advance.book", profile),
            field="amount",
        )
    entry = _entry(session, EntryKind.FURTHER_ADVANCE, amount=amount, counted_by=counted_by, signed_by=actor)
    session.advances_total += amount
    session.save(update_fields=["advances_total"])
    audit.record(
        actor=actor,
        action="session.advance_added",
        obj=entry,
        payload={
            "session": session.pk,
            "line": entry.line,
            "amount": amount,
            "counted_by": _user_id(counted_by),
        },
    )
    return entry


@transaction.atomic
def change_maximum(*, actor: Any, session: Session, maximum: Decimal, display_changed: bool) -> MaximumChange:
    """FR art. 55-5: the director may change the maximum during the session if the table display
    shows it. LU art. 33: the maximum is fixed for the season and never changes."""
    session = _lock_session(session)
    profile = session.profile
    if profile == "LU":
        raise RegulationError(
            "MAXIMUM_FIXED_FOR_SEASON",
            _("Le maximum est fixé en début de saison et ne peut plus être modifié en cours de saison."),
            cite("limits.maximum_change", profile),
            field="maximum",
        )
    _require_signer(actor, profile, field="actor")
    _require_status(session, SessionStatus.OPEN, SessionStatus.INTERRUPTED)
    rules.check_maximum_multiple(session.minimum, maximum, profile)
    if not display_changed:
        raise RegulationError(
            "DISPLAY_NOT_CHANGED",
            _(
                "Le maximum ne change en cours de séance que s'il est clairement indiqué sur l'affichage de la table."
            ),
            cite("limits.maximum_change", profile),
            field="display_changed",
        )
    change = MaximumChange.objects.create(
        session=session,
        previous=session.maximum,
        maximum=maximum,
        at=timezone.now(),
        by=actor,
        display_changed=True,
    )
    session.maximum = maximum
    session.save(update_fields=["maximum"])
    audit.record(
        actor=actor,
        action="session.maximum_changed",
        obj=change,
        payload={
            "session": session.pk,
            "previous": change.previous,
            "maximum": maximum,
            "display_changed": True,
        },
    )
    return change


def change_minimum(*, actor: Any, session: Session, minimum: Decimal) -> None:
    """Always refused: FR art. 53, the minimum changes only by closing the table and reopening it
    with a new advance; LU art. 26, the minimum of a table does not change within a day."""
    profile = session.profile
    if profile == "FR":
        message = _(
            "Le minimum ne change pas en cours de séance : clôturez la table et rouvrez-la avec une "
            "nouvelle avance inscrite au carnet."
        )
    else:
        message = _("Le minimum d'une table ne peut être modifié au cours d'une même journée.")
    raise RegulationError(
        "MINIMUM_FIXED_IN_SESSION", message, cite("limits.minimum_change", profile), field="minimum"
    )


@transaction.atomic
def interrupt_session(
    *, actor: Any, session: Session, mode: str, amount: Decimal | None = None, key_holder: Any = None
) -> AdvanceEntry:
    """An interruption: the cash is counted and written, or locked in the box with the key held
    by the director, a committee member or the chef de partie (FR art. 69; LU art. 15, 23)."""
    session = _lock_session(session)
    profile = session.profile
    _require_table_staff(actor, profile, field="actor")
    _require_status(session, SessionStatus.OPEN)
    if mode == "counted":
        if amount is None:
            raise RegulationError(
                "INTERRUPTION_AMOUNT",
                _("L'encaisse comptée à l'interruption doit être inscrite."),
                cite("session.interruption", profile),
                field="amount",
            )
        rules.check_amount(amount, "amount", "session.interruption", profile, allow_zero=True)
        entry = _entry(session, EntryKind.INTERRUPTION_COUNTED, amount=amount, counted_by=actor)
    elif mode == "locked":
        if key_holder is None or not roles.has_role(key_holder, roles.CROUPIER, *roles.MANAGEMENT):
            raise RegulationError(
                "KEY_HOLDER",
                _(
                    "La clé de la caisse reste au directeur, à un membre du comité de direction ou au chef de partie."
                ),
                cite("session.interruption", profile),
                field="key_holder",
            )
        entry = _entry(session, EntryKind.INTERRUPTION_LOCKED, counted_by=actor, key_holder=key_holder)
    else:
        raise RegulationError(
            "INTERRUPTION_MODE",
            _("Une interruption se fait en comptant l'encaisse ou en la déposant sous clé."),
            cite("session.interruption", profile),
            field="mode",
        )
    session.status = SessionStatus.INTERRUPTED
    session.save(update_fields=["status"])
    audit.record(
        actor=actor,
        action="session.interrupted",
        obj=entry,
        payload={
            "session": session.pk,
            "line": entry.line,
            "mode": mode,
            "amount": amount,
            "key_holder": _user_id(key_holder),
        },
    )
    return entry


@transaction.atomic
def resume_session(*, actor: Any, session: Session) -> AdvanceEntry:
    session = _lock_session(session)
    _require_table_staff(actor, session.profile, field="actor")
    _require_status(session, SessionStatus.INTERRUPTED)
    entry = _entry(session, EntryKind.RESUMPTION, counted_by=actor)
    session.status = SessionStatus.OPEN
    session.save(update_fields=["status"])
    audit.record(
        actor=actor, action="session.resumed", obj=entry, payload={"session": session.pk, "line": entry.line}
    )
    return entry


@transaction.atomic
def close_session(
    *,
    actor: Any,
    session: Session,
    closing_cash: Decimal,
    counted_by: Any,
    certified_exact: bool,
    cashier: Any = None,
) -> AdvanceEntry:
    """Close the session: the cash is counted, announced and written, and the director or a
    committee member (``actor``) certifies the entry "exact" with his signature; LU: with the
    table staff and a cashier present (FR art. 69; LU art. 10). The result (closing cash minus
    the advances) is carried to the day's control register (FR art. 72)."""
    session = _lock_session(session)
    profile = session.profile
    _require_signer(actor, profile, field="actor")
    _require_table_staff(counted_by, profile)
    _require_status(session, SessionStatus.OPEN)
    if not certified_exact:
        raise RegulationError(
            "NOT_CERTIFIED_EXACT",
            _("L'encaisse de clôture doit être certifiée « exacte » par le signataire."),
            cite("advance.count_and_sign", profile),
            field="certified_exact",
        )
    if profile == "LU" and (cashier is None or not roles.has_role(cashier, roles.CASHIER)):
        raise RegulationError(
            "CASHIER_ABSENT",
            _("La clôture se fait en présence des employés de la table et d'un caissier."),
            cite("advance.count_and_sign", profile),
            field="cashier",
        )
    if cashier is not None and not roles.has_role(cashier, roles.CASHIER):
        raise RegulationError(
            "CASHIER_ABSENT",
            _("La personne indiquée comme caissier n'a pas ce rôle."),
            cite("advance.count_and_sign", profile),
            field="cashier",
        )
    rules.check_amount(closing_cash, "closing_cash", "advance.count_and_sign", profile, allow_zero=True)
    control_day = _refuse_closed_day(session.day, profile, lock=True)
    now = timezone.now()
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
    session.save(update_fields=["status", "closed_at", "closing_cash", "result"])
    if control_day is None:
        control_day, _created = ControlDay.objects.get_or_create(day=session.day)
    line = ControlLine.objects.create(
        control_day=control_day,
        table=session.table,
        session=session,
        advances=session.advances_total,
        closing_cash=closing_cash,
        result=session.result,
        at=now,
        by=actor,
    )
    audit.record(
        actor=actor,
        action="session.closed",
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
    return entry


# -- the control register and corrections -----------------------------------------------


def _effective_lines(control_day: ControlDay) -> list[ControlLine]:
    """Each original line replaced by its latest correction."""
    lines = list(control_day.lines.order_by("id"))
    latest: dict[int, ControlLine] = {}
    for line in lines:
        root = line.corrects_id or line.pk
        latest[root] = line
    return list(latest.values())


@transaction.atomic
def close_day(*, actor: Any, day: dt.date) -> ControlDay:
    """The director closes the day of the control register: every session of the day is closed
    and its result carried; the day's total is written (FR art. 72; LU art. 10)."""
    profile = get_casino().profile
    _require_director(actor, profile)
    control_day, _created = ControlDay.objects.select_for_update(no_key=True).get_or_create(day=day)
    if control_day.is_closed:
        _refuse_closed_day(day, profile)
    running = list(
        Session.objects.filter(day=day)
        .exclude(status=SessionStatus.CLOSED)
        .values_list("table__code", flat=True)
    )
    if running:
        raise RegulationError(
            "SESSIONS_NOT_CLOSED",
            _("Des séances de la journée ne sont pas clôturées : %(t)s.") % {"t": ", ".join(running)},
            cite("control_register", profile),
            field="day",
        )
    total = sum((line.result for line in _effective_lines(control_day)), Decimal("0.00"))
    control_day.closed_at = timezone.now()
    control_day.closed_by = actor
    control_day.total = total
    control_day.save(update_fields=["closed_at", "closed_by", "total"])
    audit.record(
        actor=actor,
        action="control_register.day_closed",
        obj=control_day,
        payload={"day": day, "total": total, "lines": control_day.lines.count()},
    )
    return control_day


@transaction.atomic
def correct_control_line(
    *, actor: Any, line: ControlLine, result: Decimal, approval: str, reason: str
) -> ControlLine:
    """A correction of a line of the control register: a new line pointing at the one it
    corrects, approved in words by the director (FR art. 68). Allowed after the day's closing."""
    profile = get_casino().profile
    _require_director(actor, profile)
    line = ControlLine.objects.select_for_update(no_key=True).get(pk=line.pk)
    _require_words(approval, reason, profile)
    if not isinstance(result, Decimal) or result.as_tuple().exponent < -2:  # type: ignore[operator]
        raise RegulationError(
            "AMOUNT_INVALID", _("Montant invalide."), cite("books.no_erasure", profile), field="result"
        )
    original = line.corrects or line
    correction = ControlLine.objects.create(
        control_day=line.control_day,
        table=line.table,
        session=line.session,
        advances=line.advances,
        closing_cash=line.closing_cash,
        result=result,
        at=timezone.now(),
        by=actor,
        corrects=original,
        approval=approval,
        reason=reason,
    )
    audit.record(
        actor=actor,
        action="control_register.corrected",
        obj=correction,
        payload={
            "corrects": original.pk,
            "previous": line.result,
            "result": result,
            "approval": approval,
            "reason": reason,
        },
    )
    return correction


def _require_words(approval: str, reason: str, profile: str) -> None:
    if not approval.strip():
        raise RegulationError(
            "APPROVAL_IN_WORDS",
            _("La correction est approuvée en toutes lettres par le directeur."),
            cite("books.no_erasure", profile),
            field="approval",
        )
    if not reason.strip():
        raise RegulationError(
            "CORRECTION_REASON",
            _("Le motif de la correction est requis."),
            cite("books.no_erasure", profile),
            field="reason",
        )


@transaction.atomic
def correct_advance_entry(
    *, actor: Any, entry: AdvanceEntry, amount: Decimal, approval: str, reason: str
) -> AdvanceEntry:
    """Correct an amount of the advance book: a new line pointing at the line it corrects,
    approved in words by the director (FR art. 68). If the session is closed, its result is
    corrected too in the control register, by a correction line (even after the day's closing)."""
    session = _lock_session(entry.session_id)
    profile = session.profile
    _require_director(actor, profile)
    entry = AdvanceEntry.objects.get(pk=entry.pk)
    if entry.kind not in AMOUNT_KINDS:
        raise RegulationError(
            "NOT_CORRECTABLE",
            _(
                "Seule une ligne portant un montant se corrige ; une correction se corrige en corrigeant la ligne d'origine."
            ),
            cite("books.no_erasure", profile),
            field="entry",
        )
    _require_words(approval, reason, profile)
    rules.check_amount(amount, "amount", "books.no_erasure", profile, allow_zero=True)
    previous = entry.corrections.order_by("-line").values_list("amount", flat=True).first()
    previous = entry.amount if previous is None else previous
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
        line = session.control_lines.order_by("-id").first()
        if line is not None and line.result != session.result:
            original = line.corrects or line
            control_correction = ControlLine.objects.create(
                control_day=line.control_day,
                table=line.table,
                session=session,
                advances=session.advances_total,
                closing_cash=session.closing_cash or Decimal("0"),
                result=session.result,
                at=timezone.now(),
                by=actor,
                corrects=original,
                approval=approval,
                reason=_("Report de la correction de la ligne %(l)s du carnet d'avances : %(r)s")
                % {"l": entry.line, "r": reason},
            )
    session.save(update_fields=["advances_total", "closing_cash", "result"])
    audit.record(
        actor=actor,
        action="advance_book.corrected",
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
        },
    )
    return correction


# -- shoes -------------------------------------------------------------------------------


@transaction.atomic
def fill_shoe(*, actor: Any, session: Session, deck_ids: Sequence[int], label: str = "") -> Shoe:
    """Fill a shoe of the session from a sixain issued to the table for the day by the card depot:
    six decks, three of one back colour and three of the other (FR art. 40, 55-4; LU art. 7, 32).
    The decks' serials are written with the shoe."""
    from cards_registry.rules import check_blackjack_sixain
    from cards_registry.selectors import decks_issued_to

    session = _lock_session(session)
    profile = session.profile
    _require_table_staff(actor, profile, field="actor")
    _require_status(session, SessionStatus.OPEN)
    wanted = list(dict.fromkeys(deck_ids))
    decks = list(decks_issued_to(table_number=session.table.number, day=session.day).filter(pk__in=wanted))
    if len(decks) != len(wanted):
        found = {d.pk for d in decks}
        raise RegulationError(
            "DECK_NOT_ISSUED",
            _("Des jeux ne sont pas remis à la table %(t)s pour le %(d)s (ou déjà rendus) : %(ids)s.")
            % {
                "t": session.table.code,
                "d": session.day.strftime("%d/%m/%Y"),
                "ids": sorted(set(wanted) - found),
            },
            cite("depot.issue_and_unseal", profile),
            field="decks",
        )
    check_blackjack_sixain(decks, profile)
    number = (session.shoes.aggregate(m=Max("number"))["m"] or 0) + 1
    label = label.strip() or f"{session.table.code}-{session.day:%Y-%m-%d}-{session.pk}-S{number}"
    if Shoe.objects.filter(label=label).exists():
        raise RegulationError(
            "SHOE_LABEL_TAKEN",
            _("Un sabot porte déjà l'identifiant %(l)s.") % {"l": label},
            cite("game.shoe", profile),
            field="label",
        )
    shoe = Shoe.objects.create(
        session=session, number=number, label=label, filled_at=timezone.now(), croupier=actor
    )
    ShoeDeck.objects.bulk_create(
        [ShoeDeck(shoe=shoe, deck=d, serial=d.serial, back_colour=d.back_colour) for d in decks]
    )
    audit.record(
        actor=actor,
        action="shoe.filled",
        obj=shoe,
        payload={
            "session": session.pk,
            "label": label,
            "decks": [{"id": d.pk, "serial": d.serial, "back_colour": d.back_colour} for d in decks],
        },
    )
    return shoe


# -- hand logs ---------------------------------------------------------------------------


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _rejected_article(field: str, profile: str) -> str:
    if field.startswith("house_rules"):
        return cite("game.house_rules", profile)
    if field.startswith("limits"):
        return cite("game.limits", profile)
    return ""


def parse_hand_log(raw: bytes, profile: str) -> dict[str, Any]:
    """Parse and validate a log with the engine; a rejection names the field (hand-log.md §1, §6)."""
    try:
        doc = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError) as exc:
        raise RegulationError(
            "HAND_LOG_REJECTED",
            _("Journal refusé : ce n'est pas un document JSON en UTF-8 (%(e)s).") % {"e": exc},
            field="document",
        ) from None
    try:
        validate(doc)
    except Rejected as rej:
        raise RegulationError(
            "HAND_LOG_REJECTED",
            _("Journal refusé : %(f)s : %(r)s.") % {"f": rej.field, "r": rej.reason},
            _rejected_article(rej.field, profile),
            field=rej.field,
        ) from None
    return doc


def upload_hand_log(*, actor: Any, session: Session, raw: bytes, source: str) -> HandLog:
    """Receive a hand log for a session: validated (a rejection names the field, nothing is
    stored), stored unchanged with its SHA-256, linked to its session and shoe, and queued for
    replay once committed. A log already received (same SHA-256) or for a day closed in the
    control register is refused (FR art. 68)."""
    if not getattr(actor, "has_perm", None) or not actor.has_perm("tables.add_handlog"):
        raise PermissionDenied(_("Vous ne pouvez pas déposer de journal de mains."))
    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    profile = session.profile
    doc = parse_hand_log(raw, profile)
    _refuse_closed_day(session.day, profile)
    if doc["table"] != session.table.code:
        raise RegulationError(
            "HAND_LOG_TABLE",
            _("Le journal est celui de la table %(l)s, la séance celle de la table %(t)s.")
            % {"l": doc["table"], "t": session.table.code},
            cite("advance.book", profile),
            field="table",
        )
    digest = hashlib.sha256(raw).hexdigest()
    try:
        return _store_hand_log(actor=actor, session=session, raw=raw, doc=doc, digest=digest, source=source)
    except IntegrityError as exc:
        constraint = getattr(getattr(exc.__cause__, "diag", None), "constraint_name", "") or ""
        if "sha256" not in constraint:
            raise
        # the same bytes already received (the unique SHA-256 refused the insert; nothing was stored)
        raise RegulationError(
            "HAND_LOG_DUPLICATE",
            _("Ce journal (SHA-256 %(h)s) a déjà été reçu ; il n'est ni stocké ni rejoué une seconde fois.")
            % {"h": digest},
            cite("books.no_erasure", profile),
            field="sha256",
        ) from None


@transaction.atomic
def _store_hand_log(
    *, actor: Any, session: Session, raw: bytes, doc: dict[str, Any], digest: str, source: str
) -> HandLog:
    """The storing half of :func:`upload_hand_log`, in one transaction with its audit event."""
    _share_lock_day(session.day)
    _refuse_closed_day(session.day, session.profile)
    shoe = session.shoes.filter(label=doc["shoe_id"]).first()
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
        uploaded_at=timezone.now(),
    )
    log.save(force_insert=True)
    audit.record(
        actor=actor,
        action="hand_log.received",
        obj=log,
        payload={
            "session": session.pk,
            "shoe": shoe.pk if shoe else None,
            "sha256": digest,
            "rounds": log.rounds,
            "source": source,
        },
    )
    from .tasks import replay_hand_log as replay_task

    log_id = log.pk
    transaction.on_commit(lambda: replay_task.delay(log_id))
    return log


def session_differences(log: HandLog, session: Session, maxima: Iterable[Decimal]) -> list[dict[str, Any]]:
    """A log's limits, profile and house rules must be those in force at its session; each
    difference is a discrepancy (FR art. 55-4, 55-5; LU art. 32, 33)."""
    from casino_ops.models import HOUSE_RULE_DEFAULTS

    profile = session.profile
    out: list[dict[str, Any]] = []
    allowed_max = sorted({session.maximum, *maxima})
    if log.limits_min != session.minimum or log.limits_max not in allowed_max:
        out.append(
            {
                "code": "LIMITS_MISMATCH",
                "article": cite("game.limits", profile),
                "detail": {
                    "log": {"min": f"{log.limits_min:.2f}", "max": f"{log.limits_max:.2f}"},
                    "session": {"min": f"{session.minimum:.2f}", "max": [f"{m:.2f}" for m in allowed_max]},
                },
            }
        )
    if log.profile != profile:
        out.append(
            {
                "code": "PROFILE_MISMATCH",
                "article": cite("game.play", profile),
                "detail": {"log": log.profile, "session": profile},
            }
        )
    differing = {
        key: {"log": log.house_rules.get(key, default), "session": session.house_rules.get(key, default)}
        for key, default in HOUSE_RULE_DEFAULTS.items()
        if log.house_rules.get(key, default) != session.house_rules.get(key, default)
    }
    if differing:
        out.append(
            {
                "code": "HOUSE_RULES_MISMATCH",
                "article": cite("game.house_rules", profile),
                "detail": differing,
            }
        )
    return out


def _amount(value: Any) -> Decimal | None:
    return Decimal(value) if isinstance(value, str) else None


def replay_hand_log(*, hand_log_id: int) -> Replay:
    """Replay a stored log with the engine and store its discrepancies (and the differences from its
    session) as rows. Idempotent: the log row is locked and a log has one replay row, so a second
    run (a retried or duplicated task) returns the stored result and stores nothing."""
    with transaction.atomic():
        # only the log row is locked (no_key: rows pointing at it may still be inserted)
        log = (
            HandLog.objects.select_for_update(no_key=True, of=("self",))
            .select_related("session")
            .get(pk=hand_log_id)
        )
        existing = Replay.objects.filter(hand_log=log).first()
        if existing is not None:
            return existing
        session = log.session
        doc = json.loads(log.raw)
        report = replay_valid(doc, validate(doc))
        maxima = list(session.maximum_changes.values_list("previous", flat=True))
        rows = [
            Discrepancy(
                hand_log=log,
                session=session,
                code=d["code"],
                article=d["article"],
                detail=d["detail"],
            )
            for d in session_differences(log, session, maxima)
        ]
        for d in report["discrepancies"]:
            expected = _amount(d.get("expected"))
            recorded = _amount(d.get("recorded"))
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
        over, under = wrong_payments(report)
        replay = Replay.objects.create(
            hand_log=log,
            ok=not rows,
            rounds_replayed=sum(1 for r in report["rounds"] if r["replayed"]),
            discrepancy_count=len(rows),
            overpaid=Decimal(over) / 100,
            underpaid=Decimal(under) / 100,
            finished_at=timezone.now(),
        )
        audit.record(
            actor=None,
            action="hand_log.replayed",
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
