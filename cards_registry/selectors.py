"""Reads of the card depot: for the tables, the admin, the portal and the printed registers.

Every function here only reads, and loads what it returns in a fixed number of
queries whatever the size of the result (``select_related``/``prefetch_related``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Model, Prefetch, QuerySet
from django.utils import timezone

from audit.actions import Action
from audit.selectors import audit_numbers
from casino_ops.regulations import RegulationError, cite

from . import history
from .history import HistoryLine
from .models import (
    CabinetOpening,
    Correction,
    Deck,
    DeckStatus,
    DepotSettings,
    Destruction,
    DestructionLine,
    Incident,
    IssueLine,
    KeyHandover,
    Order,
    Reception,
    ReturnResult,
    Sixain,
    correction_key,
)
from .rules import report_is_late

# -- the depot's state ---------------------------------------------------------------------


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


# -- the tables' side -------------------------------------------------------------------


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


def late_or_unreported_incidents(now: dt.datetime) -> list[tuple[Incident, str]]:
    """Open or closed incidents not yet reported to the officer, or reported late:
    ``(incident, "unreported"|"late")`` (FR art. 40 §5, LU art. 7 §5)."""
    minutes = depot_settings().incident_report_minutes
    found: list[tuple[Incident, str]] = []
    for incident in Incident.objects.select_related("later_report", "officer_informed").order_by("number"):
        delay = incident.report_delay
        if delay is None:
            if now - incident.occurred_at > dt.timedelta(minutes=minutes):
                found.append((incident, "unreported"))
        elif report_is_late(delay, minutes):
            found.append((incident, "late"))
    return found


# -- audit sequence numbers -------------------------------------------------------------


#: The acts whose audit numbers a deck's history shows, by the model they are recorded on.
_HISTORY_ACTS: dict[str, tuple[Action, ...]] = {
    "order": (Action.DEPOT_ORDER_CREATED,),
    "reception": (Action.DEPOT_RECEPTION_RECORDED, Action.DEPOT_RECEPTION_STAMPED),
    "tableissue": (Action.DEPOT_DECKS_ISSUED,),
    "tablecheck": (Action.DEPOT_DECK_CHECKED,),
    "deckreturn": (Action.DEPOT_DECKS_RETURNED,),
    "incident": (Action.DEPOT_INCIDENT_REPORTED, Action.DEPOT_INCIDENT_CLOSED),
    "destruction": (Action.DEPOT_DESTRUCTION_RECORDED, Action.DEPOT_DESTRUCTION_STAMPED),
}


def _history_numbers(objects: Iterable[Any]) -> dict[tuple[str, str, str], int | None]:
    """``{(object_type, object_id, action): seq}`` for the acts of a deck's history."""
    by_model: dict[str, list[Any]] = {}
    for obj in objects:
        if obj is not None:
            by_model.setdefault(obj._meta.model_name, []).append(obj)
    found: dict[tuple[str, str, str], int | None] = {}
    for model_name, instances in by_model.items():
        object_type = instances[0]._meta.label_lower
        for action in _HISTORY_ACTS[model_name]:
            for object_id, seq in audit_numbers(instances, action).items():
                found[(object_type, object_id, action)] = seq
    return found


def _seq(numbers: dict[tuple[str, str, str], int | None], obj: Any, action: str) -> int | None:
    return numbers.get((obj._meta.label_lower, str(obj.pk), action))


_UNFIT = {ReturnResult.MARKED: "marqué", ReturnResult.DAMAGED: "abîmé", ReturnResult.WORN: "usé"}

# -- a deck's life -----------------------------------------------------------------------


