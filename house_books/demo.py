"""Demo entries of the other books (idempotent): the casino's settings, a month of orphans,
last year's transfer; under LU, before the tables' séances, the approvals, the séance hours,
a past bank failure and its new authorisation, the shoes assigned to the séances' tables, and
the month of séances before yesterday, each table with its shoe."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from audit.actions import Action
from audit.models import AuditEvent
from casino_ops import clock, dates, roles
from casino_ops.models import CasinoSettings
from tables import selectors as tables
from tables import services as tables_services

from . import selectors, services
from .models import (
    Approval,
    BankFailure,
    DeviceAssignment,
    EarlyStop,
    Exclusion,
    OrphanEntry,
    SeanceHours,
    ShoeDevice,
    TableNotice,
    TipsCount,
)
from .services.bank import record_bank_failure, record_new_authorisation
from .services.devices import assign_device, register_device, return_device
from .services.hours import notify_seance_hours, record_early_stop


def _at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, minute)))


def seed_roles(context: dict[str, Any]) -> None:
    """Each demo user's role, by the book of roles: the first director named at the installation,
    then every other role given by the director's act (the officer's is the authority's)."""
    users = context["users"]
    director = users[roles.DIRECTOR]
    if not selectors.roles_book_kept():
        services.appoint_first_director(person=director, reason="Installation du casino de démonstration")
        context["created"].append("book of roles")
    given = selectors.roles_by_act()
    for role, user in users.items():
        if role in (roles.DIRECTOR, roles.OFFICER) or role in given.get(user.pk, set()):
            continue
        services.grant_role(
            actor=director, person=user, role=role, reason=f"Engagement ({roles.LABELS[role]}), démonstration"
        )


def seed_casino(context: dict[str, Any]) -> None:
    """The casino's settings, set once by the director's act (a default row may exist
    already, made on first read: only the recorded act says the demo set them)."""
    users = context["users"]
    if not AuditEvent.objects.filter(action=Action.CASINO_SETTINGS_CHANGED).exists():
        luxembourg = context.get("profile") == "LU"
        services.update_casino_settings(
            actor=users[roles.DIRECTOR],
            name="Casino de la Moselle — démonstration"
            if luxembourg
            else "Casino de la Côte — démonstration",
            profile="LU" if luxembourg else "FR",
            authorised_min_stake=Decimal("10.00") if luxembourg else Decimal("5.00"),
            authorisation_reference="Arrêté ministériel du 2 janvier 2026 (démonstration)",
            **({} if luxembourg else {"surrender": True}),
        )
        context["created"].append("casino settings")
    context["casino"] = CasinoSettings.objects.get()
    if context["casino"].profile == "LU":
        _before_the_seances(context)


def _before_the_seances(context: dict[str, Any]) -> None:
    """Under LU, the books that bind the opening of a séance, written before the tables' demo
    opens yesterday's and today's: whoever signs or counts is approved (LU art. 51, 54, 63),
    the hours are notified (LU art. 71), the bank failed once and was authorised again
    (LU art. 11). The shoes come once the tables exist: :func:`seed_devices`."""
    users = context["users"]
    director = users[roles.DIRECTOR]
    if not Approval.objects.exists():
        _approvals(director, users)
        context["created"].append("agréments")
    if not SeanceHours.objects.exists():
        _hours(director)
        context["created"].append("heures des séances")
    if not BankFailure.objects.exists():
        _bank_failure(director)
        context["created"].append("défaillance de la contrepartie")


def seed_devices(context: dict[str, Any], past_day: Callable[..., None] | None = None) -> None:
    """Under LU, after the tables' creation and before their séances: each séance's table has
    its shoe from the cabinet, assigned by the director to a table in service (LU art. 32 §3, 40).
    With ``past_day``, the tables' demo writer of an older gaming day (this app does not reach
    the tables' demo), the month before yesterday is written around the shoes it uses."""
    if context["casino"].profile != "LU" or ShoeDevice.objects.exists():
        return
    director = context["users"][roles.DIRECTOR]
    devices = _register_devices(director)
    context["created"].append("sabots")
    if past_day is not None and _month(context, devices, past_day):
        context["created"].append("séances du mois")
    _assign_current(director, devices)


