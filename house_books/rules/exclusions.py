"""The checks of the fichier des exclus (LU art. 67, 68, 69, 75; under FR, internal rules).

Pure checks over plain values or an exclusion already loaded: no query, no write. Each
raises :class:`~casino_ops.regulations.RegulationError` with the article of the casino's
profile and the field at fault.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.translation import gettext as _

from casino_ops import dates
from casino_ops.regulations import RegulationError

from ..models import Exclusion, ExclusionGround, ExclusionKind, ExclusionOrigin
from .common import past_date, required_text


def check_minister_ground(ground: str, article: str) -> None:
    """LU art. 68: the minister excludes on one of its four grounds."""
    if ground not in ExclusionGround.values or ground == ExclusionGround.OWN:
        raise RegulationError(
            "EXCLUSION_GROUND_UNKNOWN",
            _("Motif inconnu « %(g)s » : à sa demande, incapable, condamné, ou trouble de l'ordre ou du jeu.")
            % {"g": ground},
            article,
            field="ground",
        )


def check_director_notified(decided: dt.date, notified: dt.date, article: str) -> None:
    """LU art. 68: the minister's decision is notified to the director, never before it."""
    if notified < decided:
        raise RegulationError(
            "EXCLUSION_NOTIFIED_BEFORE_DECISION",
            _("La notification au directeur ne peut précéder la décision du ministre."),
            article,
            field="director_notified_on",
        )


def check_own_kind(kind: str, article: str) -> None:
    """LU art. 69: the management excludes or refuses admission."""
    if kind not in ExclusionKind.values:
        raise RegulationError(
            "EXCLUSION_KIND_UNKNOWN",
            _("Nature inconnue « %(k)s » : exclusion ou refus d'admission.") % {"k": kind},
            article,
            field="kind",
        )


def check_notifiable(exclusion: Exclusion, article: str) -> None:
    """LU art. 69: the management's own measure, notified once."""
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
            % {"d": dates.day(exclusion.minister_notified_on)},
            article,
            field="exclusion",
        )


def check_notice_day(exclusion: Exclusion, day: dt.date, article: str) -> None:
    if day < exclusion.decided_on:
        raise RegulationError(
            "EXCLUSION_NOTIFIED_BEFORE_DECISION",
            _("L'avis au ministre ne peut précéder la décision."),
            article,
            field="notified_on",
        )


def check_not_lifted(exclusion: Exclusion, article: str) -> None:
    if exclusion.lifted_on is not None:
        raise RegulationError(
            "EXCLUSION_ALREADY_LIFTED",
            _("Cette exclusion a déjà été radiée le %(d)s.") % {"d": dates.day(exclusion.lifted_on)},
            article,
            field="exclusion",
        )


def check_lift_day(exclusion: Exclusion, day: dt.date, article: str) -> None:
    if day < exclusion.decided_on:
        raise RegulationError(
            "EXCLUSION_LIFTED_BEFORE_DECISION",
            _("La radiation ne peut précéder l'exclusion (%(d)s).") % {"d": dates.day(exclusion.decided_on)},
            article,
            field="lifted_on",
        )


def check_exclusion_given(exclusion: Any, article: str) -> None:
    if not isinstance(exclusion, Exclusion):
        raise RegulationError(
            "FIELD_REQUIRED", _("Indiquez l'exclusion appliquée."), article, field="exclusion"
        )


def person(last_name: Any, first_names: Any, birth_date: Any, article: str) -> dict[str, Any]:
    last = required_text(last_name, "last_name", _("le nom de la personne exclue"), article)
    first = required_text(first_names, "first_names", _("les prénoms de la personne exclue"), article)
    born = past_date(birth_date, "birth_date", article)
    return {"last_name": last, "first_names": first, "birth_date": born}


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
                "d": dates.day(day),
                "from": dates.day(exclusion.decided_on),
                "to": _(", radiée le %(d)s") % {"d": dates.day(exclusion.lifted_on)}
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
            % {"d": dates.day(exclusion.birth_date)},
            article,
            field="birth_date",
        )
