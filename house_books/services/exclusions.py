"""The fichier des exclus (LU art. 68, 69, 75; under FR, an internal book).

LU art. 68: the Minister of Justice pronounces exclusions from the gaming rooms (at the
person's own request, for an incapable at his legal representative's, for a person
convicted under art. 33 of the penal code, for a person who would trouble the order or the
play); his decisions, and the radiations from the list, are notified to the director.
LU art. 69: an exclusion or a refusal of admission pronounced by the casino's management on
its own initiative is notified at once, with its reasons, to the Minister of Justice.
LU art. 75: nobody excluded by the minister enters the gaming rooms.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from casino_ops.regulations import RegulationError, cite

from ..models import Exclusion, ExclusionGround, ExclusionKind, ExclusionOrigin
from ._shared import create, profile, require_management, required_text

RULE = "house.exclusions"
MINISTER_RULE = "house.exclusions.minister"
OWN_RULE = "house.exclusions.own"
#: LU art. 69 "immédiatement": the notice goes the day of the decision, or the next day at the
#: latest (a gaming day runs past midnight); later, the self-inspection flags it.
NOTICE_DAYS = 1


def _date(value: Any, field: str, article: str, *, past_only: bool = True) -> dt.date:
    if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
        raise RegulationError("FIELD_INVALID", _("Indiquez une date."), article, field=field)
    if past_only and value > timezone.localdate():
        raise RegulationError("DATE_IN_FUTURE", _("Cette date est dans le futur."), article, field=field)
    return value


def _person(last_name: Any, first_names: Any, birth_date: Any, article: str) -> dict[str, Any]:
    last = required_text(last_name, "last_name", _("le nom de la personne exclue"), article)
    first = required_text(first_names, "first_names", _("les prénoms de la personne exclue"), article)
    born = _date(birth_date, "birth_date", article)
    return {"last_name": last, "first_names": first, "birth_date": born}


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


@transaction.atomic
def record_ministerial_exclusion(
    *,
    actor: Any,
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
    require_management(actor, article)
    if ground not in ExclusionGround.values or ground == ExclusionGround.OWN:
        raise RegulationError(
            "EXCLUSION_GROUND_UNKNOWN",
            _("Motif inconnu « %(g)s » : à sa demande, incapable, condamné, ou trouble de l'ordre ou du jeu.")
            % {"g": ground},
            article,
            field="ground",
        )
    person = _person(last_name, first_names, birth_date, article)
    decided = _date(decided_on, "decided_on", article)
    reference = required_text(reference, "reference", _("la référence de la décision du ministre"), article)
    notified = _date(director_notified_on, "director_notified_on", article)
    if notified < decided:
        raise RegulationError(
            "EXCLUSION_NOTIFIED_BEFORE_DECISION",
            _("La notification au directeur ne peut précéder la décision du ministre."),
            article,
            field="director_notified_on",
        )
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


@transaction.atomic
def record_own_exclusion(
    *,
    actor: Any,
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
    require_management(actor, article)
    if kind not in ExclusionKind.values:
        raise RegulationError(
            "EXCLUSION_KIND_UNKNOWN",
            _("Nature inconnue « %(k)s » : exclusion ou refus d'admission.") % {"k": kind},
            article,
            field="kind",
        )
    person = _person(last_name, first_names, birth_date, article)
    decided = _date(decided_on, "decided_on", article)
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


@transaction.atomic
def notify_own_exclusion(
    *, actor: Any, exclusion: Exclusion, notified_on: dt.date, reference: str
) -> Exclusion:
    """The notice of the casino's own exclusion, with its reasons, to the Minister of Justice."""
    article = cite(OWN_RULE, profile())
    require_management(actor, article)
    exclusion = Exclusion.objects.select_for_update().get(pk=exclusion.pk)
    if exclusion.origin != ExclusionOrigin.CASINO:
        raise RegulationError(
            "EXCLUSION_NOT_OWN",
            _("Seules les exclusions prononcées par la direction sont notifiées au ministre."),
            article,
            field="exclusion",
        )
    if exclusion.minister_notified_on is not None:
        raise RegulationError(
            "EXCLUSION_ALREADY_NOTIFIED",
            _("Cette exclusion a déjà été notifiée au ministre le %(d)s.")
            % {"d": exclusion.minister_notified_on.strftime("%d/%m/%Y")},
            article,
            field="exclusion",
        )
    day = _date(notified_on, "notified_on", article)
    if day < exclusion.decided_on:
        raise RegulationError(
            "EXCLUSION_NOTIFIED_BEFORE_DECISION",
            _("L'avis au ministre ne peut précéder la décision."),
            article,
            field="notified_on",
        )
    reference = required_text(reference, "reference", _("la référence de l'avis au ministre"), article)
    Exclusion.objects.filter(pk=exclusion.pk).update(minister_notified_on=day, notice_reference=reference)
    exclusion.refresh_from_db()
    audit.record(
        actor=actor, action=Action.HOUSE_EXCLUSION_NOTIFIED, obj=exclusion, payload=_payload(exclusion)
    )
    return exclusion


@transaction.atomic
def lift_exclusion(*, actor: Any, exclusion: Exclusion, lifted_on: dt.date, reference: str) -> Exclusion:
    """A radiation: the minister's decision notified to the director (LU art. 68), or the end
    of the casino's own measure."""
    exclusion = Exclusion.objects.select_for_update().get(pk=exclusion.pk)
    rule = MINISTER_RULE if exclusion.origin == ExclusionOrigin.MINISTER else OWN_RULE
    article = cite(rule, profile())
    require_management(actor, article)
    if exclusion.lifted_on is not None:
        raise RegulationError(
            "EXCLUSION_ALREADY_LIFTED",
            _("Cette exclusion a déjà été radiée le %(d)s.")
            % {"d": exclusion.lifted_on.strftime("%d/%m/%Y")},
            article,
            field="exclusion",
        )
    day = _date(lifted_on, "lifted_on", article)
    if day < exclusion.decided_on:
        raise RegulationError(
            "EXCLUSION_LIFTED_BEFORE_DECISION",
            _("La radiation ne peut précéder l'exclusion (%(d)s).")
            % {"d": exclusion.decided_on.strftime("%d/%m/%Y")},
            article,
            field="lifted_on",
        )
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
