"""Corrections of the depot's books by a new entry (FR art. 68)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Model
from django.utils import timezone

import audit
from audit.actions import Action
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.regulations import cite
from casino_ops.rules import check_approval_in_words

from ..models import (
    Correction,
    Deck,
    DeckReturn,
    DeckStatus,
    Destruction,
    Incident,
    IncidentKind,
    IncidentRoute,
    IssueLine,
    Order,
    Reception,
    ReturnLine,
    ReturnResult,
    Sixain,
    TableCheck,
    TableIssue,
    correction_key,
)
from ..rules import books as book_rules
from ..rules import check_correction, check_correction_changes, return_findings, table_check_finding
from ..selectors import current_value
from ._shared import (
    _create,
    _lock_decks,
    _profile,
)
from .incidents import _open_incident

CORRECTABLE: dict[type[Model], tuple[str, ...]] = {
    Order: ("ordered_on", "note"),
    Reception: ("received_on", "delivery_note"),
    Incident: (
        "occurred_at",
        "table_number",
        "shoe_reference",
        "circumstances",
        "kind",
        "card",
        "authority_informed",
        "officer_informed_at",
    ),
    Destruction: ("method",),
    Deck: ("serial", "back_colour"),
    Sixain: ("serial",),
    TableIssue: ("table_number", "day"),
    TableCheck: ("witness", "video_reference", "cards_counted", "band_intact", "order_checked"),
    DeckReturn: ("table_number", "day"),
    ReturnLine: ("result", "cards_counted", "remark"),
}


def _check_serial_free(entry: Model, field: str, new_value: str, profile: str) -> None:
    """A corrected serial is not one the maker already has (as registered or as corrected)."""
    if field != "serial" or not isinstance(entry, Deck | Sixain):
        return
    model = type(entry)
    key = correction_key(model)
    taken = model.objects.filter(manufacturer=entry.manufacturer, serial=new_value.strip()).exclude(
        pk=entry.pk
    )
    corrected = Correction.objects.filter(
        **{f"{key}__manufacturer": entry.manufacturer}, field="serial", new_value=new_value.strip()
    ).exclude(**{key: entry})
    book_rules.check_corrected_serial_free(
        taken.exists() or corrected.exists(), entry.manufacturer.name, new_value.strip(), profile
    )


@declare_act(
    act=Act.APPROVE_DEPOT_CORRECTION,
    action=Action.DEPOT_CORRECTION_RECORDED,
    article="depot.correction",
)
@transaction.atomic
def record_correction(
    *, actor: User, entry: Model, field: str, new_value: str, reason: str, approval: str = ""
) -> Correction:
    """Correct a registered entry by a new entry pointing at it, approved in words by the director.

    Every registered rubric of the depot's books may be corrected (:data:`CORRECTABLE`:
    orders, receptions, deck and sixain serials, issues, checks at the table, returns and
    their lines, incidents, destructions). The corrected entry is never changed: both
    stay visible in the books (FR art. 68). ``approval`` is the director's approval
    written in words (as the tables' corrections).
    """
    profile = _profile()
    article = cite("depot.correction", profile)
    fields = CORRECTABLE.get(type(entry))
    if fields is None:
        raise ValueError(f"{type(entry).__name__} entries are not corrected this way")
    check_correction(fields=fields, field=field, reason=reason, profile=profile)
    check_approval_in_words(approval, profile, rule="depot.correction")
    entry = type(entry)._default_manager.select_for_update().get(pk=entry.pk)
    old = current_value(entry, field)
    check_correction_changes(old, str(new_value), profile)
    _check_serial_free(entry, field, str(new_value), profile)
    _check_typed_value(entry, field, str(new_value), profile)
    correction = _create(
        Correction,
        article,
        **{correction_key(type(entry)): entry},
        field=field,
        old_value=old,
        new_value=str(new_value).strip(),
        reason=reason.strip(),
        approval_words=str(approval).strip(),
        approved_by=actor,
        at=timezone.now(),
    )
    audit.record(
        actor=actor,
        action=Action.DEPOT_CORRECTION_RECORDED,
        obj=correction,
        payload={
            "entry": entry._meta.label_lower,
            "entry_id": entry.pk,
            "number": getattr(entry, "number", None),
            "serial": getattr(entry, "serial", None),
            "field": field,
            "old": old,
            "new": correction.new_value,
            "reason": correction.reason,
            "approval": correction.approval_words,
        },
    )
    # A correction has the consequences the act would have had with the corrected mention.
    if isinstance(entry, ReturnLine) and field in ("result", "cards_counted"):
        _return_corrected(actor, entry, field, old, correction.new_value, profile)
    elif isinstance(entry, TableCheck) and field in ("cards_counted", "band_intact"):
        _check_corrected(actor, entry, field, old, correction.new_value, profile)
    return correction


_TRUE = ("true", "1", "oui", "vrai", "yes")
_FALSE = ("false", "0", "non", "faux", "no")


def _as_bool(value: str) -> bool | None:
    lowered = value.strip().lower()
    return True if lowered in _TRUE else False if lowered in _FALSE else None


def _check_typed_value(entry: Model, field: str, new_value: str, profile: str) -> None:
    """A corrected examination, count or check is one the act itself would accept."""
    article = cite("depot.issue_and_unseal", profile)
    value = new_value.strip()
    wrong = (
        (field == "result" and (value not in ReturnResult.values or value == ReturnResult.QUARANTINED))
        or (field == "cards_counted" and not (value.isdigit() and 0 <= int(value) <= 104))
        or (field in ("band_intact", "order_checked") and _as_bool(value) is None)
    )
    allowed = {
        "result": ", ".join(v for v in ReturnResult.values if v != ReturnResult.QUARANTINED),
        "cards_counted": "0 … 104",
    }.get(field, "oui / non")
    book_rules.check_corrected_value(
        isinstance(entry, ReturnLine | TableCheck) and wrong, field, value, allowed, article
    )


def _concerned(deck_id: int) -> tuple[list[Deck], list[Deck]]:
    """The deck locked: to quarantine, or only to name (already quarantined, or destroyed)."""
    [deck] = _lock_decks([deck_id])
    if deck.status in (DeckStatus.QUARANTINED, DeckStatus.DESTROYED):
        return [], [deck]
    return [deck], []


def _return_corrected(actor: User, line: ReturnLine, field: str, old: str, new: str, profile: str) -> None:
    """A return line's examination or count corrected: a finding the original did not have opens
    its incident and quarantines the deck, taking it out of play wherever it is (FR art. 40 §5,
    LU art. 7 §5); a fit deck corrected to worn goes out of use, as the return would have sent it."""
    result = new if field == "result" else current_value(line, "result")
    count = int(new if field == "cards_counted" else current_value(line, "cards_counted"))
    was_result = old if field == "result" else result
    was_count = int(old if field == "cards_counted" else count)
    before = set(return_findings(was_result, was_count))
    deck_return = line.deck_return
    for kind in [k for k in return_findings(result, count) if k not in before]:
        quarantined, linked = _concerned(line.issue_line.deck_id)
        _open_incident(
            actor=actor,
            kind=kind,
            route=IncidentRoute.RETURN,
            occurred_at=deck_return.at,
            day=deck_return.day,
            decks=quarantined,
            linked=linked,
            circumstances=f"{line.issue_line.deck.serial} : {IncidentKind(kind).label}, {count} cartes"
            f" — retour de la table {deck_return.table_number}, corrigé ({ReturnResult(was_result).label}"
            f", {was_count} cartes auparavant)",
            profile=profile,
            table_number=deck_return.table_number,
        )
    if result == ReturnResult.WORN and was_result == ReturnResult.FIT:
        [deck] = _lock_decks([line.issue_line.deck_id])
        last_line = IssueLine.objects.filter(deck=deck).order_by("-id").first()
        if (
            deck.status == DeckStatus.IN_CABINET
            and last_line is not None
            and last_line.pk == line.issue_line_id
        ):
            Deck.objects.filter(pk=deck.pk).update(status=DeckStatus.OUT_OF_USE)


def _check_corrected(actor: User, check: TableCheck, field: str, old: str, new: str, profile: str) -> None:
    """A check at the table corrected to a count other than 52 or a broken band: the incident the
    check would have opened, the deck quarantined (FR art. 40 §5, LU art. 7 §5)."""

    def finding(count: str, band: str) -> str | None:
        return table_check_finding(new_deck=check.new_deck, band_intact=_as_bool(band), cards_counted=count)

    count = new if field == "cards_counted" else current_value(check, "cards_counted")
    band = new if field == "band_intact" else current_value(check, "band_intact")
    was = finding(old if field == "cards_counted" else count, old if field == "band_intact" else band)
    kind = finding(count, band)
    if kind is None or kind == was:
        return
    issue = check.issue_line.issue
    quarantined, linked = _concerned(check.issue_line.deck_id)
    _open_incident(
        actor=actor,
        kind=kind,
        route=IncidentRoute.TABLE_CHECK,
        occurred_at=check.at,
        day=issue.day,
        decks=quarantined,
        linked=linked,
        circumstances=f"{check.issue_line.deck.serial} : {IncidentKind(kind).label}, {count} cartes comptées"
        f" — contrôle à la table {issue.table_number}, corrigé",
        profile=profile,
        table_number=issue.table_number,
    )
