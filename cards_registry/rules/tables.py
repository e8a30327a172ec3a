"""The checks of decks at the tables, incidents and destruction (FR art. 40; LU art. 7)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from casino_ops import dates
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite

from ..models import IncidentKind, ReturnResult
from .decks import check_cards_counted

# -- decks at the tables -----------------------------------------------------------------


def check_issue(
    *, table_number: int | None, day: dt.date, today: dt.date, decks: Sequence[Any], profile: str
) -> None:
    """Decks leave the cabinet only to be used: for a named table, the current day (FR art. 40, LU art. 7)."""
    article = cite("depot.issue_and_unseal", profile)
    if table_number is None or int(table_number) <= 0:
        raise Refusal.TABLE_REQUIRED.error(article=article)
    if not (today - dt.timedelta(days=1) <= day <= today):
        raise Refusal.ISSUE_DAY.error(article=article)
    if not decks:
        raise Refusal.ISSUE_EMPTY.error(article=article)


def check_table_check(
    *,
    witness: str,
    new_deck: bool,
    band_intact: bool | None,
    video_reference: str,
    order_checked: bool,
    cards_counted: int,
    profile: str,
) -> None:
    """The check of a deck at the table: a witness, the band of a new deck, the video (FR), order and count."""
    article = cite("depot.issue_and_unseal", profile)
    if not witness.strip():
        raise Refusal.WITNESS_REQUIRED.error(article=article)
    if new_deck and band_intact is not True:
        raise Refusal.BAND_NOT_INTACT.error(profile)
    if new_deck and profile == "FR" and not video_reference.strip():
        raise Refusal.VIDEO_REQUIRED.error(article=article)
    if not order_checked:
        raise Refusal.ORDER_NOT_CHECKED.error(article=article)
    check_cards_counted(cards_counted, profile)


def table_check_finding(*, new_deck: bool, band_intact: bool | None, cards_counted: Any) -> str | None:
    """What a check at the table found, the incident kind it opens (FR art. 40 §5, LU art. 7 §5):
    a new deck's band broken, a card missing or one too many; ``None``: nothing found."""
    if new_deck and band_intact is False:
        return IncidentKind.BAND_BROKEN
    try:
        count = int(cards_counted)
    except (TypeError, ValueError):
        return None
    if count < 52:
        return IncidentKind.MISSING
    if count > 52:
        return IncidentKind.EXTRA
    return None


def check_return(*, results: Sequence[Any], order_restored: bool, profile: str) -> None:
    article = cite("depot.issue_and_unseal", profile)
    if not results:
        raise Refusal.RETURN_EMPTY.error(article=article)
    if not order_restored:
        raise Refusal.ORDER_NOT_RESTORED.error(article=article)


def check_return_result(result: str, profile: str) -> None:
    """A returned deck is examined as fit, marked, damaged or worn (quarantine is the incident's)."""
    if result not in ReturnResult.values or result == ReturnResult.QUARANTINED:
        raise Refusal.RETURN_RESULT.error(profile)


# -- incidents -----------------------------------------------------------------------------


def check_incident_kind(kind: str, profile: str) -> None:
    if kind not in IncidentKind.values:
        raise Refusal.INCIDENT_KIND.error(profile)