#: The hours notified two months ago (LU art. 71), in force over the month before today:
#: evenings from 20:00, from 16:00 on Sundays and holidays, until midnight.
EVENING_START, HOLIDAY_START, MIDNIGHT = dt.time(20, 0), dt.time(16, 0), dt.time(0, 0)


def _hours(director: Any) -> None:
    """The evening hours in force over the past month; those in force from this morning's
    change of gaming day (the demo's séances of today open whenever it is seeded, from then
    on); and a change notified for next week."""
    today = clock.demo_today()
    rollover = CasinoSettings.objects.get().gaming_day_rollover
    _notify(
        actor=director,
        weekday_start=EVENING_START,
        holiday_start=HOLIDAY_START,
        closing=MIDNIGHT,
        effective_from=timezone.make_aware(dt.datetime.combine(today - dt.timedelta(days=60), rollover)),
        notified_at=_at(today - dt.timedelta(days=64), 10),
        reference="Avis n° 2026/03 aux Ministres de la Justice et des Finances",
    )
    _notify(
        actor=director,
        weekday_start=rollover,
        holiday_start=rollover,
        # a minute before the next roll-over (the closing hour cannot be the opening's): the demo is
        # seeded at any hour, the hour before the roll-over included, and its séances of today
        # stay within their hours (LU art. 71)
        closing=(dt.datetime.combine(today, rollover) - dt.timedelta(minutes=1)).time(),
        effective_from=timezone.make_aware(dt.datetime.combine(today, rollover)),
        notified_at=_at(today - dt.timedelta(days=3), 10),
        reference="Avis n° 2026/07 aux Ministres de la Justice et des Finances",
    )
    _notify(
        actor=director,
        weekday_start=dt.time(14, 0),
        holiday_start=dt.time(12, 0),
        closing=dt.time(4, 0),
        effective_from=_at(today + dt.timedelta(days=7), 6),
        notified_at=min(_at(today, 9), timezone.now()),
        reference="Avis n° 2026/08 aux Ministres de la Justice et des Finances",
    )


def _notify(**values: Any) -> None:
    """A notice written when it was given (LU art. 71: never back-dated)."""
    with tables.history_at(values["notified_at"]):
        notify_seance_hours(**values)


def _bank_failure(director: Any) -> None:
    """Three weeks ago the bank could not be held; the new authorisation came a week later."""
    today = clock.demo_today()
    failure = record_bank_failure(
        actor=director,
        occurred_at=_at(today - dt.timedelta(days=21), 23, 10),
        description="Encaisse de la contrepartie insuffisante après un gain de 48 000 à la table 3 ; jeux de contrepartie arrêtés séance tenante",
        officer_name="Inspecteur Weber, service des jeux",
        officer_told_at=_at(today - dt.timedelta(days=21), 23, 15),
        minister_told_at=_at(today - dt.timedelta(days=21), 23, 40),
    )
    record_new_authorisation(
        actor=director,
        failure=failure,
        granted_on=today - dt.timedelta(days=14),
        reference="Arrêté ministériel MF/JEUX/2026-112",
    )


#: The shoes assigned to the demo's séances: (days before today, table, shoe n°), varied.
ASSIGNMENTS = ((1, 1, 3), (1, 2, 1), (1, 3, 6), (1, 4, 2), (0, 1, 4), (0, 2, 5))


#: The shoes entered the cabinet's book before the month of séances that uses them.
DEVICES_REGISTERED = 40


def _register_devices(director: Any) -> list[ShoeDevice]:
    """Six shoes of an approved model, in the cabinet's book before any séance uses them."""
    with tables.history_at(_at(clock.demo_today() - dt.timedelta(days=DEVICES_REGISTERED), 10)):
        return [
            register_device(
                actor=director,
                approved_model="Sabot 8 jeux Dolphin DS-8",
                approval_reference="MF/SAB/2025-031",
            )
            for _n in range(6)
        ]


def _assign_current(director: Any, devices: list[ShoeDevice]) -> None:
    """Each séance's table of yesterday and today gets a shoe, never in the same order (a shoe
    assigned for yesterday is in use until it is returned: today's come from the cabinet)."""
    today = clock.demo_today()
    for days, table, number in ASSIGNMENTS:
        day = today - dt.timedelta(days=days)
        # before the séance: yesterday's in the evening, today's now
        with tables.history_at(min(_at(day, 19, 30), timezone.now())):
            assign_device(actor=director, device=devices[number - 1], table_number=table, day=day)


