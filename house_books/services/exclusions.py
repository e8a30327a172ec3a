"""The fichier des exclus (LU art. 68, 69, 75; under FR, an internal book).

LU art. 68: the Minister of Justice pronounces exclusions from the gaming rooms (at the
person's own request, for an incapable at his legal representative's, for a person
convicted under art. 33 of the penal code, for a person who would trouble the order or the
play); his decisions, and the radiations from the list, are notified to the director.
LU art. 69: an exclusion or a refusal of admission pronounced by the casino's management on
its own initiative is notified at once, with its reasons, to the Minister of Justice.
LU art. 75: nobody excluded by the minister enters the gaming rooms; the control at the
door (LU art. 67, the physionomiste) keeps them out, and each entry refused is written under
the exclusion it enforces.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.regulations import cite

from ..models import Exclusion, ExclusionGround, ExclusionKind, ExclusionOrigin, RefusedEntry
from ..rules import exclusions as rules
from ..rules.common import past_date, past_moment, required_text
from ._shared import create, profile, require_management

RULE = "house.exclusions"
MINISTER_RULE = "house.exclusions.minister"
OWN_RULE = "house.exclusions.own"
ENTRANCE_RULE = "house.exclusions.entrance"
#: LU art. 69 "immédiatement": the notice goes the day of the decision, or the next day at the
#: latest (a gaming day runs past midnight); later, the self-inspection flags it.
NOTICE_DAYS = 1
#: A notice is written in the fichier the day it is given or received, or the next: a day declared
#: earlier than its recording (the system's time) by more is named by inspect_books.
NOTICE_RECORDING_DAYS = 1


def _payload(exclusion: Exclusion) -> dict[str, Any]:
    return {
        "origin": exclusion.origin,
        "kind": exclusion.kind,
        "ground": exclusion.ground,
        "last_name": exclusion.last_name,
        "first_names": exclusion.first_names,
        "birth_date": exclusion.birth_date,
        "decided_on": exclusion.decided_on,
        "reference": exclusion.reference,
        "reasons": exclusion.reasons,
        "director_notified_on": exclusion.director_notified_on,
        "minister_notified_on": exclusion.minister_notified_on,
        "notice_reference": exclusion.notice_reference,
    }


@declare_act(
    act=Act.HOUSE_BOOKS,
    action=Action.HOUSE_EXCLUSION_RECORDED,
    article="house.exclusions.minister",
    gate_cites_article=True,
)
@transaction.atomic
def record_ministerial_exclusion(
    *,
    actor: User,
    last_name: str,
    first_names: str,
    birth_date: dt.date,
    ground: str,
    decided_on: dt.date,
    reference: str,
    director_notified_on: dt.date,
) -> Exclusion:
    """An exclusion pronounced by the Minister of Justice, notified to the director (LU art. 68)."""
    article = cite(MINISTER_RULE, profile())
    rules.check_minister_ground(ground, article)
    now = timezone.now()
    person = rules.person(last_name, first_names, birth_date, article, now=now)
    decided = past_date(decided_on, "decided_on", article, now=now)
    reference = required_text(reference, "reference", _("la référence de la décision du ministre"), article)
    notified = past_date(director_notified_on, "director_notified_on", article, now=now)
    rules.check_director_notified(decided, notified, article)
    exclusion = create(
        Exclusion,
        article,
        origin=ExclusionOrigin.MINISTER,
        kind=ExclusionKind.EXCLUSION,
        ground=ground,
        decided_on=decided,
        reference=reference,
        director_notified_on=notified,
        recorded_by=actor,
        **person,
    )
    audit.record(
        actor=actor, action=Action.HOUSE_EXCLUSION_RECORDED, obj=exclusion, payload=_payload(exclusion)
    )
    return exclusion


@declare_act(
    act=Act.HOUSE_BOOKS,
    action=Action.HOUSE_OWN_EXCLUSION_RECORDED,
    article="house.exclusions.own",
    gate_cites_article=True,
)
@transaction.atomic
def record_own_exclusion(
    *,
    actor: User,
    kind: str,
    last_name: str,
    first_names: str,
    birth_date: dt.date,
    decided_on: dt.date,
    reasons: str,
    reference: str = "",
) -> Exclusion:
    """An exclusion or a refusal of admission pronounced by the management on its own
    initiative (LU art. 69): written with its reasons, to be notified at once to the minister
    (:func:`notify_own_exclusion`)."""
    article = cite(OWN_RULE, profile())
    rules.check_own_kind(kind, article)
    now = timezone.now()
    person = rules.person(last_name, first_names, birth_date, article, now=now)
    decided = past_date(decided_on, "decided_on", article, now=now)
    reasons = required_text(reasons, "reasons", _("les motifs, qui sont donnés au ministre"), article)
    exclusion = create(
        Exclusion,
        article,
        origin=ExclusionOrigin.CASINO,
        kind=kind,
        ground=ExclusionGround.OWN,
        decided_on=decided,
        reference=str(reference or "").strip() or _("Décision de la direction"),
        reasons=reasons,
        recorded_by=actor,
        **person,
    )
    audit.record(
        actor=actor, action=Action.HOUSE_OWN_EXCLUSION_RECORDED, obj=exclusion, payload=_payload(exclusion)
    )
    return exclusion


@declare_act(
    act=Act.HOUSE_BOOKS,
    action=Action.HOUSE_EXCLUSION_NOTIFIED,
    article="house.exclusions.own",
    gate_cites_article=True,
)
@transaction.atomic
def notify_own_exclusion(
    *, actor: User, exclusion: Exclusion, notified_on: dt.date, reference: str
) -> Exclusion:
    """The notice of the casino's own exclusion, with its reasons, to the Minister of Justice."""
    article = cite(OWN_RULE, profile())
    exclusion = Exclusion.objects.select_for_update().get(pk=exclusion.pk)
    rules.check_notifiable(exclusion, article)
    day = past_date(notified_on, "notified_on", article, now=timezone.now())
    rules.check_notice_day(exclusion, day, article)
    reference = required_text(reference, "reference", _("la référence de l'avis au ministre"), article)
    Exclusion.objects.filter(pk=exclusion.pk).update(minister_notified_on=day, notice_reference=reference)
    exclusion.refresh_from_db()
    audit.record(
        actor=actor, action=Action.HOUSE_EXCLUSION_NOTIFIED, obj=exclusion, payload=_payload(exclusion)
    )
    return exclusion


