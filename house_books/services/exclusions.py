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

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from casino_ops import access
from casino_ops.access import Act
from casino_ops.regulations import RegulationError, cite

from ..models import Exclusion, ExclusionGround, ExclusionKind, ExclusionOrigin, RefusedEntry
from ._shared import create, profile, require_management, required_text

RULE = "house.exclusions"
MINISTER_RULE = "house.exclusions.minister"
OWN_RULE = "house.exclusions.own"
ENTRANCE_RULE = "house.exclusions.entrance"
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


def _moment(value: Any, field: str, article: str) -> dt.datetime:
    if not isinstance(value, dt.datetime) or timezone.is_naive(value):
        raise RegulationError("FIELD_INVALID", _("Indiquez la date et l'heure."), article, field=field)
    if value > timezone.now():
        raise RegulationError("DATE_IN_FUTURE", _("Cette date est dans le futur."), article, field=field)
    return value


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def check_exclusion_in_force(exclusion: Exclusion, day: dt.date, article: str) -> None:
    """An entry is refused under a measure in force that day: decided by then and not lifted
    (a radiation takes effect on its day)."""
    if exclusion.decided_on > day or (exclusion.lifted_on is not None and exclusion.lifted_on <= day):
        raise RegulationError(
            "REFUSED_ENTRY_EXCLUSION_NOT_IN_FORCE",
            _("L'exclusion de %(name)s n'était pas en vigueur le %(d)s (décidée le %(from)s%(to)s).")
            % {
                "name": f"{exclusion.last_name.upper()} {exclusion.first_names}",
                "d": day.strftime("%d/%m/%Y"),
                "from": exclusion.decided_on.strftime("%d/%m/%Y"),
                "to": _(", radiée le %(d)s") % {"d": exclusion.lifted_on.strftime("%d/%m/%Y")}
                if exclusion.lifted_on
                else "",
            },
            article,
            field="exclusion",
        )


def check_same_person(
    exclusion: Exclusion, last_name: str, first_names: str, birth_date: dt.date, article: str
) -> None:
    """The person refused is the one the exclusion names: name, first names and birth date."""
    for field, given, excluded in (
        ("last_name", last_name, exclusion.last_name),
        ("first_names", first_names, exclusion.first_names),
    ):
        if not _same_name(given, excluded):
            raise RegulationError(
                "REFUSED_ENTRY_OTHER_PERSON",
                _("« %(given)s » n'est pas la personne exclue (%(name)s).")
                % {"given": given, "name": f"{exclusion.last_name.upper()} {exclusion.first_names}"},
                article,
                field=field,
            )
    if birth_date != exclusion.birth_date:
        raise RegulationError(
            "REFUSED_ENTRY_OTHER_PERSON",
            _("La personne exclue est née le %(d)s : ce n'est pas la même personne.")
            % {"d": exclusion.birth_date.strftime("%d/%m/%Y")},
            article,
            field="birth_date",
        )


@transaction.atomic
def record_refused_entry(
    *,
    actor: Any,
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
    access.require(actor, Act.REFUSE_ENTRY, article=article)
    if not isinstance(exclusion, Exclusion):
        raise RegulationError(
            "FIELD_REQUIRED", _("Indiquez l'exclusion appliquée."), article, field="exclusion"
        )
    exclusion = Exclusion.objects.select_for_update().get(pk=exclusion.pk)
    moment = _moment(refused_at, "refused_at", article)
    person = _person(last_name, first_names, birth_date, article)
    physionomiste = required_text(
        physionomiste, "physionomiste", _("le physionomiste qui a refusé l'entrée"), article
    )
    check_exclusion_in_force(exclusion, timezone.localdate(moment), article)
    check_same_person(exclusion, person["last_name"], person["first_names"], person["birth_date"], article)
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