#: The month before yesterday (LU): the days before today whose séances the demo writes.
MONTH = range(29, 1, -1)
#: The players' win at table 3 that made the bank fail (see :func:`_bank_failure`).
FAILURE_LOSS = Decimal("48000.00")


def _month(context: dict[str, Any], devices: list[ShoeDevice], past_day: Callable[..., None]) -> int:
    """The month before yesterday, day by day: two to four séances within the evening hours
    then notified, each table with a shoe from the cabinet (turned across the tables from one
    day to the next, so never systematic) put back after the séance, the day closed in the
    control register. The failure's evening stops early; no séance opens between the bank
    failure and its new authorisation (LU art. 11). Returns the days written."""
    director = context["users"][roles.DIRECTOR]
    today = clock.demo_today()
    failure = BankFailure.objects.select_related("new_authorisation").order_by("occurred_at").first()
    written = 0
    for days_ago in MONTH:
        day = today - dt.timedelta(days=days_ago)
        planned = _day_plan(day, failure)
        if planned is None:
            continue
        plan, opens_at, closes_at = planned
        with tables.history_at(opens_at - dt.timedelta(minutes=30)):  # the shoes given out before the séances
            assignments = [
                assign_device(
                    actor=director,
                    device=devices[(day.toordinal() + number) % len(devices)],
                    table_number=number,
                    day=day,
                )
                for number, _further, _result in plan
            ]
        stopped = None
        if failure is not None and timezone.localtime(failure.occurred_at).date() == day:
            stopped = _stopped_by_the_failure(context["users"], failure, plan)
        past_day(context, day, plan, opens_at=opens_at, closes_at=closes_at, before_close=stopped)
        with tables.history_at(closes_at + dt.timedelta(minutes=5)):  # back in the cabinet after the séances
            for assignment in assignments:
                return_device(actor=director, assignment=assignment)
        written += 1
    return written


def _stopped_by_the_failure(
    users: dict[str, Any], failure: BankFailure, plan: list[tuple[int, bool, Decimal]]
) -> Callable[[list[Any]], None]:
    """The séances of the failure's evening stop at once (LU art. 11): each interrupted, its
    cash counted and written before the cashier since every table stops (LU art. 23), the line
    saying why; then reopened only to be counted and closed, the stop before the closing hour
    recorded with its cause (LU art. 71)."""
    director, croupier, cashier = users[roles.DIRECTOR], users[roles.CROUPIER], users[roles.CASHIER]
    results = {number: result for number, _further, result in plan}
    note = (
        f"Défaillance de la contrepartie du {dates.moment(failure.occurred_at)} : "
        "jeux de contrepartie arrêtés séance tenante (LU art. 11)"
    )

    def record(sessions: list[Any]) -> None:
        with tables.history_at(failure.occurred_at + dt.timedelta(minutes=2)):
            for session in sessions:
                session.refresh_from_db()  # its advances, the further one included
                tables_services.interrupt_session(
                    actor=croupier,
                    session=session,
                    mode="counted",
                    amount=session.advances_total + results[session.table.number],
                    signed_by=director,
                    cashier=cashier,
                    note=note,
                )
        for session in sessions:
            tables_services.resume_session(actor=croupier, session=session)
            record_early_stop(
                actor=director,
                session=session,
                reason="bank_failure",
                stopped_at=failure.occurred_at + dt.timedelta(minutes=5),
                note="Jeux de contrepartie arrêtés séance tenante ; encaisse comptée à l'interruption",
            )

    return record


