"""A deck's life, from its reception to its destruction, with the audit numbers of its acts (FR art. 40, LU art. 7)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from audit.actions import Action
from audit.reads import audit_numbers
from casino_ops import dates
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite

from .. import history
from ..colours import colour
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


_UNFIT = {
    ReturnResult.MARKED: gettext_lazy("marqué"),
    ReturnResult.DAMAGED: gettext_lazy("abîmé"),
    ReturnResult.WORN: gettext_lazy("usé"),
}


def resolve_decks(
    tokens: Iterable[str] = (), sixains: Iterable[str] = (), *, profile: str = "FR"
) -> list[Deck]:
    """The decks named by serial (``A1-1``, or ``MAKER:A1-1`` when two makers share it) and by
    sixain serial (its decks), as a director or an API client names them: never by database id.

    An unknown or ambiguous name is a :class:`RegulationError` naming the field.
    """

    article = cite("depot.receipt_book", profile)
    found: list[Deck] = []
    for token in tokens:
        token = str(token).strip()
        if not token:
            continue
        code, _sep, serial = token.rpartition(":")
        matches = find_deck(serial, code or None)
        if not matches:
            raise Refusal.DECK_UNKNOWN_DEPOT_RECEIPT_BOOK.error(article=article, serial=token)
        if len(matches) > 1:
            raise Refusal.DECK_AMBIGUOUS.error(article=article, serial=token)
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
            raise Refusal.SIXAIN_UNKNOWN.error(article=article, serial=token)
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
            _("Commandé : bon n° %(n)s du carnet n° %(book)s du %(day)s chez %(maker)s")
            % {
                "n": order.number,
                "book": order.book.number,
                "day": _day(order.ordered_on),
                "maker": deck.manufacturer.name,
            },
            _seq(numbers, order, Action.DEPOT_ORDER_CREATED),
        ),
        HistoryLine(
            reception.recorded_at,
            _("Pris en charge : n° %(n)s du carnet n° %(book)s du %(day)s")
            % {"n": reception.number, "book": reception.book.number, "day": _day(reception.received_on)}
            + (_(", sixain %(serial)s") % {"serial": deck.sixain.serial} if deck.sixain else "")
            + _(", dos %(colour)s") % {"colour": colour(deck.back_colour)},
            _seq(numbers, reception, Action.DEPOT_RECEPTION_RECORDED),
        ),
    ]
    order_visa = getattr(order, "visa", None)
    if order_visa is not None:
        lines.append(
            HistoryLine(
                order_visa.at,
                _("Bon n° %(n)s visé par %(officer)s")
                % {"n": order.number, "officer": _name(order_visa.officer)},
                _seq(numbers, order, Action.DEPOT_ORDER_STAMPED),
            )
        )
    if order.sent_at is not None:
        lines.append(
            HistoryLine(
                order.sent_at,
                _("Bon n° %(n)s envoyé au fabricant") % {"n": order.number},
                _seq(numbers, order, Action.DEPOT_ORDER_SENT),
            )
        )
    visa = getattr(reception, "visa", None)
    if visa is not None:
        lines.append(
            HistoryLine(
                visa.at,
                _("Prise en charge n° %(n)s visée par %(officer)s")
                % {"n": reception.number, "officer": _name(visa.officer)},
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
                _("Déclaré hors d'usage au dépôt : %(reason)s") % {"reason": declaration.reason},
                _seq(numbers, declaration, Action.DEPOT_DECKS_DECLARED_OUT_OF_USE),
            )
        )
    if destruction_line is not None:
        destruction = destruction_line.destruction
        lines.append(
            HistoryLine(
                destruction.at,
                _(
                    "Détruit : procès-verbal n° %(n)s, devant %(officer)s (complet : %(complete)s, non marqué : %(unmarked)s)"
                )
                % {
                    "n": destruction.number,
                    "officer": _name(destruction.officer),
                    "complete": _yes_no(destruction_line.complete),
                    "unmarked": _yes_no(destruction_line.unmarked),
                },
                _seq(numbers, destruction, Action.DEPOT_DESTRUCTION_RECORDED),
            )
        )
        dvisa = getattr(destruction, "visa", None)
        if dvisa is not None:
            lines.append(
                HistoryLine(
                    dvisa.at,
                    _("Destruction n° %(n)s visée par %(officer)s")
                    % {"n": destruction.number, "officer": _name(dvisa.officer)},
                    _seq(numbers, destruction, Action.DEPOT_DESTRUCTION_STAMPED),
                )
            )
    for provider in history.PROVIDERS:
        lines.extend(provider(deck))
    return history.merge(lines)


def _table_lines(line: Any, numbers: dict[tuple[str, str, str], int | None]) -> list[HistoryLine]:
    """A deck's issue to a table, its check there and its return (for :func:`deck_history`)."""
    lines: list[HistoryLine] = []
    issue = line.issue
    lines.append(
        HistoryLine(
            issue.at,
            _("Remis à la table %(table)s pour la journée du %(day)s")
            % {"table": issue.table_number, "day": _day(issue.day)},
            _seq(numbers, issue, Action.DEPOT_DECKS_ISSUED),
        )
    )
    check = getattr(line, "table_check", None)
    if check is not None:
        what = (
            _("Descellé à la table %(table)s : %(cards)s cartes, témoin %(witness)s")
            if check.new_deck
            else _("Contrôlé à la table %(table)s : %(cards)s cartes, témoin %(witness)s")
        ) % {"table": issue.table_number, "cards": check.cards_counted, "witness": check.witness}
        video = _(", vidéo %(video)s") % {"video": check.video_reference} if check.video_reference else ""
        lines.append(
            HistoryLine(
                check.at,
                what + video,
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
                _("Rendu par la table %(table)s (journée du %(day)s), ordre rétabli, examiné")
                % {"table": deck_return.table_number, "day": _day(issue.day)},
                seq,
            )
        )
        if returned.result == ReturnResult.QUARANTINED:
            lines.append(
                HistoryLine(
                    deck_return.at, _("Rentré au dépôt consigné, jusqu'à la clôture de l'incident"), seq
                )
            )
        elif returned.result != ReturnResult.FIT:
            lines.append(
                HistoryLine(
                    deck_return.at,
                    _("Mis hors d'usage (%(why)s), gardé complet au dépôt")
                    % {"why": _UNFIT[returned.result]},
                    seq,
                )
            )
    return lines


