"""Makers and the depot's settings: the ministry's approval of a maker (FR art. 39, LU art. 6)."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import audit
from audit.actions import Action
from casino_ops import clock, officers
from casino_ops.access import Act
from casino_ops.acts import OfficerGate, declare_act
from casino_ops.officers import OfficerSignature
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite
from casino_ops.validation import validate_fields

from ..models import (
    AuthorityVisa,
    DepotSettings,
    Manufacturer,
    SixainCap,
)
from ..rules import books as book_rules
from ..rules import check_manufacturer
from ._shared import (
    _create,
    _profile,
)


@declare_act(
    act=Act.DEPOT,
    action=Action.DEPOT_MANUFACTURER_REGISTERED,
    article="depot.approved_manufacturer",
    refusals=(Refusal.MANUFACTURER_EXISTS,),
)
@transaction.atomic
def register_manufacturer(
    *,
    actor: User,
    code: str,
    name: str,
    approval_reference: str,
    ministry: str,
    valid_from: dt.date,
    valid_until: dt.date | None = None,
) -> Manufacturer:
    """Record a maker's approval by the ministry (FR art. 39: Interior; LU art. 6: Finance)."""
    profile = _profile()
    article = cite("depot.approved_manufacturer", profile)
    check_manufacturer(
        code=code,
        name=name,
        approval_reference=approval_reference,
        ministry=ministry,
        valid_from=valid_from,
        valid_until=valid_until,
        profile=profile,
    )
    book_rules.check_maker_new(Manufacturer.objects.filter(code=code.strip()).exists(), article)
    maker = _create(
        Manufacturer,
        article,
        code=code.strip(),
        name=name.strip(),
        approval_reference=approval_reference.strip(),
        ministry=ministry.strip(),
        valid_from=valid_from,
        valid_until=valid_until,
        registered_by=actor,
    )
    audit.record(
        actor=actor,
        action=Action.DEPOT_MANUFACTURER_REGISTERED,
        obj=maker,
        payload={
            "code": maker.code,
            "name": maker.name,
            "approval_reference": maker.approval_reference,
            "ministry": maker.ministry,
            "valid_from": valid_from,
            "valid_until": valid_until,
        },
    )
    return maker


@declare_act(
    act=Act.DEPOT_SETTINGS,
    action=Action.DEPOT_SETTINGS_CHANGED,
    article="depot.max_sixains",
    refusals=(Refusal.SIXAIN_CAP_REFERENCE, Refusal.SIXAIN_CAP_REQUIRED),
)
@transaction.atomic
def set_max_sixains(*, actor: User, max_sixains: int | None, reference: str = "") -> DepotSettings:
    """The most sixains the ministry allows the casino to hold (LU art. 6), recorded by the
    director. Under LU it is the ministry's: recorded with the reference of its decision, and
    never emptied. Under FR the casino's own limit (none: ``None``)."""
    profile = _profile()
    article = cite("depot.max_sixains", profile)
    reference = " ".join(str(reference or "").split())
    book_rules.check_sixain_cap(max_sixains, reference, profile, article)
    depot, _created = DepotSettings.objects.select_for_update().get_or_create(pk=1)
    before = depot.max_sixains
    depot.max_sixains = max_sixains
    validate_fields(depot, article)
    depot.save()
    if profile == "LU" and max_sixains is not None:  # the ministry's decision, awaiting the officer's visa
        _create(
            SixainCap,
            article,
            max_sixains=max_sixains,
            reference=reference,
            recorded_by=actor,
            recorded_at=clock.now(),
        )
    audit.record(
        actor=actor,
        action=Action.DEPOT_SETTINGS_CHANGED,
        obj=depot,
        payload={"max_sixains": {"before": before, "after": max_sixains}, "reference": reference},
    )
    return depot


def _stamp_fact(
    *,
    actor: User,
    fact: Manufacturer | SixainCap,
    key: str,
    action: Action,
    remark: str,
    rule: str,
    already: str,
    signature: OfficerSignature | None,
    payload: dict[str, object],
) -> AuthorityVisa:
    """The officer's visa on a fact of an authority the director recorded (``key``: the visa's
    field naming it): only an officer, once, signed with his passkey."""
    profile = _profile()
    article = cite(rule, profile)
    fact = type(fact).objects.select_for_update().get(pk=fact.pk)
    book_rules.check_fact_not_stamped(AuthorityVisa.objects.filter(**{key: fact}).exists(), already, article)
    remark = str(remark or "")
    sealed = officers.seal(
        officer=actor,
        act=action,
        target=fact,
        fields={"remark": remark},
        signature=signature,
        profile=profile,
    )
    visa = _create(AuthorityVisa, article, **{key: fact}, officer=actor, at=clock.now(), remark=remark)
    audit.record(
        actor=actor,
        action=action,
        obj=fact,
        payload={
            **payload,
            "officer": actor.get_username(),
            "remark": remark,
            officers.SIGNATURE_KEY: sealed,
        },
    )
    return visa


@declare_act(
    act=Act.VISA,
    action=Action.DEPOT_MAKER_APPROVAL_STAMPED,
    article="depot.approved_manufacturer",
    refusals=(Refusal.ALREADY_STAMPED,),
    gate=OfficerGate("VISA_OFFICER_ONLY", what=gettext_lazy("viser l'agrément d'un fabricant")),
)
@transaction.atomic
def stamp_maker_approval(
    *, actor: User, manufacturer: Manufacturer, remark: str = "", signature: OfficerSignature | None = None
) -> AuthorityVisa:
    """The officer's visa on a maker's approval as the director recorded it: he has checked the
    ministry's approval under its reference (FR art. 39: Interior; LU art. 6: Finance)."""
    return _stamp_fact(
        actor=actor,
        fact=manufacturer,
        key="manufacturer",
        action=Action.DEPOT_MAKER_APPROVAL_STAMPED,
        remark=remark,
        rule="depot.approved_manufacturer",
        already=_("L'agrément de ce fabricant est déjà visé."),
        signature=signature,
        payload={
            "code": manufacturer.code,
            "ministry": manufacturer.ministry,
            "approval_reference": manufacturer.approval_reference,
        },
    )


@declare_act(
    act=Act.VISA,
    action=Action.DEPOT_SIXAIN_CAP_STAMPED,
    article="depot.max_sixains",
    refusals=(Refusal.ALREADY_STAMPED,),
    gate=OfficerGate(
        "VISA_OFFICER_ONLY", what=gettext_lazy("viser le nombre de sixains fixé par le ministère")
    ),
)
@transaction.atomic
def stamp_sixain_cap(
    *, actor: User, sixain_cap: SixainCap, remark: str = "", signature: OfficerSignature | None = None
) -> AuthorityVisa:
    """The officer's visa on the number of sixains the ministry fixed, as the director recorded it
    with the reference of its decision (LU art. 6)."""
    return _stamp_fact(
        actor=actor,
        fact=sixain_cap,
        key="sixain_cap",
        action=Action.DEPOT_SIXAIN_CAP_STAMPED,
        remark=remark,
        rule="depot.max_sixains",
        already=_("Ce nombre de sixains est déjà visé."),
        signature=signature,
        payload={"max_sixains": sixain_cap.max_sixains, "reference": sixain_cap.reference},
    )