def _day_plan(
    day: dt.date, failure: BankFailure | None
) -> tuple[list[tuple[int, bool, Decimal]], dt.datetime, dt.datetime] | None:
    """The séances of ``day`` (table, further advance, result), their opening and their
    closing, or ``None`` when no séance may open (after the bank failure, before its new
    authorisation). More tables on Fridays and Saturdays; earlier on Sundays and holidays."""
    start = HOLIDAY_START if selectors.is_sunday_or_holiday(day, "LU") else EVENING_START
    opens_at = _at(day, start.hour, start.minute)
    closes_at = _at(day + dt.timedelta(days=1), MIDNIGHT.hour, MIDNIGHT.minute)
    failed_on = timezone.localtime(failure.occurred_at).date() if failure is not None else None
    if failure is not None and failed_on is not None and failed_on < day:
        authorisation = getattr(failure, "new_authorisation", None)
        if authorisation is None or day < authorisation.granted_on:
            return None
    rng = random.Random(day.toordinal())
    count = 4 if day.weekday() in (4, 5) else 3 if day.weekday() == 6 else rng.choice((2, 3))
    numbers = sorted([1, *rng.sample([2, 3, 4], count - 1)])
    if failure is not None and day == failed_on:
        # the counterpart games stopped at once, table 3 emptied by a player's win
        numbers = sorted({*numbers, 3})
        closes_at = failure.occurred_at + dt.timedelta(minutes=20)
    plan = []
    for number in numbers:
        if day == failed_on and number == 3:
            plan.append((number, True, -FAILURE_LOSS))
            continue
        plan.append((number, rng.random() < 0.3, Decimal(rng.randrange(-1600, 2601) * 5)))
    return plan, opens_at, closes_at


def _after_the_seances(context: dict[str, Any]) -> None:
    """Under LU: yesterday's shoes back in the cabinet; today's table 2 stops early, three
    coups without a stake (LU art. 71), before its closing count."""
    director = context["users"][roles.DIRECTOR]
    today = clock.demo_today()
    out = DeviceAssignment.objects.filter(day__lt=today, returned_at__isnull=True).order_by(
        "day", "table_number"
    )
    for assignment in out:
        # back in the cabinet at the end of the séance (the closing hour then: midnight)
        back = _at(assignment.day + dt.timedelta(days=1), 0, 5)
        with tables.history_at(min(back, timezone.now())):
            return_device(actor=director, assignment=assignment)
    if out:
        context["created"].append("sabots rentrés")
    if not EarlyStop.objects.filter(session__day=today).exists():
        session = tables.open_sessions().filter(day=today, table__number=2).first()
        if session is not None and session.opened_at < timezone.now():
            record_early_stop(
                actor=director,
                session=session,
                reason="no_stake",
                stopped_at=timezone.now(),
                note="Trois coups de suite sans aucune mise ; le chef de table a annoncé les trois dernières séries",
            )
            context["created"].append("arrêt avant l'heure de fermeture")


def seed(context: dict[str, Any]) -> None:
    users = context["users"]
    director = users[roles.DIRECTOR]
    committee = users[roles.COMMITTEE]
    if context["casino"].profile == "LU":
        _after_the_seances(context)
    if not Approval.objects.exists():
        _approvals(director, users)
        context["created"].append("agréments")
    if not TipsCount.objects.exists():
        _tips(users)
        context["created"].append("pourboires")
    if not OrphanEntry.objects.exists():
        _orphans(director, committee)
        context["created"].append("orphelins")
    if not Exclusion.objects.exists():
        _exclusions(director, committee, context.get("depot", {}).get("marking_incident"))
        context["created"].append("exclusions")
    if context.get("profile") == "LU" and not TableNotice.objects.exists():
        _table_notices(director)
        context["created"].append("avis des tables")


def _table_notices(director: Any) -> None:
    """LU art. 74: the notice at each table, from the limits of its latest séance."""
    for row in tables.limits_in_force():
        if row["minimum"] is not None:
            services.post_table_notice(actor=director, table=row["number"], day=clock.demo_today())


