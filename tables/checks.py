"""The tables' self-inspection checks (``manage.py inspect_books``): what an inspector would find
open in the tables' books, each with its article.

``day`` is the gaming day inspected (``None``: as of now, the current gaming day). A session of an
earlier gaming day should be closed; its entries signed; its discrepancies acknowledged by the
director; its hand logs replayed.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import Exists, F, OuterRef, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.models import AuditEvent
from cards_registry.models import Incident, IncidentRoute
from cards_registry.services.incidents import EXPLAINED_CODES as EXPLAINED_INCIDENTS
from casino_ops import dates
from casino_ops.checks import Breach, check
from casino_ops.dates import amount
from casino_ops.regulations import cite
from casino_ops.services import get_casino

from .models import (
    AdvanceEntry,
    AuthorisedMinimum,
    ControlDay,
    Discrepancy,
    DiscrepancyAcknowledgement,
    EntryKind,
    HandLog,
    MinistryNotice,
    Session,
    SessionStatus,
    Shoe,
    ShoeDeck,
)
from .rules import LU_MINISTRY_NOTICE_DAYS
from .selectors import visa_moments
from .services._shared import _authorised_minimum
from .services.shoes import last_shoe_ids

# a hand log is replayed by a task right after it is received; one still waiting after this is late
REPLAY_GRACE = dt.timedelta(minutes=15)


def _today() -> dt.date:
    return get_casino().gaming_day(timezone.now())


def _before(day: dt.date | None) -> dt.date:
    """The sessions of gaming days before the returned day are over."""
    today = _today()
    return today if day is None or day >= today else day + dt.timedelta(days=1)


def _sessions(day: dt.date | None) -> Any:
    query = Session.objects.select_related("table")
    return query.filter(day=day) if day is not None else query


def _sessions_over(day: dt.date | None) -> Any:
    """The séances of ``day`` (or of every day) whose gaming day is over, by day and table."""
    return _sessions(day).filter(day__lt=_before(day)).order_by("day", "table__number")


def _name(session: Any) -> str:
    return _("%(t)s, séance du %(d)s (n° %(n)s)") % {
        "t": session.table.code,
        "d": dates.day(session.day),
        "n": session.pk,
    }


def _url(session: Any) -> str:
    return reverse("portal:session", args=[session.pk])


@check("tables.session_past_gaming_day", _("Séances ouvertes après leur journée de jeu"))
def sessions_past_their_day(day: dt.date | None) -> Iterator[Breach]:
    for session in _sessions_over(day).exclude(status=SessionStatus.CLOSED):
        yield Breach(
            "tables.session_past_gaming_day",
            cite("session.no_money_between", session.profile),
            _name(session),
            _("séance « %(s)s » après sa journée de jeu : encaisse non comptée ni inscrite")
            % {"s": SessionStatus(session.status).label},
            _url(session),
        )


@check("tables.entries_unsigned", _("Avances et encaisses non comptées ou non signées"))
def entries_unsigned(day: dt.date | None) -> Iterator[Breach]:
    signed_kinds = [EntryKind.INITIAL_ADVANCE, EntryKind.FURTHER_ADVANCE, EntryKind.CLOSING]
    missing = Q(kind__in=signed_kinds) & (Q(signed_by__isnull=True) | Q(counted_by__isnull=True))
    lu = Q(session__profile="LU") & (
        Q(kind=EntryKind.CLOSING, cashier__isnull=True)
        | Q(kind=EntryKind.INTERRUPTION_COUNTED) & (Q(signed_by__isnull=True) | Q(cashier__isnull=True))
    )
    query = AdvanceEntry.objects.select_related("session__table").filter(missing | lu)
    if day is not None:
        query = query.filter(session__day=day)
    for entry in query.order_by("table__number", "line"):
        yield Breach(
            "tables.entries_unsigned",
            cite("advance.count_and_sign", entry.session.profile),
            _name(entry.session),
            _("ligne %(l)s (%(k)s) : comptage, signature ou caissier manquant")
            % {"l": entry.line, "k": EntryKind(entry.kind).label},
            _url(entry.session),
        )


@check("tables.counter_is_signer", _("Avances et encaisses comptées et signées par la même personne"))
def counter_is_signer(day: dt.date | None) -> Iterator[Breach]:
    """FR art. 69; LU art. 10: the croupier counts, the director or a committee member signs; a
    line counted and signed by one person (written before the rule, or behind the acts' back)."""
    query = AdvanceEntry.objects.select_related("session__table").filter(
        counted_by__isnull=False, counted_by=F("signed_by")
    )
    if day is not None:
        query = query.filter(session__day=day)
    for entry in query.order_by("session__table__number", "session__day", "line"):
        yield Breach(
            "tables.counter_is_signer",
            cite("people.incompatible", entry.session.profile),
            _name(entry.session),
            _("ligne %(l)s (%(k)s) : comptée et signée par la même personne")
            % {"l": entry.line, "k": EntryKind(entry.kind).label},
            _url(entry.session),
        )


@check(
    "tables.lu_notice_missing", _("LU : minimum supérieur au minimum autorisé sans information du ministre")
)
def lu_notice_missing(day: dt.date | None) -> Iterator[Breach]:
    """LU art. 26: a séance whose minimum exceeds the authorised one cites the notice to the
    minister recorded eight days at least before its day (the recording's day, the system's)."""
    casino = get_casino()
    query = _sessions(day).filter(profile="LU").select_related("ministry_notice")
    for session in query.order_by("day", "table__number"):
        authorised = _authorised_minimum(casino, session.day)
        if session.minimum <= authorised:
            continue
        notice = session.ministry_notice
        values = {"m": dates.amount(session.minimum), "a": dates.amount(authorised)}
        if notice is None:
            detail = _(
                "minimum %(m)s au-dessus du minimum autorisé %(a)s : ministre non informé huit jours avant"
            )
        elif (session.day - casino.gaming_day(notice.recorded_at)).days < LU_MINISTRY_NOTICE_DAYS:
            values["r"] = dates.moment(notice.recorded_at)
            detail = _(
                "minimum %(m)s au-dessus du minimum autorisé %(a)s : information du ministre inscrite le "
                "%(r)s, moins de huit jours avant"
            )
        else:
            continue
        yield Breach(
            "tables.lu_notice_missing",
            cite("limits.ministry_notice", "LU"),
            _name(session),
            detail % values,
            _url(session),
        )


@check(
    "tables.ministry_notice_backdated",
    _("LU : information du ministre déclarée envoyée avant son inscription"),
)
def ministry_notice_backdated(day: dt.date | None) -> Iterator[Breach]:
    """LU art. 26: the notice is recorded when it is sent; the day the director declares he sent
    it is his word, kept beside the moment the system recorded it. A day declared earlier than
    the gaming day of the recording is named with both (the eight days run from the recording)."""
    casino = get_casino()
    if casino.profile != "LU":
        return
    for notice in MinistryNotice.objects.order_by("recorded_at", "pk"):
        recorded_on = casino.gaming_day(notice.recorded_at)
        if day is not None and recorded_on > day:
            continue
        if notice.sent_on >= recorded_on:
            continue
        yield Breach(
            "tables.ministry_notice_backdated",
            cite("limits.ministry_notice", "LU"),
            _("information du ministre %(r)s (minimum %(m)s)")
            % {"r": notice.reference, "m": dates.amount(notice.minimum)},
            _("déclarée envoyée le %(d)s, inscrite le %(at)s (%(n)s jours plus tard)")
            % {
                "d": dates.day(notice.sent_on),
                "at": dates.moment(notice.recorded_at),
                "n": (recorded_on - notice.sent_on).days,
            },
        )


@check("tables.interruption_open", _("Interruptions laissées ouvertes"))
def interruptions_left_open(day: dt.date | None) -> Iterator[Breach]:
    for session in _sessions_over(day).filter(status=SessionStatus.INTERRUPTED):
        yield Breach(
            "tables.interruption_open",
            cite("session.interruption", session.profile),
            _name(session),
            _("interrompue et jamais reprise ni clôturée"),
            _url(session),
        )


@check("tables.replay_not_done", _("Journaux de mains non rejoués"))
def replays_not_done(day: dt.date | None) -> Iterator[Breach]:
    query = HandLog.objects.select_related("session__table").filter(
        replay__isnull=True, uploaded_at__lt=timezone.now() - REPLAY_GRACE
    )
    if day is not None:
        query = query.filter(session__day=day)
    for log in query.order_by("uploaded_at"):
        yield Breach(
            "tables.replay_not_done",
            cite("game.play", log.session.profile),
            _name(log.session),
            _("journal %(s)s (SHA-256 %(h)s) reçu le %(at)s, pas encore rejoué")
            % {
                "s": log.shoe_label,
                "h": log.sha256[:12],
                "at": dates.moment(log.uploaded_at),
            },
            _url(log.session),
        )


@check("tables.discrepancy_not_acknowledged", _("Écarts dont le directeur n'a pas pris connaissance"))
def discrepancies_not_acknowledged(day: dt.date | None) -> Iterator[Breach]:
    # a log of an unknown shoe is named by its own check (tables.hand_log_unknown_shoe)
    query = (
        Discrepancy.objects.select_related("session__table")
        .filter(acknowledgement__isnull=True, session__day__lt=_before(day))
        .exclude(code="SHOE_UNKNOWN")
    )
    if day is not None:
        query = query.filter(session__day=day)
    for row in query.order_by("session__day", "session__table__number", "id"):
        where = _(", manche %(r)s") % {"r": row.round} if row.round is not None else ""
        yield Breach(
            "tables.discrepancy_not_acknowledged",
            row.article,
            _name(row.session),
            _("écart %(c)s%(w)s : le directeur n'en a pas pris connaissance") % {"c": row.code, "w": where},
            _url(row.session),
        )


@check("tables.decks_in_two_live_shoes", _("Jeux dans deux sabots en jeu"))
def decks_in_two_live_shoes(day: dt.date | None) -> Iterator[Breach]:
    """A deck in the live shoes (the last shoe of each session not closed) of two sessions."""
    live = Shoe.objects.filter(session__status__in=[SessionStatus.OPEN, SessionStatus.INTERRUPTED])
    if day is not None:
        live = live.filter(session__day=day)
    last = last_shoe_ids(live)
    seen: dict[int, Any] = {}
    for row in (
        ShoeDeck.objects.filter(shoe_id__in=last).select_related("shoe__session__table").order_by("id")
    ):
        first = seen.setdefault(row.deck_id, row)
        if first is not row:
            session = row.shoe.session
            yield Breach(
                "tables.decks_in_two_live_shoes",
                cite("depot.issue_and_unseal", session.profile),
                _name(session),
                _("jeu %(s)s dans les sabots %(a)s et %(b)s")
                % {"s": row.serial, "a": first.shoe, "b": row.shoe},
                _url(session),
            )


@check("tables.hand_log_unknown_shoe", _("Journaux de mains de sabots inconnus"))
def hand_logs_of_unknown_shoes(day: dt.date | None) -> Iterator[Breach]:
    """A log naming no shoe of its session: its cards come from no recorded decks. The director's
    explanation does not clear it: it opens an incident, and the log is named until the officer
    closes that incident (FR art. 40, LU art. 7)."""
    explained = DiscrepancyAcknowledgement.objects.filter(
        discrepancy__hand_log_id=OuterRef("pk"), discrepancy__code="SHOE_UNKNOWN"
    ).exclude(note="")
    closed = Incident.objects.filter(
        route=IncidentRoute.REPLAY,
        kind=EXPLAINED_INCIDENTS["SHOE_UNKNOWN"],
        day=OuterRef("session__day"),
        table_number=OuterRef("session__table__number"),
        shoe_reference=OuterRef("shoe_label"),
        closure__isnull=False,
    )
    query = (
        HandLog.objects.select_related("session__table")
        .filter(shoe__isnull=True)
        .annotate(explained=Exists(explained))
        .filter(~Exists(closed))
    )
    if day is not None:
        query = query.filter(session__day=day)
    for log in query.order_by("uploaded_at"):
        detail = (
            _(
                "journal %(s)s (SHA-256 %(h)s) : aucun sabot de la séance ne porte cet identifiant ; "
                "expliqué par le directeur, il reste en infraction jusqu'à la clôture de l'incident par l'officier"
            )
            if log.explained
            else _(
                "journal %(s)s (SHA-256 %(h)s) : aucun sabot de la séance ne porte cet identifiant, "
                "et le directeur n'en a pas donné l'explication"
            )
        )
        yield Breach(
            "tables.hand_log_unknown_shoe",
            cite("depot.issue_and_unseal", log.session.profile),
            _name(log.session),
            detail % {"s": log.shoe_label, "h": log.sha256[:12]},
            _url(log.session),
        )


def _register_url(day: dt.date) -> str:
    return f"{reverse('portal:control_register')}?day={day.isoformat()}"


def _day_name(day: dt.date) -> str:
    return _("registre de contrôle, journée du %(d)s") % {"d": dates.day(day)}


@check("tables.day_not_closed", _("Journées jamais arrêtées au registre de contrôle"))
def days_never_closed(day: dt.date | None) -> Iterator[Breach]:
    """A gaming day over, with séances or a line in the control register, that the director
    never closed (FR art. 72: the register is totalled and closed at the day's end)."""
    over = _before(day)
    played = set(Session.objects.filter(day__lt=over).values_list("day", flat=True).distinct())
    closed = set(ControlDay.objects.filter(closed_at__isnull=False).values_list("day", flat=True))
    pending = set(
        ControlDay.objects.filter(closed_at__isnull=True, day__lt=over).values_list("day", flat=True)
    )
    profile = get_casino().profile
    for found in sorted((played | pending) - closed):
        if day is not None and found != day:
            continue
        yield Breach(
            "tables.day_not_closed",
            cite("control_register", profile),
            _day_name(found),
            _("journée terminée jamais arrêtée par le directeur"),
            _register_url(found),
        )


@check("tables.day_not_stamped", _("Journées arrêtées non visées par le fonctionnaire"))
def days_not_stamped(day: dt.date | None) -> Iterator[Breach]:
    """A day closed in the control register more than ``CONTROL_REGISTER_STAMP_DAYS`` days ago
    (setting, 7 by default) and still without the officer's visa (FR art. 72)."""
    waited = int(getattr(settings, "CONTROL_REGISTER_STAMP_DAYS", 7))
    query = ControlDay.objects.filter(
        closed_at__lt=timezone.now() - dt.timedelta(days=waited), stamped_at__isnull=True
    )
    if day is not None:
        query = query.filter(day=day)
    profile = get_casino().profile
    for row in query.order_by("day"):
        yield Breach(
            "tables.day_not_stamped",
            cite("control_register", profile),
            _day_name(row.day),
            _("arrêtée le %(at)s, sans visa du fonctionnaire après %(n)s jours")
            % {"at": dates.moment(row.closed_at), "n": waited},
            _register_url(row.day),
        )


@check("tables.day_visa_voided", _("Journées rectifiées après le visa du fonctionnaire"))
def days_visa_voided(day: dt.date | None) -> Iterator[Breach]:
    """A day the officer stamped, then corrected: the correction voided the visa, and the day
    is named at once until the officer stamps it again (FR art. 68, 72)."""
    query = ControlDay.objects.filter(closed_at__isnull=False, stamped_at__isnull=True)
    if day is not None:
        query = query.filter(day=day)
    days = list(query.order_by("day"))
    visas = visa_moments([row.pk for row in days])
    profile = get_casino().profile
    for row in days:
        if row.pk not in visas:
            continue
        yield Breach(
            "tables.day_visa_voided",
            cite("control_register", profile),
            _day_name(row.day),
            _(
                "rectifiée après le visa du %(at)s : la correction annule ce visa, la journée attend un nouveau visa"
            )
            % {"at": dates.moment(visas[row.pk][-1])},
            _register_url(row.day),
        )


@check("tables.day_total_differs", _("Totaux arrêtés différents des lignes de la journée"))
def day_totals_differ(day: dt.date | None) -> Iterator[Breach]:
    """A closed day whose total, as written, is not the sum of its lines as they stand
    (corrections applied): the total written at the closing always equals the day's lines
    (FR art. 68, 72)."""
    query = ControlDay.objects.filter(closed_at__isnull=False).prefetch_related("lines")
    if day is not None:
        query = query.filter(day=day)
    profile = get_casino().profile
    for row in query.order_by("day"):
        latest: dict[int, Any] = {}
        for line in sorted(row.lines.all(), key=lambda line: line.pk):
            latest[line.corrects_id or line.pk] = line
        lines = sum((line.result for line in latest.values()), Decimal("0.00"))
        if row.total == lines:
            continue
        yield Breach(
            "tables.day_total_differs",
            cite("control_register", profile),
            _day_name(row.day),
            _("total arrêté %(t)s, total des lignes de la journée %(l)s")
            % {"t": amount(row.total) if row.total is not None else "—", "l": amount(lines)},
            _register_url(row.day),
        )


@check("tables.authorised_minimum_not_stamped", _("Minima autorisés non visés"))
def authorised_minimums_not_stamped(day: dt.date | None) -> Iterator[Breach]:
    """An act of the authorised minimum whose day in force has come without the officer's
    visa: it does not hold until stamped (FR art. 55-5; LU art. 26, 33)."""
    query = AuthorisedMinimum.objects.filter(stamped_at__isnull=True, in_force_on__lte=day or _today())
    profile = get_casino().profile
    for act in query.order_by("in_force_on", "recorded_at"):
        yield Breach(
            "tables.authorised_minimum_not_stamped",
            cite("limits.authorised_minimum", profile),
            _("minimum autorisé de %(m)s — %(r)s")
            % {"m": dates.amount(act.minimum), "r": act.decree_reference},
            _("inscrit le %(at)s, en vigueur le %(d)s : pas encore visé par un fonctionnaire")
            % {
                "at": dates.moment(act.recorded_at),
                "d": dates.day(act.in_force_on),
            },
            reverse("portal:visas"),
        )


@check("tables.session_without_decks", _("Séances jouées sans jeux du dépôt"))
def sessions_without_decks(day: dt.date | None) -> Iterator[Breach]:
    """A séance with hand logs or a result and no shoe filled from decks the depot issued to
    its table for its day: its cards come from no recorded deck (FR art. 40, 55-4; LU art. 7, 32)."""
    shoes = Shoe.objects.filter(session_id=OuterRef("pk"))
    logs = HandLog.objects.filter(session_id=OuterRef("pk"))
    query = (
        _sessions(day)
        .filter(~Exists(shoes))
        .filter(Exists(logs) | (Q(result__isnull=False) & ~Q(result=0)))
        .annotate(has_logs=Exists(logs))
    )
    for session in query.order_by("day", "table__number", "pk"):
        yield Breach(
            "tables.session_without_decks",
            cite("depot.issue_and_unseal", session.profile),
            _name(session),
            _("journaux de mains ou résultat sans aucun sabot garni de jeux remis par le dépôt")
            if session.has_logs
            else _("résultat de %(r)s sans aucun sabot garni de jeux remis par le dépôt")
            % {"r": dates.amount(session.result)},
            _url(session),
        )


EXERCISE_FIELDS = ("exercise_start_month", "exercise_start_day")


@check("tables.exercise_reset", _("Début d'exercice déplacé après l'ouverture de séances"))
def exercise_start_moved(day: dt.date | None) -> Iterator[Breach]:
    """The casino's setting of the exercise start changed once séances were open: the advance,
    a raised minimum and the LU maximum are fixed for the exercise (FR art. 49, 53; LU art. 9, 26,
    33), and moving its start resets them. Read from the settings' audited acts."""
    first = (
        AuditEvent.objects.filter(action=Action.SESSION_OPENED)
        .order_by("id")
        .values_list("id", flat=True)
        .first()
    )
    if first is None:
        return
    profile = get_casino().profile
    events = AuditEvent.objects.filter(action=Action.CASINO_SETTINGS_CHANGED, id__gt=first).order_by("id")
    for event in events:
        changed = json.loads(event.payload).get("changed") or {}
        moved = {key: changed[key] for key in EXERCISE_FIELDS if key in changed}
        if not moved:
            continue
        when = timezone.localtime(event.recorded_at)
        if day is not None and get_casino().gaming_day(when) != day:
            continue
        yield Breach(
            "tables.exercise_reset",
            cite("advance.fixed_for_year", profile),
            _("réglages du casino, acte n° %(n)s du %(at)s")
            % {"n": event.seq or event.pk, "at": dates.moment(when)},
            _("début d'exercice déplacé (%(what)s) après l'ouverture de séances")
            % {
                "what": ", ".join(
                    f"{key} {value.get('before')} → {value.get('after')}" for key, value in moved.items()
                )
            },
            reverse("portal:audit_trail"),
        )
