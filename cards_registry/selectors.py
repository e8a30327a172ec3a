"""Reads of the card depot: for the tables, the admin, the portal and the printed registers.

Every function here only reads, and loads what it returns in a fixed number of
queries whatever the size of the result (``select_related``/``prefetch_related``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db.models import Q, QuerySet

from audit.models import AuditEvent

from . import history
from .history import HistoryLine
from .models import Deck, DeckStatus, ReturnResult

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


# -- audit sequence numbers -------------------------------------------------------------


def audit_numbers(objects: Iterable[Any]) -> dict[tuple[str, str, str], int | None]:
    """``{(object_type, object_id, action): seq}`` for the audit events of ``objects`` (one query)."""
    keys = {(obj._meta.label_lower, str(obj.pk)) for obj in objects if obj is not None}
    if not keys:
        return {}
    condition = Q()
    for object_type, object_id in keys:
        condition |= Q(object_type=object_type, object_id=object_id)
    found: dict[tuple[str, str, str], int | None] = {}
    for object_type, object_id, action, seq in (
        AuditEvent.objects.filter(condition)
        .order_by("id")
        .values_list("object_type", "object_id", "action", "seq")
    ):
        found.setdefault((object_type, object_id, action), seq)
    return found


def _seq(numbers: dict[tuple[str, str, str], int | None], obj: Any, action: str) -> int | None:
    return numbers.get((obj._meta.label_lower, str(obj.pk), action))


# -- a deck's life -----------------------------------------------------------------------


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
    numbers = audit_numbers(objects)

    lines: list[HistoryLine] = [
        HistoryLine(
            order.recorded_at,
            f"Commandé : bon n° {order.number} du carnet n° {order.book.number} du "
            f"{order.ordered_on:%d/%m/%Y} chez {deck.manufacturer.name}",
            _seq(numbers, order, "depot.order_created"),
        ),
        HistoryLine(
            reception.recorded_at,
            f"Pris en charge : n° {reception.number} du carnet n° {reception.book.number} du "
            f"{reception.received_on:%d/%m/%Y}"
            + (f", sixain {deck.sixain.serial}" if deck.sixain else "")
            + f", dos {deck.back_colour}",
            _seq(numbers, reception, "depot.reception_recorded"),
        ),
    ]
    visa = getattr(reception, "visa", None)
    if visa is not None:
        lines.append(
            HistoryLine(
                visa.at,
                f"Prise en charge n° {reception.number} visée par {_name(visa.officer)}",
                _seq(numbers, reception, "depot.reception_stamped"),
            )
        )
    for line in deck.issue_lines.all():
        issue = line.issue
        lines.append(
            HistoryLine(
                issue.at,
                f"Remis à la table {issue.table_number} pour la journée du {issue.day:%d/%m/%Y}",
                _seq(numbers, issue, "depot.decks_issued"),
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
                    _seq(numbers, check, "depot.deck_checked"),
                )
            )
        returned = getattr(line, "return_line", None)
        if returned is not None:
            deck_return = returned.deck_return
            seq = _seq(numbers, deck_return, "depot.decks_returned")
            lines.append(
                HistoryLine(
                    deck_return.at,
                    f"Rendu par la table {deck_return.table_number} (journée du {issue.day:%d/%m/%Y}), "
                    "ordre rétabli, examiné",
                    seq,
                )
            )
            if returned.result != ReturnResult.FIT:
                lines.append(
                    HistoryLine(
                        deck_return.at,
                        f"Mis hors d'usage : {ReturnResult(returned.result).label}, gardé complet au dépôt",
                        seq,
                    )
                )
    for incident in deck.incidents.all():
        where = f"table {incident.table_number}" if incident.table_number else "dépôt"
        lines.append(
            HistoryLine(
                incident.occurred_at,
                f"Incident n° {incident.number} ({incident.get_kind_display()}) à la {where}, "
                f"officier {_name(incident.officer_informed)} avisé à "
                f"{incident.officer_informed_at:%H:%M} : jeu consigné",
                _seq(numbers, incident, "depot.incident_reported"),
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
                    _seq(numbers, incident, "depot.incident_closed"),
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
                _seq(numbers, destruction, "depot.destruction_recorded"),
            )
        )
        dvisa = getattr(destruction, "visa", None)
        if dvisa is not None:
            lines.append(
                HistoryLine(
                    dvisa.at,
                    f"Destruction n° {destruction.number} visée par {_name(dvisa.officer)}",
                    _seq(numbers, destruction, "depot.destruction_stamped"),
                )
            )
    for provider in history.providers():
        lines.extend(provider(deck))
    return history.merge(lines)


def _name(user: Any) -> str:
    if user is None:
        return "—"
    full = user.get_full_name() if hasattr(user, "get_full_name") else ""
    return full or user.get_username()
