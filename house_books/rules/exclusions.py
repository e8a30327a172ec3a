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
from casino_ops.refusals import Refusal

from ..models import Exclusion, ExclusionGround, ExclusionKind, ExclusionOrigin
from .common import past_date, required_text


def check_minister_ground(ground: str, article: str) -> None:
    """LU art. 68: the minister excludes on one of its four grounds."""
    if ground not in ExclusionGround.values or ground == ExclusionGround.OWN:
        raise Refusal.EXCLUSION_GROUND_UNKNOWN.error(article=article, g=ground)


def check_director_notified(decided: dt.date, notified: dt.date, article: str) -> None:
    """LU art. 68: the minister's decision is notified to the director, never before it."""
    if notified < decided:
        raise Refusal.EXCLUSION_NOTIFIED_BEFORE_DECISION.error(article=article)


def check_own_kind(kind: str, article: str) -> None:
    """LU art. 69: the management excludes or refuses admission."""
    if kind not in ExclusionKind.values:
        raise Refusal.EXCLUSION_KIND_UNKNOWN.error(article=article, k=kind)


def check_notifiable(exclusion: Exclusion, article: str) -> None:
    """LU art. 69: the management's own measure, notified once."""
    if exclusion.origin != ExclusionOrigin.CASINO:
        raise Refusal.EXCLUSION_NOT_OWN.error(article=article)
    if exclusion.minister_notified_on is not None:
        raise Refusal.EXCLUSION_ALREADY_NOTIFIED.error(
            article=article, d=dates.day(exclusion.minister_notified_on)
        )


def check_notice_day(exclusion: Exclusion, day: dt.date, article: str) -> None:
    if day < exclusion.decided_on:
        raise Refusal.EXCLUSION_NOTIFIED_BEFORE_DECISION_HOUSE_EXCLUSIONS_OWN.error(article=article)


def check_not_lifted(exclusion: Exclusion, article: str) -> None:
    if exclusion.lifted_on is not None:
        raise Refusal.EXCLUSION_ALREADY_LIFTED.error(article=article, d=dates.day(exclusion.lifted_on))


def check_lift_day(exclusion: Exclusion, day: dt.date, article: str) -> None:
    if day < exclusion.decided_on:
        raise Refusal.EXCLUSION_LIFTED_BEFORE_DECISION.error(
            article=article, d=dates.day(exclusion.decided_on)
        )


def check_exclusion_given(exclusion: Any, article: str) -> None:
    if not isinstance(exclusion, Exclusion):
        raise Refusal.FIELD_REQUIRED_HOUSE_EXCLUSIONS_ENTRANCE.error(article=article)


def person(
    last_name: Any, first_names: Any, birth_date: Any, article: str, *, now: dt.datetime
) -> dict[str, Any]:
    last = required_text(last_name, "last_name", _("le nom de la personne exclue"), article)
    first = required_text(first_names, "first_names", _("les prénoms de la personne exclue"), article)
    born = past_date(birth_date, "birth_date", article, now=now)
    return {"last_name": last, "first_names": first, "birth_date": born}


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def check_exclusion_in_force(exclusion: Exclusion, day: dt.date, article: str) -> None:
    """An entry is refused under a measure in force that day: decided by then and not lifted
    (a radiation takes effect on its day)."""
    if exclusion.decided_on > day or (exclusion.lifted_on is not None and exclusion.lifted_on <= day):
        raise Refusal.REFUSED_ENTRY_EXCLUSION_NOT_IN_FORCE.error(
            article=article,
            values={
                "name": f"{exclusion.last_name.upper()} {exclusion.first_names}",
                "d": dates.day(day),
                "from": dates.day(exclusion.decided_on),
                "to": _(", radiée le %(d)s") % {"d": dates.day(exclusion.lifted_on)}
                if exclusion.lifted_on
                else "",
            },
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
            raise Refusal.REFUSED_ENTRY_OTHER_PERSON.error(
                article=article,
                field=field,
                message=_("« %(given)s » n'est pas la personne exclue (%(name)s)."),
                given=given,
                name=f"{exclusion.last_name.upper()} {exclusion.first_names}",
            )
    if birth_date != exclusion.birth_date:
        raise Refusal.REFUSED_ENTRY_OTHER_PERSON.error(
            article=article, field="birth_date", d=dates.day(exclusion.birth_date)
        )