def resolve_decks(
    tokens: Iterable[str] = (), sixains: Iterable[str] = (), *, profile: str = "FR"
) -> list[Deck]:
    """The decks named by serial (``A1-1``, or ``MAKER:A1-1`` when two makers share it) and by
    sixain serial (its decks), as a director or an API client names them: never by database id.

    An unknown or ambiguous name is a :class:`RegulationError` naming the field.
    """
    from django.utils.translation import gettext as _

    article = cite("depot.receipt_book", profile)
    found: list[Deck] = []
    for token in tokens:
        token = str(token).strip()
        if not token:
            continue
        code, _sep, serial = token.rpartition(":")
        matches = find_deck(serial, code or None)
        if len(matches) != 1:
            raise RegulationError(
                "DECK_UNKNOWN" if not matches else "DECK_AMBIGUOUS",
                (
                    _("Jeu inconnu : %(serial)s.")
                    if not matches
                    else _("Plusieurs fabricants ont le jeu %(serial)s : écrivez FABRICANT:%(serial)s.")
                )
                % {"serial": token},
                article,
                field="decks",
            )
        found.append(matches[0])
    for token in sixains:
        token = str(token).strip()
        if not token:
            continue
        code, _sep, serial = token.rpartition(":")
        decks = Deck.objects.filter(sixain__serial=serial).select_related("manufacturer").order_by("serial")
        if code:
            decks = decks.filter(manufacturer__code=code)
        if not decks or len({d.manufacturer_id for d in decks}) != 1:
            raise RegulationError(
                "SIXAIN_UNKNOWN",
                _("Sixain inconnu ou ambigu : %(serial)s.") % {"serial": token},
                article,
                field="sixains",
            )
        found.extend(decks)
    unique: dict[int, Deck] = {}
    for deck in found:
        unique.setdefault(deck.pk, deck)
    return list(unique.values())


def find_deck(serial: str, manufacturer_code: str | None = None) -> list[Deck]:
    """The decks with ``serial`` (one per maker; give the maker's code to choose)."""
    decks = Deck.objects.filter(serial=serial).select_related("manufacturer")
    if manufacturer_code:
        decks = decks.filter(manufacturer__code=manufacturer_code)
    return list(decks.order_by("manufacturer__code"))


def deck_history(deck: Deck) -> list[HistoryLine]:
    """Every step of ``deck``'s life, in time order, with the audit number of each act.

    Order, reception, each issue to a table and its check at the table, each return
    and its examination, incidents and their closure, destruction and its visa, plus
    the lines of the providers registered in :mod:`cards_registry.history` (the
    tables' shoes and sessions).
    """
    deck = (
        Deck.objects.select_related(
            "manufacturer",
            "sixain",
            "reception__book",
            "reception__order__book",
            "reception__visa__officer",
            "destruction_line__destruction__officer",
            "destruction_line__destruction__visa__officer",
        )
        .prefetch_related(
            "issue_lines__issue",
            "issue_lines__table_check",
            "issue_lines__return_line__deck_return",
            "incidents__officer_informed",
            "incidents__later_report__officer",
            "incidents__closure__officer",
            "incidents__closure__decks_fit",
        )
        .get(pk=deck.pk)
    )
    reception = deck.reception
    order = reception.order
    objects: list[Any] = [order, reception]
    for line in deck.issue_lines.all():
        objects.append(line.issue)
        if hasattr(line, "table_check"):
            objects.append(line.table_check)
        if hasattr(line, "return_line"):
            objects.append(line.return_line.deck_return)
    for incident in deck.incidents.all():
        objects.append(incident)
    destruction_line = getattr(deck, "destruction_line", None)
    if destruction_line is not None:
        objects.append(destruction_line.destruction)
    numbers = _history_numbers(objects)

    lines: list[HistoryLine] = [
        HistoryLine(
            order.recorded_at,
            f"Commandé : bon n° {order.number} du carnet n° {order.book.number} du "
            f"{order.ordered_on:%d/%m/%Y} chez {deck.manufacturer.name}",
            _seq(numbers, order, Action.DEPOT_ORDER_CREATED),
        ),
        HistoryLine(
            reception.recorded_at,
            f"Pris en charge : n° {reception.number} du carnet n° {reception.book.number} du "
            f"{reception.received_on:%d/%m/%Y}"
            + (f", sixain {deck.sixain.serial}" if deck.sixain else "")
            + f", dos {deck.back_colour}",
            _seq(numbers, reception, Action.DEPOT_RECEPTION_RECORDED),
        ),
    ]
    visa = getattr(reception, "visa", None)
    if visa is not None:
        lines.append(
            HistoryLine(
                visa.at,
                f"Prise en charge n° {reception.number} visée par {_name(visa.officer)}",
                _seq(numbers, reception, Action.DEPOT_RECEPTION_STAMPED),
            )
        )
    for line in deck.issue_lines.all():
        lines.extend(_table_lines(line, numbers))
    for incident in deck.incidents.all():
        lines.extend(_incident_lines(incident, deck, numbers))
    if destruction_line is not None:
        destruction = destruction_line.destruction
        lines.append(
            HistoryLine(
                destruction.at,
                f"Détruit : procès-verbal n° {destruction.number}, devant {_name(destruction.officer)} "
                f"(complet : {'oui' if destruction_line.complete else 'non'}, "
                f"non marqué : {'oui' if destruction_line.unmarked else 'non'})",
                _seq(numbers, destruction, Action.DEPOT_DESTRUCTION_RECORDED),
            )
        )
        dvisa = getattr(destruction, "visa", None)
        if dvisa is not None:
            lines.append(
                HistoryLine(
                    dvisa.at,
                    f"Destruction n° {destruction.number} visée par {_name(dvisa.officer)}",
                    _seq(numbers, destruction, Action.DEPOT_DESTRUCTION_STAMPED),
                )
            )
    for provider in history.providers():
        lines.extend(provider(deck))
    return history.merge(lines)


