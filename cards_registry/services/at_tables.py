"""Decks at the tables (FR art. 40, LU art. 7): issue, check or unseal at the table, return."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

import audit
from audit.actions import Action
from casino_ops import act_checks, clock
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.refusals import Refusal
from casino_ops.regulations import RegulationError, cite
from casino_ops.validation import validate_fields

from ..floor import day_closed, table_refusal
from ..models import (
    Deck,
    DeckReturn,
    DeckStatus,
    Incident,
    IncidentKind,
    IncidentRoute,
    IssueLine,
    OpeningPurpose,
    ReturnLine,
    ReturnResult,
    TableCheck,
    TableIssue,
)
from ..rules import (
    check_cards_returned,
    check_issue,
    check_return,
    check_return_result,
    check_table_check,
    check_transition,
    return_findings,
    table_check_finding,
)
from ..rules import tables as table_rules
from ..selectors import incident_notice
from ..serializers import ReturnInSerializer
from ._shared import (
    _create,
    _lock_decks,
    _move,
    _open_cabinet,
    _profile,
    _require_key_holder,
)
from .incidents import _open_incident, _told


@declare_act(
    act=Act.DEPOT,
    action=Action.DEPOT_DECKS_ISSUED,
    article="depot.issue_and_unseal",
    refusals=(Refusal.NOT_KEY_HOLDER, Refusal.ISSUE_DAY_CLOSED, Refusal.TABLE_NOT_IN_SERVICE),
)
@transaction.atomic
def issue_decks(
    *,
    actor: User,
    table_number: int,
    day: dt.date,
    decks: Sequence[Deck | int],
    received_by: User | None = None,
) -> TableIssue:
    """Decks leave the cabinet only to be used: for a named table and day (FR art. 40, LU art. 7)."""
    profile = _profile()
    article = cite("depot.issue_and_unseal", profile)
    _require_key_holder(actor, profile)
    act_checks.run(
        act_checks.Hook.DEPOT_ISSUE,
        day=day,
        profile=profile,
        people={"actor": actor, "received_by": received_by},
    )
    check_issue(table_number=table_number, day=day, today=clock.today(), decks=decks, profile=profile)
    refusal = table_refusal(table_number, day)
    table_rules.check_issue_table_and_day(refusal, not refusal and day_closed(day), day, article)
    locked = _lock_decks(decks)
    _move(locked, DeckStatus.ISSUED, "issue", profile)
    opening = _open_cabinet(actor, OpeningPurpose.ISSUE, table_number=table_number, day=day, article=article)
    issue = _create(
        TableIssue,
        article,
        table_number=table_number,
        day=day,
        opening=opening,
        issued_by=actor,
        received_by=received_by,
        at=opening.at,
    )
    IssueLine.objects.bulk_create(IssueLine(issue=issue, deck=deck) for deck in locked)
    audit.record(
        actor=actor,
        action=Action.DEPOT_DECKS_ISSUED,
        obj=issue,
        payload={
            "table": table_number,
            "day": day,
            "decks": [[d.manufacturer.code, d.serial] for d in locked],
            "received_by": received_by.get_username() if received_by else None,
        },
    )
    return issue


class _FailedCheck(Exception):
    """What a check at the table found (a count other than 52, a broken band): the act is
    refused, and the finding is an incident of its own (FR art. 40 §5, LU art. 7 §5)."""

    def __init__(self, error: RegulationError, kind: str, circumstances: str) -> None:
        super().__init__(str(error))
        self.error, self.kind, self.circumstances = error, kind, circumstances


@declare_act(
    act=Act.CHECK_AT_TABLE,
    action=Action.DEPOT_DECK_CHECKED,
    article="depot.issue_and_unseal",
    refusals=(Refusal.DECK_NOT_AT_TABLE,),
)
def check_at_table(
    *,
    actor: User,
    deck: Deck,
    table_number: int,
    day: dt.date,
    witness: str,
    order_checked: bool,
    cards_counted: int,
    band_intact: bool | None = None,
    video_reference: str = "",
) -> TableCheck:
    """Unseal a new deck (or check a used one) at the table: band, maker's order, 52 cards.

    FR: a new deck is unsealed on video (``video_reference`` required); LU: the public
    sees that the control band is intact. A count other than 52 or a broken band is
    refused *and* opens its incident at once, the deck quarantined: the refusal rolls the
    check back, the incident is recorded by an act of its own (committed even though the
    check is refused), to be reported to the officer.
    """
    try:
        return _check_at_table(
            actor=actor,
            deck=deck,
            table_number=table_number,
            day=day,
            witness=witness,
            order_checked=order_checked,
            cards_counted=cards_counted,
            band_intact=band_intact,
            video_reference=video_reference,
        )
    except _FailedCheck as failed:
        incident = _incident_at_check(
            actor=actor,
            deck=deck,
            table_number=table_number,
            day=day,
            kind=failed.kind,
            circumstances=failed.circumstances,
        )
        if incident is not None:  # said with the refusal: no act changes a deck's state silently
            failed.error.consequence = incident_notice([incident])
        raise failed.error from None


@transaction.atomic
def _incident_at_check(
    *, actor: User, deck: Deck, table_number: int, day: dt.date, kind: str, circumstances: str
) -> Incident | None:
    """The incident a failed check at the table opens, its deck quarantined (out of play)."""
    profile = _profile()
    [locked] = _lock_decks([deck])
    if locked.status in (DeckStatus.QUARANTINED, DeckStatus.DESTROYED):
        return None  # already under an incident (or gone): nothing more to quarantine
    return _open_incident(
        actor=actor,
        kind=kind,
        route=IncidentRoute.TABLE_CHECK,
        occurred_at=clock.now(),
        day=day,
        decks=[locked],
        circumstances=circumstances,
        profile=profile,
        table_number=table_number,
    )


@transaction.atomic
def incident_at_shoe(
    *, actor: User, decks: Sequence[Deck], table_number: int, day: dt.date, circumstances: str
) -> Incident | None:
    """The incident a shoe refused for its composition opens at once (FR art. 55-4, LU art. 32:
    six decks, three backs of each colour), its decks quarantined (out of play) until the
    officer closes it. An act of its own, committed even though the shoe is refused; the
    decks already under an incident (or gone) are linked, not moved."""
    profile = _profile()
    locked = _lock_decks(list(decks))
    gone = (DeckStatus.QUARANTINED, DeckStatus.DESTROYED)
    moved = [deck for deck in locked if deck.status not in gone]
    if not moved:
        return None
    return _open_incident(
        actor=actor,
        kind=IncidentKind.FOREIGN,
        route=IncidentRoute.TABLE_CHECK,
        occurred_at=clock.now(),
        day=day,
        decks=moved,
        circumstances=circumstances,
        profile=profile,
        table_number=table_number,
        linked=[deck for deck in locked if deck.status in gone],
    )


@transaction.atomic
def _check_at_table(
    *,
    actor: User,
    deck: Deck,
    table_number: int,
    day: dt.date,
    witness: str,
    order_checked: bool,
    cards_counted: int,
    band_intact: bool | None,
    video_reference: str,
) -> TableCheck:
    profile = _profile()
    article = cite("depot.issue_and_unseal", profile)
    act_checks.run(act_checks.Hook.DEPOT_COUNT, day=day, profile=profile, people={"actor": actor})
    [deck] = _lock_decks([deck])
    line = (
        IssueLine.objects.filter(
            deck=deck, issue__table_number=table_number, issue__day=day, return_line__isnull=True
        )
        .order_by("-id")
        .first()
    )
    table_rules.check_deck_at_table(line, deck.serial, table_number, article)
    check_transition(deck, DeckStatus.IN_PLAY, "check_at_table", profile)
    new_deck = deck.unsealed_at is None
    finding = table_check_finding(new_deck=new_deck, band_intact=band_intact, cards_counted=cards_counted)
    try:
        check_table_check(
            witness=witness,
            new_deck=new_deck,
            band_intact=band_intact,
            video_reference=video_reference,
            order_checked=order_checked,
            cards_counted=cards_counted,
            profile=profile,
        )
    except RegulationError as error:
        if finding is None:
            raise
        raise _FailedCheck(
            error,
            finding,
            f"{deck.serial} : {IncidentKind(finding).label}, {cards_counted} cartes comptées"
            f" — contrôle à la table {table_number}, témoin {witness.strip() or '—'}",
        ) from error
    now = clock.now()
    check = _create(
        TableCheck,
        article,
        issue_line=line,
        at=now,
        checked_by=actor,
        witness=witness.strip(),
        new_deck=new_deck,
        band_intact=band_intact if new_deck else None,
        order_checked=order_checked,
        cards_counted=cards_counted,
        video_reference=video_reference.strip(),
    )
    Deck.objects.filter(pk=deck.pk).update(status=DeckStatus.IN_PLAY, unsealed_at=deck.unsealed_at or now)
    audit.record(
        actor=actor,
        action=Action.DEPOT_DECK_CHECKED,
        obj=check,
        payload={
            "deck": [deck.manufacturer.code, deck.serial],
            "table": table_number,
            "day": day,
            "new_deck": new_deck,
            "witness": check.witness,
            "cards_counted": cards_counted,
            "band_intact": check.band_intact,
            "video_reference": check.video_reference,
        },
    )
    return check


@declare_act(
    act=Act.DEPOT,
    action=Action.DEPOT_DECKS_RETURNED,
    schema=ReturnInSerializer,
    article="depot.issue_and_unseal",
    refusals=(Refusal.NOT_KEY_HOLDER, Refusal.DECK_NOT_AT_TABLE, Refusal.DECK_UNKNOWN),
)
@transaction.atomic
def return_decks(
    *,
    actor: User,
    table_number: int,
    day: dt.date,
    results: Sequence[Sequence[Any]],
    order_restored: bool = True,
    officer_informed: User | None = None,
    officer_informed_at: dt.datetime | None = None,
    authority_informed: str = "",
) -> DeckReturn:
    """Decks come back from the table, put back in maker's order, counted and examined.

    ``results``: ``(deck, result, remark, cards_counted)`` where result is a
    :class:`ReturnResult` and ``cards_counted`` the cards counted, as typed by whoever
    counted them (never presumed: a deck without its count is refused):
    fit decks go back into the cabinet for use; worn decks go out of use and stay in
    the cabinet, complete, until destroyed. A marked or damaged card, or a count other
    than 52, opens an incident (FR art. 40 §5, LU art. 7 §5) and the deck is
    quarantined; whom it was reported to (``officer_informed`` or, FR, the
    ``authority_informed``) and when may be given now or recorded later
    (:func:`~cards_registry.services.incidents.record_incident_report`). A deck
    quarantined by an incident at the table comes back too, recorded as such, and stays
    quarantined until the officer closes the incident.
    """
    profile = _profile()
    article = cite("depot.issue_and_unseal", profile)
    _require_key_holder(actor, profile)
    act_checks.run(act_checks.Hook.DEPOT_RETURN, day=day, profile=profile, people={"actor": actor})
    check_return(results=results, order_restored=order_restored, profile=profile)
    if officer_informed is not None or authority_informed.strip():
        _told(officer_informed, authority_informed, officer_informed_at, profile)
    decks = _lock_decks([r[0] for r in results])
    outcome: list[tuple[Deck, str, str]] = []
    counts: dict[int, int] = {}
    for deck, result in zip(decks, results, strict=True):
        check_return_result(result[1], profile)
        counts[deck.pk] = check_cards_returned(
            result[3] if len(result) > 3 else None, profile, serial=deck.serial
        )
        # A deck under an open incident comes back to the cabinet still quarantined:
        # the officer's closure decides whether it is fit.
        examined = ReturnResult.QUARANTINED if deck.status == DeckStatus.QUARANTINED else result[1]
        outcome.append((deck, examined, result[2] if len(result) > 2 else ""))
    lines = {
        line.deck_id: line
        for line in IssueLine.objects.filter(
            deck__in=decks, issue__table_number=table_number, issue__day=day, return_line__isnull=True
        )
    }
    for deck, result, _remark in outcome:
        table_rules.check_returned_from_table(deck.pk in lines, deck.serial, table_number, article)
        if result == ReturnResult.QUARANTINED:
            continue
        target = DeckStatus.IN_CABINET if result == ReturnResult.FIT else DeckStatus.OUT_OF_USE
        check_transition(deck, target, "return", profile)
    opening = _open_cabinet(actor, OpeningPurpose.RETURN, table_number=table_number, day=day, article=article)
    deck_return = _create(
        DeckReturn,
        article,
        table_number=table_number,
        day=day,
        opening=opening,
        returned_by=actor,
        at=opening.at,
    )
    return_lines = [
        ReturnLine(
            deck_return=deck_return,
            issue_line=lines[deck.pk],
            result=result,
            order_restored=True,
            cards_counted=counts[deck.pk],
            remark=remark,
        )
        for deck, result, remark in outcome
    ]
    for return_line in return_lines:
        validate_fields(return_line, article, field="results")
    ReturnLine.objects.bulk_create(return_lines)
    fit = [d.pk for d, r, _m in outcome if r == ReturnResult.FIT]
    unfit = [d.pk for d, r, _m in outcome if r not in (ReturnResult.FIT, ReturnResult.QUARANTINED)]
    Deck.objects.filter(pk__in=fit).update(status=DeckStatus.IN_CABINET)
    Deck.objects.filter(pk__in=unfit).update(status=DeckStatus.OUT_OF_USE)
    for deck in decks:
        if deck.pk in fit:
            deck.status = DeckStatus.IN_CABINET
        elif deck.pk in unfit:
            deck.status = DeckStatus.OUT_OF_USE
    audit.record(
        actor=actor,
        action=Action.DEPOT_DECKS_RETURNED,
        obj=deck_return,
        payload={
            "table": table_number,
            "day": day,
            "decks": [[d.manufacturer.code, d.serial, r, m, counts[d.pk]] for d, r, m in outcome],
        },
    )
    # What the examination found opens an incident, one per kind, on the decks concerned.
    found: dict[str, list[tuple[Deck, str]]] = {}
    for deck, result, remark in outcome:
        if result == ReturnResult.QUARANTINED:
            continue
        for kind in return_findings(result, counts[deck.pk]):
            found.setdefault(kind, []).append((deck, remark))
    for kind, concerned in found.items():
        _open_incident(
            actor=actor,
            kind=kind,
            route=IncidentRoute.RETURN,
            occurred_at=deck_return.at,
            day=day,
            decks=[d for d, _r in concerned],
            circumstances="; ".join(
                f"{d.serial} : {IncidentKind(kind).label}, {counts[d.pk]} cartes" + (f" ({r})" if r else "")
                for d, r in concerned
            )
            + f" — retour de la table {table_number}",
            profile=profile,
            officer_informed=officer_informed,
            authority_informed=authority_informed,
            officer_informed_at=officer_informed_at,
            table_number=table_number,
        )
    return deck_return