def check_officer_told(
    *,
    officer_informed: Any,
    is_officer: bool,
    officer_informed_at: dt.datetime | None,
    profile: str,
    authority: str = "",
) -> dt.datetime:
    """An incident is reported at once to an officer: who (an officer) and when (returned).

    FR art. 40: with no officer present, to the head of the territorial police judiciaire
    service (``authority``, named); LU art. 7 knows only the officer.
    """
    article = cite("depot.incident", profile)
    if officer_informed is None and authority.strip() and profile == "LU":
        raise Refusal.OFFICER_NOT_TOLD.error(
            article=article,
            field="officer_informed",
            message=_("Au Luxembourg, l'incident est signalé à l'officier de contrôle : indiquez son nom."),
        )
    if officer_informed is None and authority.strip():
        if officer_informed_at is None:
            raise Refusal.OFFICER_NOT_TOLD.error(
                article=article,
                field="officer_informed_at",
                message=_("Indiquez l'heure à laquelle le service de police judiciaire a été avisé."),
            )
        return officer_informed_at
    if officer_informed is None:
        raise Refusal.OFFICER_NOT_TOLD.error(
            article=article,
            field="officer_informed",
            message=_("L'incident est signalé sur-le-champ à l'officier : indiquez son nom."),
        )
    if not is_officer:
        raise Refusal.OFFICER_NOT_TOLD.error(
            article=article, field="officer_informed", name=officer_informed.get_username()
        )
    if officer_informed_at is None:
        raise Refusal.OFFICER_NOT_TOLD.error(
            article=article,
            field="officer_informed_at",
            message=_(
                "L'incident est signalé sur-le-champ à l'officier : indiquez l'heure à laquelle il a été avisé."
            ),
        )
    return officer_informed_at


def check_incident_facts(
    *,
    occurred_at: dt.datetime,
    officer_informed_at: dt.datetime | None,
    now: dt.datetime,
    circumstances: str,
    decks: Sequence[Any],
    profile: str,
    kind: str | None = None,
    card: str = "",
) -> None:
    """Times not in the future and in order, circumstances described, decks named (a foreign
    card may belong to no deck: then the card is described)."""
    article = cite("depot.incident", profile)
    if occurred_at > now or (officer_informed_at is not None and officer_informed_at > now):
        raise Refusal.INCIDENT_IN_FUTURE.error(article=article)
    if officer_informed_at is not None and officer_informed_at < occurred_at:
        raise Refusal.OFFICER_TOLD_BEFORE.error(article=article)
    if not circumstances.strip():
        raise Refusal.CIRCUMSTANCES_REQUIRED.error(article=article)
    if not decks and kind != IncidentKind.FOREIGN:
        raise Refusal.INCIDENT_DECKS.error(article=article)
    if not decks and not card.strip():
        raise Refusal.INCIDENT_CARD.error(article=article)


def report_is_late(delay: dt.timedelta | None, minutes: int) -> bool:
    """An incident is reported "sur-le-champ": a report later than ``minutes`` is flagged late."""
    return delay is not None and delay > dt.timedelta(minutes=minutes)


def return_findings(result: str, cards_counted: int) -> list[str]:
    """The incident kinds a deck's examination at its return opens (FR art. 40 §5, LU art. 7 §5):
    a marked or damaged card, a card missing or one too many. Worn decks open none."""
    kinds: list[str] = []
    if result == ReturnResult.MARKED:
        kinds.append(IncidentKind.MARKED)
    if result == ReturnResult.DAMAGED:
        kinds.append(IncidentKind.DAMAGED)
    if cards_counted < 52:
        kinds.append(IncidentKind.MISSING)
    elif cards_counted > 52:
        kinds.append(IncidentKind.EXTRA)
    return kinds


def check_cards_returned(cards_counted: Any, profile: str, *, serial: str = "") -> int:
    """The count of a returned deck, typed by whoever counted it: a whole number of cards,
    0 to 104. Nothing is presumed: a deck returned without its count is refused
    (FR art. 40 §5, LU art. 7 §5: the cards are counted and examined at their return)."""
    article = cite("depot.issue_and_unseal", profile)
    if cards_counted is None or (isinstance(cards_counted, str) and not cards_counted.strip()):
        raise Refusal.CARD_COUNT.error(
            article=article,
            field="results",
            message=_("Jeu %(serial)s : comptez ses cartes et indiquez leur nombre, rien n'est présumé."),
            serial=serial,
        )
    try:
        count = int(cards_counted)
    except (TypeError, ValueError):
        count = -1
    if isinstance(cards_counted, bool) or not 0 <= count <= 104:
        raise Refusal.CARD_COUNT.error(
            article=article,
            field="results",
            message=_("Indiquez le nombre de cartes comptées au retour (%(value)s)."),
            value=cards_counted,
        )
    return count


