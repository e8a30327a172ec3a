"""A deck's life, from its reception to its destruction, with the audit numbers of its acts (FR art. 40, LU art. 7)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils import timezone

from audit.actions import Action
from audit.selectors import audit_numbers
from casino_ops.regulations import RegulationError, cite

from .. import history
from ..history import HistoryLine
from ..models import (
    Deck,
    ReturnResult,
)

#: The acts whose audit numbers a deck's history shows, by the model they are recorded on.
_HISTORY_ACTS: dict[str, tuple[Action, ...]] = {
    "order": (Action.DEPOT_ORDER_CREATED, Action.DEPOT_ORDER_STAMPED, Action.DEPOT_ORDER_SENT),
    "outofusedeclaration": (Action.DEPOT_DECKS_DECLARED_OUT_OF_USE,),
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
            "reception__order__visa__officer",
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
            "out_of_use_declarations",
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
    declarations = list(deck.out_of_use_declarations.all())
    objects.extend(declarations)
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
    order_visa = getattr(order, "visa", None)
    if order_visa is not None:
        lines.append(
            HistoryLine(
                order_visa.at,
                f"Bon n° {order.number} visé par {_name(order_visa.officer)}",
                _seq(numbers, order, Action.DEPOT_ORDER_STAMPED),
            )
        )
    if order.sent_at is not None:
        lines.append(
            HistoryLine(
                order.sent_at,
                f"Bon n° {order.number} envoyé au fabricant",
                _seq(numbers, order, Action.DEPOT_ORDER_SENT),
            )
        )
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
    for declaration in declarations:
        lines.append(
            HistoryLine(
                declaration.at,
                f"Déclaré hors d'usage au dépôt : {declaration.reason}",
                _seq(numbers, declaration, Action.DEPOT_DECKS_DECLARED_OUT_OF_USE),
            )
        )
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
