"""The cabinet and its single key (FR art. 39, LU art. 6): handovers, the officer's demand to open it,
openings for inspection with their inventory, decks declared out of use."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

import audit
from audit.actions import Action
from casino_ops import access, act_checks, dates, officers
from casino_ops.access import Act
from casino_ops.acts import OfficerGate, declare_act
from casino_ops.officers import OfficerSignature
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite

from ..models import (
    CabinetDemand,
    CabinetInventory,
    CabinetOpening,
    Deck,
    DeckStatus,
    IncidentKind,
    IncidentRoute,
    KeyHandover,
    OpeningPurpose,
    OutOfUseDeclaration,
)
from ..rules import cabinet as cabinet_rules
from ..selectors import current_key_holder, decks_in_cabinet_per_books
from ..serializers import OutOfUseInSerializer
from ._shared import (
    _create,
    _lock_decks,
    _move,
    _open_cabinet,
    _profile,
    _require_key_holder,
    _require_management,
)
from .incidents import _open_incident


@declare_act(
    act=Act.DEPOT,
    action=Action.DEPOT_KEY_HANDED_OVER,
    article="depot.cabinet_key",
    refusals=(Refusal.NOT_KEY_HOLDER, Refusal.KEY_HOLDER_ROLE, Refusal.KEY_SAME_HOLDER),
    gate=False,  # the holder hands the key over; management only takes it when nobody holds it
)
@transaction.atomic
def hand_over_key(*, actor: User, receiver: User, reason: str = "") -> KeyHandover:
    """The single key passes from the actor (its holder) to ``receiver`` (director or committee)."""
    profile = _profile()
    article = cite("depot.cabinet_key", profile)
    # Serialise handovers: the key has one holder at a time.
    list(KeyHandover.objects.select_for_update().order_by("-at", "-id")[:1])
    holder = current_key_holder()
    if holder is None:
        _require_management(actor)
    cabinet_rules.check_handover_by_holder(holder, actor.pk, article)
    cabinet_rules.check_key_receiver(holder, receiver, access.may(receiver, Act.HOLD_KEY), article)
    act_checks.run(
        act_checks.Hook.DEPOT_KEY_HANDOVER,
        day=timezone.localdate(),
        profile=profile,
        people={"actor": actor, "receiver": receiver},
    )
    handover = _create(
        KeyHandover, article, giver=holder, receiver=receiver, at=timezone.now(), reason=reason
    )
    audit.record(
        actor=actor,
        action=Action.DEPOT_KEY_HANDED_OVER,
        obj=handover,
        payload={
            "giver": holder.get_username() if holder else None,
            "receiver": receiver.get_username(),
            "reason": reason,
        },
    )
    return handover


@declare_act(
    act=Act.DEMAND_OPENING,
    action=Action.DEPOT_OPENING_DEMANDED,
    article="depot.cabinet_key",
    gate=OfficerGate(Refusal.INSPECTION_BY_OFFICER.code, what=gettext_lazy("demander l'ouverture du dépôt")),
)
@transaction.atomic
def demand_opening(
    *, actor: User, reason: str = "", signature: OfficerSignature | None = None
) -> CabinetDemand:
    """The officer demands the cabinet be opened, which he may do at any time (FR art. 39, LU art. 6);
    he records the demand himself, from the portal."""
    profile = _profile()
    article = cite("depot.cabinet_key", profile)
    sealed = officers.seal(
        officer=actor,
        act=Action.DEPOT_OPENING_DEMANDED,
        target=None,
        fields={"reason": reason.strip()},
        signature=signature,
        profile=profile,
    )
    demand = _create(CabinetDemand, article, officer=actor, at=timezone.now(), reason=reason.strip())
    audit.record(
        actor=actor,
        action=Action.DEPOT_OPENING_DEMANDED,
        obj=demand,
        payload={"officer": actor.get_username(), "reason": demand.reason, officers.SIGNATURE_KEY: sealed},
    )
    return demand


@declare_act(
    act=Act.DEPOT,
    action=Action.DEPOT_CABINET_OPENED,
    article="depot.cabinet_key",
    refusals=(Refusal.NOT_KEY_HOLDER, Refusal.DEMAND_ANSWERED, Refusal.INSPECTION_BY_OFFICER),
)
@transaction.atomic
def open_for_inspection(
    *, actor: User, demanded_by: User | None = None, note: str = "", demand: CabinetDemand | None = None
) -> CabinetOpening:
    """An officer demands the cabinet be opened, which he may do at any time; the key holder opens.

    ``demand``: the officer's own record of his demand (:func:`demand_opening`), answered
    once; its officer is then the one who demanded.
    """
    profile = _profile()
    article = cite("depot.cabinet_key", profile)
    _require_key_holder(actor, profile)
    act_checks.run(
        act_checks.Hook.DEPOT_LOCK, day=timezone.localdate(), profile=profile, people={"actor": actor}
    )
    if demand is not None:
        demand = CabinetDemand.objects.select_for_update().get(pk=demand.pk)
        cabinet_rules.check_demand_unanswered(demand.openings.exists(), article)
        demanded_by = demand.officer
    demanded_by = cabinet_rules.demanding_officer(
        demanded_by, demanded_by is not None and access.may(demanded_by, Act.DEMAND_OPENING), article
    )
    opening = _open_cabinet(
        actor, OpeningPurpose.INSPECTION, demanded_by=demanded_by, note=note, article=article
    )
    if demand is not None:
        CabinetOpening.objects.filter(pk=opening.pk).update(demand=demand)
        opening.demand = demand
    audit.record(
        actor=actor,
        action=Action.DEPOT_CABINET_OPENED,
        obj=opening,
        payload={
            "purpose": "inspection",
            "demanded_by": demanded_by.get_username(),
            "demand": demand.pk if demand else None,
            "note": note,
        },
    )
    return opening


@declare_act(
    act=Act.DEPOT,
    action=Action.DEPOT_INVENTORY_RECORDED,
    article="depot.cabinet_key",
    refusals=(Refusal.NOT_KEY_HOLDER, Refusal.INVENTORY_DONE, Refusal.INVENTORY_OPENING),
)
@transaction.atomic
def record_inventory(*, actor: User, opening: CabinetOpening, found: Sequence[str]) -> CabinetInventory:
    """The inventory at an opening demanded by an officer: the decks found (serials, or
    ``MAKER:serial``) against the decks the books say are in the cabinet. A deck missing, or
    one found that the books do not place there, opens an incident reported to that officer
    (FR art. 39-40, LU art. 6-7); the missing decks are quarantined."""
    profile = _profile()
    article = cite("depot.cabinet_key", profile)
    _require_key_holder(actor, profile)
    act_checks.run(
        act_checks.Hook.DEPOT_LOCK, day=timezone.localdate(), profile=profile, people={"actor": actor}
    )
    opening = CabinetOpening.objects.select_for_update().get(pk=opening.pk)
    cabinet_rules.check_inventory_opening(opening, article)
    cabinet_rules.check_inventory_not_done(CabinetInventory.objects.filter(opening=opening).exists(), article)
    expected = list(decks_in_cabinet_per_books())
    names = {f"{d.manufacturer.code}:{d.serial}": d for d in expected}
    by_serial: dict[str, list[Deck]] = {}
    for deck in expected:
        by_serial.setdefault(deck.serial, []).append(deck)
    seen: set[int] = set()
    unexpected: list[str] = []
    for raw in found:
        token = str(raw).strip()
        if not token:
            continue
        listed = names.get(token) or (by_serial[token][0] if len(by_serial.get(token, [])) == 1 else None)
        if listed is None or listed.pk in seen:
            unexpected.append(token)
        else:
            seen.add(listed.pk)
    missing = [d for d in expected if d.pk not in seen]
    now = timezone.now()
    incident = None
    if missing or unexpected:
        locked = _lock_decks(missing) if missing else []
        incident = _open_incident(
            actor=actor,
            kind=IncidentKind.MISSING if missing else IncidentKind.EXTRA,
            route=IncidentRoute.INSPECTION,
            occurred_at=now,
            day=timezone.localdate(),
            decks=[d for d in locked if d.status != DeckStatus.QUARANTINED],
            circumstances=(
                f"Inventaire à l'ouverture du {dates.moment(opening.at)} : "
                + (f"manquants : {', '.join(d.serial for d in missing)}. " if missing else "")
                + (f"trouvés en trop : {', '.join(unexpected)}." if unexpected else "")
            ),
            profile=profile,
            officer_informed=opening.demanded_by,
            officer_informed_at=now,
            card=", ".join(unexpected)[:150],
        )
    inventory = _create(
        CabinetInventory,
        article,
        opening=opening,
        at=now,
        recorded_by=actor,
        expected=len(expected),
        found=len(seen) + len(unexpected),
        missing=[d.serial for d in missing],
        unexpected=unexpected,
        incident=incident,
    )
    audit.record(
        actor=actor,
        action=Action.DEPOT_INVENTORY_RECORDED,
        obj=inventory,
        payload={
            "opening": opening.pk,
            "expected": inventory.expected,
            "found": inventory.found,
            "missing": inventory.missing,
            "unexpected": unexpected,
            "incident": incident.number if incident else None,
        },
    )
    return inventory


@declare_act(
    act=Act.DEPOT,
    action=Action.DEPOT_DECKS_DECLARED_OUT_OF_USE,
    schema=OutOfUseInSerializer,
    article="depot.cabinet_key",
    refusals=(Refusal.NOT_KEY_HOLDER, Refusal.DECKS_REQUIRED, Refusal.REASON_REQUIRED),
)
@transaction.atomic
def declare_out_of_use(*, actor: User, decks: Sequence[Deck | int], reason: str) -> OutOfUseDeclaration:
    """Decks in the cabinet declared out of use by the casino (FR art. 39 §3, LU art. 6): they stay
    in the cabinet, complete, until destroyed in front of an officer."""
    profile = _profile()
    article = cite("depot.destruction", profile)
    _require_key_holder(actor, profile)
    act_checks.run(
        act_checks.Hook.DEPOT_LOCK, day=timezone.localdate(), profile=profile, people={"actor": actor}
    )
    cabinet_rules.check_out_of_use(reason, decks, article)
    locked = _lock_decks(decks)
    _move(locked, DeckStatus.OUT_OF_USE, "declare_out_of_use", profile)
    opening = _open_cabinet(actor, OpeningPurpose.OUT_OF_USE, note=reason.strip()[:300], article=article)
    declaration = _create(
        OutOfUseDeclaration, article, opening=opening, at=opening.at, declared_by=actor, reason=reason.strip()
    )
    declaration.decks.set(locked)
    audit.record(
        actor=actor,
        action=Action.DEPOT_DECKS_DECLARED_OUT_OF_USE,
        obj=declaration,
        payload={"decks": [[d.manufacturer.code, d.serial] for d in locked], "reason": declaration.reason},
    )
    return declaration