def _table_lines(line: Any, numbers: dict[tuple[str, str, str], int | None]) -> list[HistoryLine]:
    """A deck's issue to a table, its check there and its return (for :func:`deck_history`)."""
    lines: list[HistoryLine] = []
    issue = line.issue
    lines.append(
        HistoryLine(
            issue.at,
            f"Remis à la table {issue.table_number} pour la journée du {issue.day:%d/%m/%Y}",
            _seq(numbers, issue, Action.DEPOT_DECKS_ISSUED),
        )
    )
    check = getattr(line, "table_check", None)
    if check is not None:
        what = "Descellé à la table" if check.new_deck else "Contrôlé à la table"
        video = f", vidéo {check.video_reference}" if check.video_reference else ""
        lines.append(
            HistoryLine(
                check.at,
                f"{what} {issue.table_number} : {check.cards_counted} cartes, témoin {check.witness}{video}",
                _seq(numbers, check, Action.DEPOT_DECK_CHECKED),
            )
        )
    returned = getattr(line, "return_line", None)
    if returned is not None:
        deck_return = returned.deck_return
        seq = _seq(numbers, deck_return, Action.DEPOT_DECKS_RETURNED)
        lines.append(
            HistoryLine(
                deck_return.at,
                f"Rendu par la table {deck_return.table_number} (journée du {issue.day:%d/%m/%Y}), "
                "ordre rétabli, examiné",
                seq,
            )
        )
        if returned.result == ReturnResult.QUARANTINED:
            lines.append(
                HistoryLine(deck_return.at, "Rentré au dépôt consigné, jusqu'à la clôture de l'incident", seq)
            )
        elif returned.result != ReturnResult.FIT:
            lines.append(
                HistoryLine(
                    deck_return.at,
                    f"Mis hors d'usage ({_UNFIT[returned.result]}), gardé complet au dépôt",
                    seq,
                )
            )
    return lines


def _incident_lines(
    incident: Any, deck: Deck, numbers: dict[tuple[str, str, str], int | None]
) -> list[HistoryLine]:
    """An incident about a deck and its closure (for :func:`deck_history`)."""
    lines: list[HistoryLine] = []
    where = f"table {incident.table_number}" if incident.table_number else "dépôt"
    lines.append(
        HistoryLine(
            incident.occurred_at,
            f"Incident n° {incident.number} ({incident.get_kind_display()}) à la {where}, "
            + _told_line(incident),
            _seq(numbers, incident, Action.DEPOT_INCIDENT_REPORTED),
        )
    )
    closure = getattr(incident, "closure", None)
    if closure is not None:
        fit = any(d.pk == deck.pk for d in closure.decks_fit.all())
        lines.append(
            HistoryLine(
                closure.at,
                f"Incident n° {incident.number} clos par {_name(closure.officer)} : "
                + ("jeu rendu à l'usage" if fit else "jeu hors d'usage"),
                _seq(numbers, incident, Action.DEPOT_INCIDENT_CLOSED),
            )
        )
    return lines