def _incident_lines(
    incident: Any, deck: Deck, numbers: dict[tuple[str, str, str], int | None]
) -> list[HistoryLine]:
    """An incident about a deck and its closure (for :func:`deck_history`)."""
    lines: list[HistoryLine] = []
    values = {"n": incident.number, "kind": incident.get_kind_display(), "table": incident.table_number}
    where = (
        _("Incident n° %(n)s (%(kind)s) à la table %(table)s, ")
        if incident.table_number
        else _("Incident n° %(n)s (%(kind)s) au dépôt, ")
    ) % values
    lines.append(
        HistoryLine(
            incident.occurred_at,
            where + _told_line(incident),
            _seq(numbers, incident, Action.DEPOT_INCIDENT_REPORTED),
        )
    )
    closure = getattr(incident, "closure", None)
    if closure is not None:
        fit = any(d.pk == deck.pk for d in closure.decks_fit.all())
        lines.append(
            HistoryLine(
                closure.at,
                (
                    _("Incident n° %(n)s clos par %(officer)s : jeu rendu à l'usage")
                    if fit
                    else _("Incident n° %(n)s clos par %(officer)s : jeu hors d'usage")
                )
                % {"n": incident.number, "officer": _name(closure.officer)},
                _seq(numbers, incident, Action.DEPOT_INCIDENT_CLOSED),
            )
        )
    return lines


def _told_line(incident: Any) -> str:
    """Whom the incident was reported to and when (or that it is not yet reported)."""
    if incident.officer_informed_at is not None and incident.officer_informed is not None:
        return _("officier %(officer)s avisé à %(time)s : jeu consigné") % {
            "officer": _name(incident.officer_informed),
            "time": f"{timezone.localtime(incident.officer_informed_at):%H:%M}",
        }
    told_at = incident.told_at
    if told_at is None:
        return _("pas encore signalé à l'officier : jeu consigné")
    return _("%(whom)s avisé à %(time)s : jeu consigné") % {
        "whom": incident.told_whom,
        "time": f"{timezone.localtime(told_at):%H:%M}",
    }


def _name(user: Any) -> str:
    if user is None:
        return "—"
    full = user.get_full_name() if hasattr(user, "get_full_name") else ""
    return full or user.get_username()


def _day(value: Any) -> str:
    return f"{dates.day(value)}"


def _yes_no(value: bool) -> str:
    return _("oui") if value else _("non")