def _exclusions(director: Any, committee: Any, incident: Any = None) -> None:
    """A month of the fichier des exclus: the minister's decisions notified to the director,
    the management's own measures notified to the minister at once (the exclusion of a player
    who marked the cards behind the depot's card incident, ``incident``), one radiation, one
    entry refused at the door. Every notice is dated the demo's day (or the day before): the
    fichier is seeded now, and a notice declared long before its recording is named (LU art. 68,
    69)."""
    today = clock.demo_today()

    def ago(days: int) -> dt.date:
        return today - dt.timedelta(days=days)

    for last, first, born, ground, days, ref in (
        ("Kieffer", "Marc Joseph", dt.date(1971, 4, 2), "request", 27, "MJ/EXCL/2026-031"),
        ("Reuter", "Anne", dt.date(1985, 11, 19), "incapable", 19, "MJ/EXCL/2026-034"),
        ("Thill", "Georges", dt.date(1962, 6, 8), "disorder", 8, "MJ/EXCL/2026-040"),
    ):
        services.record_ministerial_exclusion(
            actor=director,
            last_name=last,
            first_names=first,
            birth_date=born,
            ground=ground,
            decided_on=ago(days + 2),
            reference=ref,
            # told to the director today: the fichier is written the day he is told (its
            # recording is the system's time, LU art. 68)
            director_notified_on=ago(0),
        )
    own = services.record_own_exclusion(
        actor=committee,
        kind="exclusion",
        last_name="Wagner",
        first_names="Paul",
        birth_date=dt.date(1990, 1, 23),
        decided_on=ago(1),
        reasons="Tentative de marquer les cartes à la table 2, constatée par le chef de table"
        + (f" (incident n° {incident.number} du dépôt)" if incident is not None else ""),
    )
    services.notify_own_exclusion(
        actor=director,
        exclusion=own,
        notified_on=ago(0),
        reference="Lettre n° 2026/118 au Ministre de la Justice",
    )
    refusal = services.record_own_exclusion(
        actor=committee,
        kind="refusal",
        last_name="Hoffmann",
        first_names="Sven",
        birth_date=dt.date(1998, 9, 30),
        decided_on=ago(0),
        reasons="Se présente en état d'ivresse à l'entrée des salles (LU art. 75)",
    )
    services.notify_own_exclusion(
        actor=director,
        exclusion=refusal,
        notified_on=ago(0),
        reference="Lettre n° 2026/131 au Ministre de la Justice",
    )
    kieffer = Exclusion.objects.get(reference="MJ/EXCL/2026-031")
    services.lift_exclusion(
        actor=director,
        exclusion=kieffer,
        lifted_on=ago(2),
        reference="MJ/EXCL/2026-031/R (radiation à sa demande)",
    )
    # LU art. 67, 75: the physionomiste keeps an excluded person out, under his exclusion
    thill = Exclusion.objects.get(reference="MJ/EXCL/2026-040")
    services.record_refused_entry(
        actor=director,
        exclusion=thill,
        refused_at=_at(ago(3), 21, 40),
        last_name="Thill",
        first_names="Georges",
        birth_date=dt.date(1962, 6, 8),
        physionomiste="Jean Schmit",
        remark="Carte d'identité présentée à l'entrée ; personne éconduite sans incident",
    )


def _orphans(director: Any, committee: Any) -> None:
    today = clock.demo_today()
    last_year = today.year - 1
    # last exercise: two sums found, one given back, the balance paid to the commune
    first = _orphan(
        actor=committee,
        found_at=_at(dt.date(last_year, 12, 12), 23, 40),
        kind="floor",
        amount=Decimal("50.00"),
        description="Plaque de 50 trouvée sous la table 2 au nettoyage",
    )
    _orphan(
        actor=committee,
        found_at=_at(dt.date(last_year, 12, 20), 1, 15),
        kind="abandoned",
        table_number=3,
        stake=Decimal("25.00"),
        winnings=Decimal("37.50"),
        description="Mise restée sur la case 4 après le départ du joueur, gagnée deux coups",
    )
    services.repay_orphan(
        actor=director,
        entry=first,
        repaid_on=dt.date(last_year, 12, 14),
        amount=Decimal("50.00"),
        owner_name="Henri Weber",
        owner_address="12 rue de la Gare, 1611 Luxembourg",
        proof="Reçu de change du 12/12 et enregistrement vidéo de la table 2",
    )
    services.transfer_orphans(
        actor=director,
        exercise=last_year,
        transferred_on=min(dt.date(today.year, 1, 6), today),
        amount=Decimal("62.50"),
        commune="Mondorf-les-Bains",
        receipt=f"Quittance à souche n° {last_year}-117",
        minister_notified_on=min(dt.date(today.year, 1, 6), today),
    )
    # this exercise: a few sums found in the last month
    for days_ago, hour, kind, values, text in (
        (24, 22, "table", {"amount": Decimal("10.00")}, "Jeton de 10 laissé sur la table 1 à la fermeture"),
        (17, 21, "floor", {"amount": Decimal("5.00")}, "Jeton de 5 trouvé à terre près de la caisse"),
        (
            9,
            23,
            "abandoned",
            {"stake": Decimal("20.00"), "winnings": Decimal("20.00"), "table_number": 2},
            "Mise oubliée sur la case 2, gagnante une fois",
        ),
        (3, 0, "table", {"amount": Decimal("100.00")}, "Plaque de 100 laissée sur la table 4"),
    ):
        day = today - dt.timedelta(days=days_ago)
        if day.year != today.year:
            continue  # last exercise is closed
        _orphan(
            actor=committee,
            found_at=_at(day, hour),
            kind=kind,
            description=text,
            **values,
        )


