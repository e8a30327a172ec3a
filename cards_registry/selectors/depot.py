"""The depot's state: the key, the sixains held, the decks out at the tables, the settings."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from typing import Any

from django.db.models import Max, Model, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from audit.actions import Action
from audit.models import AuditEvent
from casino_ops.checks import inspect
from casino_ops.regulations import cite
from casino_ops.services import get_casino

from ..models import (
    Correction,
    Deck,
    DeckStatus,
    DepotSettings,
    Incident,
    IncidentRoute,
    IssueLine,
    KeyHandover,
    Sixain,
    TableIssue,
    correction_key,
)
from ..rules import report_is_late


def current_key_holder() -> Any | None:
    """The holder of the cabinet's single key (the receiver of the last handover)."""
    last = KeyHandover.objects.select_related("receiver").order_by("-at", "-id").first()
    return last.receiver if last else None


def held_sixains() -> int:
    """How many sixains the depot holds (LU art. 6): every sixain with at least one deck not yet
    destroyed, plus the loose decks held (received outside a sixain), six to a sixain, rounded up."""
    sixains = Sixain.objects.filter(decks__in=Deck.objects.exclude(status=DeckStatus.DESTROYED)).distinct()
    loose = Deck.objects.filter(sixain__isnull=True).exclude(status=DeckStatus.DESTROYED).count()
    return sixains.count() + -(-loose // 6)


def current_value(entry: Model, field: str) -> str:
    """The value of ``field`` of a book entry as it stands after the corrections already made."""
    key = correction_key(type(entry))
    last = Correction.objects.filter(**{key: entry, "field": field}).order_by("-at", "-id").first()
    if last is not None:
        return last.new_value
    value = getattr(entry, field)
    return "" if value is None else str(value)


def decks_issued_to(*, table_number: int, day: dt.date) -> QuerySet[Deck]:
    """Decks issued to table ``table_number`` for ``day`` and not yet returned.

    Their status is ``issued`` or ``in_play`` (a deck quarantined at the table by an
    incident is no longer usable, hence not listed).
    """
    return (
        Deck.objects.filter(
            issue_lines__issue__table_number=table_number,
            issue_lines__issue__day=day,
            issue_lines__return_line__isnull=True,
            status__in=[DeckStatus.ISSUED, DeckStatus.IN_PLAY],
        )
        .select_related("manufacturer", "sixain")
        .order_by("sixain__serial", "serial")
        .distinct()
    )


def decks_out(*, table_number: int | None = None, day: dt.date | None = None) -> QuerySet[Deck]:
    """Decks issued to a table (``table_number``, ``day``: both optional) and not yet returned,
    whatever their state (issued, in play, or quarantined at the table by an incident).

    A session, or the control register's day, cannot close while this is not empty
    (FR art. 40 §5, LU art. 7 §5: the decks come back at once).
    """
    lines = IssueLine.objects.filter(return_line__isnull=True)
    if table_number is not None:
        lines = lines.filter(issue__table_number=table_number)
    if day is not None:
        lines = lines.filter(issue__day=day)
    return (
        Deck.objects.filter(issue_lines__in=lines)
        .select_related("manufacturer", "sixain")
        .order_by("serial")
        .distinct()
    )


def decks_checked_for_play(*, table_number: int, day: dt.date) -> QuerySet[Deck]:
    """Decks that may go into a shoe at ``table_number`` on ``day``: issued to it for that day,
    not returned, unsealed or checked at that table (a :class:`TableCheck` on that issue) and in
    play (FR art. 40, 55-4; LU art. 7, 32). The tables exclude the decks of their other live shoes.
    """
    return (
        Deck.objects.filter(
            issue_lines__issue__table_number=table_number,
            issue_lines__issue__day=day,
            issue_lines__return_line__isnull=True,
            issue_lines__table_check__isnull=False,
            status=DeckStatus.IN_PLAY,
        )
        .select_related("manufacturer", "sixain")
        .order_by("sixain__serial", "serial")
        .distinct()
    )


def decks_in_cabinet_per_books() -> QuerySet[Deck]:
    """Decks the books say are in the cabinet: fit, out of use, or quarantined there."""
    out = IssueLine.objects.filter(return_line__isnull=True).values("deck_id")
    return (
        Deck.objects.filter(status__in=[DeckStatus.IN_CABINET, DeckStatus.OUT_OF_USE, DeckStatus.QUARANTINED])
        .exclude(pk__in=out)
        .select_related("manufacturer")
        .order_by("manufacturer__code", "serial")
    )


def depot_settings() -> Any:
    """The depot's settings (the defaults until the director saves them)."""
    return DepotSettings.objects.filter(pk=1).first() or DepotSettings(pk=1)


def last_sixain_cap_act() -> dict[str, Any] | None:
    """The last act that set the sixain cap (LU art. 6): ``{"at", "after", "reference"}`` (the
    reference of the ministry's decision, "" when the act gave none); ``None`` if never set."""
    for recorded_at, payload in (
        AuditEvent.objects.filter(action=Action.DEPOT_SETTINGS_CHANGED)
        .order_by("-id")
        .values_list("recorded_at", "payload")
    ):
        said = json.loads(payload)
        if "max_sixains" in said:
            after = said["max_sixains"].get("after") if isinstance(said["max_sixains"], dict) else None
            return {"at": recorded_at, "after": after, "reference": str(said.get("reference") or "")}
    return None


def late_or_unreported_incidents(now: dt.datetime) -> list[tuple[Incident, str]]:
    """Open or closed incidents not yet reported to the officer, or reported late:
    ``(incident, "unreported"|"late")`` (FR art. 40 §5, LU art. 7 §5). The report's moment is its
    recording (:attr:`Incident.told_at`); a report recorded more than the delay after the moment
    it declares is late too, whatever that moment."""
    minutes = depot_settings().incident_report_minutes
    found: list[tuple[Incident, str]] = []
    for incident in Incident.objects.select_related("later_report", "officer_informed").order_by("number"):
        delay = incident.report_delay
        if delay is None:
            if now - incident.occurred_at > dt.timedelta(minutes=minutes):
                found.append((incident, "unreported"))
        elif report_is_late(delay, minutes) or report_is_late(incident.declared_gap, minutes):
            found.append((incident, "late"))
    return found


def incidents_of_return(deck_return: Any) -> dict[int, Incident]:
    """The incidents a return opened (its examination or its count), by deck id
    (FR art. 40 §5, LU art. 7 §5): the decks concerned are quarantined, not back for use."""
    opened = (
        Incident.objects.filter(
            route=IncidentRoute.RETURN,
            table_number=deck_return.table_number,
            day=deck_return.day,
            occurred_at=deck_return.at,
        )
        .prefetch_related("decks")
        .order_by("number")
    )
    found: dict[int, Incident] = {}
    for incident in opened:
        for deck in incident.decks.all():
            found.setdefault(deck.pk, incident)
    return found


def incidents_of_replay(*, table_number: int, day: dt.date, shoe_reference: str) -> list[Incident]:
    """The incidents the replay of a shoe's hand logs opened (a card that is no card, a card too
    many: FR art. 40, LU art. 7), their decks quarantined, by number."""
    return list(
        Incident.objects.filter(
            route=IncidentRoute.REPLAY, table_number=table_number, day=day, shoe_reference=shoe_reference
        )
        .prefetch_related("decks")
        .order_by("number")
    )


def incident_notice(incidents: Iterable[Incident]) -> str:
    """What an act that opened ``incidents`` says on the page it returns (FR art. 40 §5, LU art.
    7 §5): each incident's number, the decks it quarantined, the article, and what to do next."""
    article = cite("depot.incident", get_casino().profile)
    said = []
    for incident in incidents:
        serials = sorted(deck.serial for deck in incident.decks.all())
        said.append(
            ngettext(
                "Incident n° %(number)s ouvert : jeu %(serials)s consigné au dépôt, hors du jeu "
                "jusqu'à la clôture de l'incident par l'officier (%(article)s).",
                "Incident n° %(number)s ouvert : jeux %(serials)s consignés au dépôt, hors du jeu "
                "jusqu'à la clôture de l'incident par l'officier (%(article)s).",
                len(serials),
            )
            % {"number": incident.number, "serials": ", ".join(serials), "article": article}
        )
    if not said:
        return ""
    return " ".join([*said, _("Signalez-le sur-le-champ à l'officier.")])


def open_incidents_at(*, table_number: int, day: dt.date) -> list[Incident]:
    """The incidents still open that were found at a table on a gaming day (a check at the
    table, a shoe refused for its composition, the replay of its hand logs, a return)."""
    return list(
        Incident.objects.filter(table_number=table_number, day=day, closure__isnull=True)
        .prefetch_related("decks")
        .order_by("number")
    )


def last_issue_day() -> dt.date | None:
    """The latest gaming day decks were issued for."""
    latest: dt.date | None = TableIssue.objects.aggregate(latest=Max("day"))["latest"]
    return latest


def incidents_not_closed() -> QuerySet[Incident]:
    """The incidents not closed yet, by number, with their decks and the officer told."""
    return (
        Incident.objects.filter(closure__isnull=True)
        .select_related("officer_informed")
        .prefetch_related("decks")
        .order_by("number")
    )


def decks_out_of_use() -> QuerySet[Deck]:
    """The decks declared out of use, still in the cabinet, by serial."""
    return (
        Deck.objects.filter(status=DeckStatus.OUT_OF_USE)
        .select_related("manufacturer", "sixain")
        .order_by("serial")
    )


def self_inspection(day: dt.date | None = None) -> dict[str, Any]:
    """The self-inspection now (of ``day``, else of the gaming day): its checks and breaches."""
    found: dict[str, Any] = inspect(day).as_dict()
    return found