def _told_line(incident: Any) -> str:
    """Whom the incident was reported to and when (or that it is not yet reported)."""
    if incident.officer_informed_at is not None and incident.officer_informed is not None:
        return f"officier {_name(incident.officer_informed)} avisé à {timezone.localtime(incident.officer_informed_at):%H:%M} : jeu consigné"
    told_at = incident.told_at
    if told_at is None:
        return "pas encore signalé à l'officier : jeu consigné"
    return f"{incident.told_whom} avisé à {timezone.localtime(told_at):%H:%M} : jeu consigné"


def _name(user: Any) -> str:
    if user is None:
        return "—"
    full = user.get_full_name() if hasattr(user, "get_full_name") else ""
    return full or user.get_username()


# -- the books, for the printed registers --------------------------------------------------

_CORRECTIONS = Prefetch(
    "corrections", queryset=Correction.objects.select_related("approved_by").order_by("at", "id")
)


def _day_range(date_from: dt.date, date_to: dt.date) -> tuple[dt.date, dt.date]:
    if date_to < date_from:
        raise ValueError("date_to is before date_from")
    return date_from, date_to


def receipt_book(date_from: dt.date, date_to: dt.date) -> QuerySet[Reception]:
    """The receipt book (FR model n° 19) for receptions dated ``date_from`` to ``date_to`` (inclusive).

    In book and entry order. Each :class:`Reception` carries, without further query:
    ``book.number``, ``number``, ``received_on``, ``recorded_at``, ``recorded_by``,
    ``delivery_note``, ``over_delivery``, ``manufacturer`` (``code``, ``name``,
    ``approval_reference``), ``order`` (``number``, ``book.number``), ``visa`` (absent
    when not stamped: use ``getattr(r, "visa", None)``; else ``officer`` and ``at``),
    ``sixains.all()`` (``serial``), ``decks.all()`` (``serial``, ``back_colour``,
    ``sixain_id``, ``status``; by serial) and ``corrections.all()`` (``field``,
    ``old_value``, ``new_value``, ``reason``, ``approved_by``, ``at``).
    """
    date_from, date_to = _day_range(date_from, date_to)
    return (
        Reception.objects.filter(received_on__range=(date_from, date_to))
        .select_related("book", "order__book", "manufacturer", "recorded_by", "visa__officer")
        .prefetch_related(
            Prefetch("sixains", queryset=_sixains()),
            Prefetch("decks", queryset=Deck.objects.order_by("serial")),
            _CORRECTIONS,
        )
        .order_by("book__number", "number")
    )


def _sixains() -> QuerySet[Any]:

    return Sixain.objects.order_by("serial")


def order_book(date_from: dt.date, date_to: dt.date) -> QuerySet[Order]:
    """The purchase-order book (FR model n° 21) for orders dated ``date_from`` to ``date_to``.

    Each :class:`Order`: ``book.number``, ``number``, ``ordered_on``, ``recorded_at``,
    ``recorded_by``, ``note``, ``sent_at``, ``manufacturer`` (``code``, ``name``,
    ``approval_reference``, ``ministry``), ``visa`` (``officer``, ``at``; absent when
    not stamped), ``lines.all()`` (``quantity``, ``unit``, ``back_colour``, ``decks``),
    ``receptions.all()`` (``number``, ``received_on``, ``over_delivery``) and
    ``corrections.all()``.
    """
    date_from, date_to = _day_range(date_from, date_to)
    return (
        Order.objects.filter(ordered_on__range=(date_from, date_to))
        .select_related("book", "manufacturer", "recorded_by", "visa__officer")
        .prefetch_related(
            "lines",
            Prefetch("receptions", queryset=Reception.objects.select_related("book").order_by("number")),
            _CORRECTIONS,
        )
        .order_by("book__number", "number")
    )