def _orphan(**values: Any) -> Any:
    """A sum found, written in the carnet at once (LU art. 8): ten minutes after, at the latest now."""
    with tables.history_at(min(values["found_at"] + dt.timedelta(minutes=10), timezone.now())):
        return services.record_orphan(**values)


def _approvals(director: Any, users: dict[str, Any]) -> None:
    """The direction and the staff approved by the Minister of Justice; one dismissal."""
    today = clock.demo_today()
    # approved before the depot's first reception, a year of monthly deliveries (LU art. 51, 63)
    since = today - dt.timedelta(days=400)
    for role, function, job, ref in (
        (roles.DIRECTOR, "director", "", "MJ/JEUX/2026-004"),
        (roles.COMMITTEE, "committee", "", "MJ/JEUX/2026-005"),
        (roles.CROUPIER, "staff", "chef de table", "MJ/JEUX/2026-011"),
        (roles.CASHIER, "staff", "caissier", "MJ/JEUX/2026-012"),
    ):
        services.record_approval(
            actor=director, person=users[role], function=function, job=job, approved_on=since, reference=ref
        )
    # LU art. 51 I: with blackjack, the committee has at least four members, the director included
    # (under FR the committee is the casino's own affair)
    luxembourg = CasinoSettings.objects.get().profile == "LU"
    for username, first, last, ref in (
        (
            ("comite-2", "Anne", "Kremer", "MJ/JEUX/2026-006"),
            ("comite-3", "Nico", "Hansen", "MJ/JEUX/2026-007"),
        )
        if luxembourg
        else ()
    ):
        member, _created = get_user_model().objects.get_or_create(
            username=username,
            defaults={"first_name": first, "last_name": last, "is_staff": True},
        )
        if roles.COMMITTEE not in selectors.roles_by_act(member).get(member.pk, set()):
            services.grant_role(
                actor=director, person=member, role=roles.COMMITTEE, reason="Membre du comité (LU art. 51 I)"
            )
        services.record_approval(
            actor=director, person=member, function="committee", job="", approved_on=since, reference=ref
        )
    former, _created = get_user_model().objects.get_or_create(
        username="ancien-croupier", defaults={"first_name": "Luc", "last_name": "Schmit", "is_active": False}
    )
    approval = services.record_approval(
        actor=director,
        person=former,
        function="staff",
        job="croupier",
        approved_on=since,
        reference="MJ/JEUX/2026-013",
    )
    services.end_approval(
        actor=director,
        approval=approval,
        kind="dismissed",
        ended_on=today - dt.timedelta(days=40),
        reference="Absences répétées sans motif",
        minister_notified_on=today - dt.timedelta(days=40),
    )


def _tips(users: dict[str, Any]) -> None:
    """The tips box counted for every day a séance was held, by the cashier before a committee member."""
    today = clock.demo_today()
    days = sorted({s.day for s in tables.sessions().filter(day__lte=today).only("day", "table")})
    for number, day in enumerate(days):
        services.count_tips(
            actor=users[roles.CASHIER],
            witness=users[roles.COMMITTEE],
            day=day,
            box="Tirelire n° 1",
            amount=Decimal("85.00") + Decimal(number * 37 % 120),
            counted_at=min(_at(day + dt.timedelta(days=1), 4, 30), timezone.now()),
            note="Comptée à la fermeture des salles",
        )