def check_decks_playable(
    *,
    deck_ids: Sequence[int],
    checked_ids: set[int],
    other_shoe_ids: set[int],
    serials: dict[int, str],
    profile: str,
) -> None:
    """Only decks unsealed and checked at that table that day reach a shoe, and never a deck
    already in another live shoe (FR art. 40, 55-4; LU art. 7, 32)."""
    article = cite("depot.issue_and_unseal", profile)
    unchecked = [d for d in deck_ids if d not in checked_ids]
    if unchecked:
        raise Refusal.DECK_NOT_CHECKED.error(
            article=article, serials=", ".join(serials.get(d, str(d)) for d in unchecked)
        )
    twice = [d for d in deck_ids if d in other_shoe_ids]
    if twice:
        raise Refusal.DECK_IN_ANOTHER_SHOE.error(
            article=article, serials=", ".join(serials.get(d, str(d)) for d in twice)
        )


def check_closure(*, closed: bool, finding: str, fit_ids: set[int], deck_ids: set[int], profile: str) -> None:
    """An incident is closed once, with the officer's finding; the decks found fit are the incident's."""
    article = cite("depot.incident", profile)
    if closed:
        raise Refusal.INCIDENT_CLOSED.error(article=article)
    if not finding.strip():
        raise Refusal.FINDING_REQUIRED.error(article=article)
    if fit_ids - deck_ids:
        raise Refusal.DECK_NOT_IN_INCIDENT.error(article=article)


# -- destruction ---------------------------------------------------------------------------


def check_destruction(*, witnessed: bool, checks: Sequence[Any], profile: str) -> None:
    """Destruction happens in front of an officer (``witnessed``), of at least one deck."""
    article = cite("depot.destruction", profile)
    if not witnessed:
        raise Refusal.DESTRUCTION_WITNESS.error(article=article)
    if not checks:
        raise Refusal.DESTRUCTION_EMPTY.error(article=article)


def check_deck_complete(deck: Any, complete: bool, profile: str) -> None:
    if not complete:
        raise Refusal.DECK_INCOMPLETE.error(profile, serial=deck.serial)


# -- what the acts at the tables find already written ---------------------------------------


def check_issue_table_and_day(refusal: str | None, day_closed: bool, day: dt.date, article: str) -> None:
    """Decks are issued to a table in service (``refusal`` says why not, or is empty), for a
    day not closed in the control register (FR art. 40, 72; LU art. 7, 10)."""
    if refusal:
        raise Refusal.TABLE_NOT_IN_SERVICE.error(article=article, message=refusal)
    if day_closed:
        raise Refusal.ISSUE_DAY_CLOSED.error(article=article, day=dates.day(day))


def check_deck_at_table(line: Any, serial: str, table_number: int, article: str) -> None:
    """A deck is checked at the table it was issued to that day (``line``: its issue, not returned)."""
    if line is None:
        raise Refusal.DECK_NOT_AT_TABLE.error(
            article=article, field="deck", serial=serial, table=table_number
        )


def check_returned_from_table(issued: bool, serial: str, table_number: int, article: str) -> None:
    """A deck is returned from the table it was issued to that day (``issued``)."""
    if not issued:
        raise Refusal.DECK_NOT_AT_TABLE.error(
            article=article,
            field="results",
            message=_("Le jeu %(serial)s n'est pas sorti pour la table %(table)s ce jour-là."),
            serial=serial,
            table=table_number,
        )


def check_no_open_incident(open_incident: bool, profile: str) -> None:
    """A deck under an open incident is not destroyed: the officer's closure decides first."""
    if open_incident:
        raise Refusal.DECK_QUARANTINED.error(
            profile, message=_("Un jeu est concerné par un incident ouvert.")
        )


def check_not_reported(reported: bool, article: str) -> None:
    """An incident not reported on the spot is reported once."""
    if reported:
        raise Refusal.INCIDENT_ALREADY_REPORTED.error(article=article)