def incidents(date_from: dt.date, date_to: dt.date) -> QuerySet[Incident]:
    """The incidents of the gaming days ``date_from`` to ``date_to``, in number order.

    Each :class:`Incident`: ``number``, ``kind`` (``get_kind_display()``), ``occurred_at``,
    ``table_number``, ``day``, ``shoe_reference``, ``officer_informed``,
    ``officer_informed_at``, ``authority_informed``, ``route``, ``card``, ``told_whom``,
    ``told_at`` (with ``later_report``), ``circumstances``, ``reported_by``, ``decks.all()``
    (``serial``, ``back_colour``, ``manufacturer.code``), ``closure`` (absent while
    open; else ``officer``, ``at``, ``finding``, ``decks_fit.all()``) and
    ``corrections.all()``.
    """
    date_from, date_to = _day_range(date_from, date_to)
    return (
        Incident.objects.filter(day__range=(date_from, date_to))
        .select_related(
            "book", "officer_informed", "reported_by", "closure__officer", "later_report__officer"
        )
        .prefetch_related(
            Prefetch("decks", queryset=Deck.objects.select_related("manufacturer").order_by("serial")),
            "closure__decks_fit",
            _CORRECTIONS,
        )
        .order_by("book__number", "number")
    )


def destructions(date_from: dt.date, date_to: dt.date) -> QuerySet[Destruction]:
    """The destruction records of ``date_from`` to ``date_to`` (by the local date of ``at``).

    Each :class:`Destruction`: ``number``, ``at``, ``method``, ``officer`` (the
    witness), ``recorded_by``, ``visa`` (``officer``, ``at``; absent when not stamped),
    ``lines.all()`` (``deck.serial``, ``deck.back_colour``, ``deck.manufacturer.code``,
    ``complete``, ``unmarked``, ``remark``) and ``corrections.all()``.
    """
    date_from, date_to = _day_range(date_from, date_to)
    return (
        Destruction.objects.filter(at__date__range=(date_from, date_to))
        .select_related("book", "officer", "recorded_by", "visa__officer")
        .prefetch_related(
            Prefetch(
                "lines",
                queryset=DestructionLine.objects.select_related("deck__manufacturer").order_by(
                    "deck__serial"
                ),
            ),
            _CORRECTIONS,
        )
        .order_by("book__number", "number")
    )


@dataclass(frozen=True)
class DepotLogEntry:
    """A line of the depot log: a cabinet opening or a key handover.

    ``kind`` is ``"opening"`` or ``"key"``; ``who`` the user who opened or gave the
    key; ``receiver`` the key's new holder (key lines); ``purpose`` the opening's
    reason (French label); ``table_number``/``day`` for issues and returns;
    ``demanded_by`` the officer who demanded an inspection or witnessed a
    destruction; ``note`` the free remark.
    """

    at: dt.datetime
    kind: str
    who: Any
    purpose: str = ""
    receiver: Any = None
    table_number: int | None = None
    day: dt.date | None = None
    demanded_by: Any = None
    note: str = ""


def _opening_note(opening: CabinetOpening) -> str:
    """The opening's remark, with the officer's own demand and the inventory made at it."""
    parts = [opening.note] if opening.note else []
    demand = opening.demand
    if demand is not None:
        parts.append(
            f"demande de l'officier du {demand.at:%d/%m/%Y %H:%M}"
            + (f" : {demand.reason}" if demand.reason else "")
        )
    inventory = getattr(opening, "inventory", None)
    if inventory is not None:
        text = f"inventaire : {inventory.expected} jeux selon les registres, {inventory.found} trouvés"
        if inventory.missing:
            text += f", manquants : {', '.join(inventory.missing)}"
        if inventory.unexpected:
            text += f", en trop : {', '.join(inventory.unexpected)}"
        if inventory.incident is not None:
            text += f" (incident n° {inventory.incident.number})"
        parts.append(text)
    return " ; ".join(parts)