@declare_act(
    act=Act.HOUSE_BOOKS,
    action=Action.HOUSE_EXCLUSION_LIFTED,
    article="house.exclusions",
    gate=False,  # the service's own gate (see its body)
)
@transaction.atomic
def lift_exclusion(*, actor: User, exclusion: Exclusion, lifted_on: dt.date, reference: str) -> Exclusion:
    """A radiation: the minister's decision notified to the director (LU art. 68), or the end
    of the casino's own measure."""
    exclusion = Exclusion.objects.select_for_update().get(pk=exclusion.pk)
    rule = MINISTER_RULE if exclusion.origin == ExclusionOrigin.MINISTER else OWN_RULE
    article = cite(rule, profile())
    require_management(actor, article)
    rules.check_not_lifted(exclusion, article)
    day = past_date(lifted_on, "lifted_on", article, now=timezone.now())
    rules.check_lift_day(exclusion, day, article)
    what = (
        _("la référence de la décision de radiation du ministre")
        if exclusion.origin == ExclusionOrigin.MINISTER
        else _("la référence ou les motifs de la levée")
    )
    reference = required_text(reference, "reference", what, article)
    Exclusion.objects.filter(pk=exclusion.pk).update(lifted_on=day, lift_reference=reference)
    exclusion.refresh_from_db()
    audit.record(
        actor=actor,
        action=Action.HOUSE_EXCLUSION_LIFTED,
        obj=exclusion,
        payload={**_payload(exclusion), "lifted_on": day, "lift_reference": reference},
    )
    return exclusion


@declare_act(
    act=Act.REFUSE_ENTRY,
    action=Action.HOUSE_ENTRY_REFUSED,
    article="house.exclusions.entrance",
    gate_cites_article=True,
)
@transaction.atomic
def record_refused_entry(
    *,
    actor: User,
    exclusion: Exclusion,
    refused_at: dt.datetime,
    last_name: str,
    first_names: str,
    birth_date: dt.date,
    physionomiste: str,
    remark: str = "",
) -> RefusedEntry:
    """An entry refused at the door to a person under an exclusion (LU art. 67, 75), written
    under the exclusion it enforces: in force that day, naming the same person."""
    article = cite(ENTRANCE_RULE, profile())
    rules.check_exclusion_given(exclusion, article)
    exclusion = Exclusion.objects.select_for_update().get(pk=exclusion.pk)
    now = timezone.now()
    moment = past_moment(refused_at, "refused_at", article, now=now)
    person = rules.person(last_name, first_names, birth_date, article, now=now)
    physionomiste = required_text(
        physionomiste, "physionomiste", _("le physionomiste qui a refusé l'entrée"), article
    )
    rules.check_exclusion_in_force(exclusion, timezone.localdate(moment), article)
    rules.check_same_person(
        exclusion, person["last_name"], person["first_names"], person["birth_date"], article
    )
    entry = create(
        RefusedEntry,
        article,
        exclusion=exclusion,
        refused_at=moment,
        physionomiste=physionomiste,
        remark=str(remark or "").strip(),
        recorded_by=actor,
        **person,
    )
    audit.record(
        actor=actor,
        action=Action.HOUSE_ENTRY_REFUSED,
        obj=entry,
        payload={
            "exclusion": exclusion.pk,
            "refused_at": moment,
            "last_name": entry.last_name,
            "first_names": entry.first_names,
            "birth_date": entry.birth_date,
            "physionomiste": entry.physionomiste,
            "remark": entry.remark,
        },
    )
    return entry