def depot_log(date_from: dt.date, date_to: dt.date) -> list[DepotLogEntry]:
    """Every cabinet opening and key handover of ``date_from`` to ``date_to``, in time order (two queries)."""
    date_from, date_to = _day_range(date_from, date_to)
    lines = [
        DepotLogEntry(
            at=o.at,
            kind="opening",
            who=o.opened_by,
            purpose=o.get_purpose_display(),
            table_number=o.table_number,
            day=o.day,
            demanded_by=o.demanded_by,
            note=_opening_note(o),
        )
        for o in CabinetOpening.objects.filter(at__date__range=(date_from, date_to)).select_related(
            "opened_by", "demanded_by", "demand", "inventory__incident"
        )
    ]
    lines += [
        DepotLogEntry(
            at=k.at, kind="key", who=k.giver, receiver=k.receiver, purpose="remise de la clé", note=k.reason
        )
        for k in KeyHandover.objects.filter(at__date__range=(date_from, date_to)).select_related(
            "giver", "receiver"
        )
    ]
    return sorted(lines, key=lambda line: line.at)


# -- what the officers' side reads (portal, registers) ---------------------------------------


def orders_awaiting_visa() -> list[Order]:
    """Orders (n° 21) with no officer's visa yet."""
    return list(
        Order.objects.filter(visa__isnull=True)
        .select_related("book", "manufacturer")
        .order_by("book__number", "number")
    )


def receptions_awaiting_visa() -> list[Reception]:
    """Receipt-book entries (n° 19) with no officer's visa yet."""
    return list(
        Reception.objects.filter(visa__isnull=True)
        .select_related("book", "manufacturer", "order__book")
        .order_by("book__number", "number")
    )


def destructions_awaiting_visa(officer: Any) -> list[Destruction]:
    """The destructions ``officer`` witnessed and has not stamped yet."""
    return list(
        Destruction.objects.filter(visa__isnull=True, officer=officer)
        .select_related("book")
        .order_by("book__number", "number")
    )


def entries_to_stamp(kind: str) -> QuerySet[Any]:
    """The book entries an officer stamps, of one kind: ``order``, ``reception`` or ``destruction``."""
    return {"order": Order, "reception": Reception, "destruction": Destruction}[kind].objects.all()


def all_incidents() -> QuerySet[Incident]:
    """Every incident, with its decks (an officer finds one by its id)."""
    return Incident.objects.prefetch_related("decks")


def open_incidents(*, with_decks: bool = True) -> list[Incident]:
    """The incidents not closed yet, in the book's order."""
    rows = Incident.objects.filter(closure__isnull=True).select_related("book", "reported_by")
    if with_decks:
        rows = rows.prefetch_related("decks")
    return list(rows.order_by("book__number", "number"))


def unreported_incidents() -> list[Incident]:
    """Incidents found by a return, a destruction or a replay and not yet reported to an officer."""
    return list(
        Incident.objects.filter(officer_informed_at__isnull=True, later_report__isnull=True).order_by(
            "number"
        )
    )


def deck_list(*, serial: str = "", status: str = "", manufacturer: str = "") -> QuerySet[Deck]:
    """The decks, filtered by serial (part of it), status and maker's code."""
    rows = Deck.objects.select_related("manufacturer", "sixain", "reception").order_by(
        "manufacturer__code", "serial"
    )
    if serial:
        rows = rows.filter(serial__icontains=serial)
    if status:
        rows = rows.filter(status=status)
    if manufacturer:
        rows = rows.filter(manufacturer__code=manufacturer)
    return rows


def receipt_book_days(reception_ids: Iterable[int], correction_ids: Iterable[int]) -> set[dt.date]:
    """The receipt book's days of these receptions and of the receptions these corrections correct."""
    days = set(Reception.objects.filter(pk__in=list(reception_ids)).values_list("received_on", flat=True))
    days |= set(
        Correction.objects.filter(pk__in=list(correction_ids), reception__isnull=False).values_list(
            "reception__received_on", flat=True
        )
    )
    return days
