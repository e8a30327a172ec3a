"""Approvals by the Minister of Justice (LU art. 51 IV-V, 54, 63; under FR, internal rule).

The director and the committee members are approved by the Minister of Justice; so is
every person employed in the gaming rooms, before he starts work. A revocation ends
every power at once; a resignation or a dismissal is notified to the minister.
:func:`check_approved` is the rule the acts that are signed, counted or witnessed call.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from casino_ops import access
from casino_ops.access import Act
from casino_ops.regulations import RegulationError, cite

from ..models import Approval, ApprovalEnd, ApprovalFunction
from ..rules.common import required_text
from ..selectors import approved_on, revocation_of
from ._shared import create, profile

_FUNCTION_RULE = {
    ApprovalFunction.DIRECTOR: "house.approvals.direction",
    ApprovalFunction.COMMITTEE: "house.approvals.direction",
    ApprovalFunction.STAFF: "house.approvals.staff",
}


def check_approved(user: Any, day: dt.date, profile: str, *, field: str = "actor") -> None:
    """Refuse an act signed, counted or witnessed on ``day`` by ``user`` without an approval
    in force that day (missing, not yet given, revoked or ended): LU art. 51, 54, 63."""
    if user is not None and approved_on(user, day):
        return
    name = user.get_username() if user is not None else "?"
    revoked = revocation_of(user, day) if user is not None else None
    if revoked is not None:
        # LU art. 51 IV: the revocation makes any act of the function impossible
        message = _(
            "%(name)s a été révoqué le %(ended)s (%(ref)s) : il ne peut plus accomplir aucun acte de sa fonction, ni signer, ni compter, ni être témoin."
        ) % {"name": name, "ended": revoked.ended_on.strftime("%d/%m/%Y"), "ref": revoked.end_reference}
    else:
        message = _(
            "%(name)s n'est pas agréé le %(day)s : il ne peut ni signer, ni compter, ni être témoin."
        ) % {"name": name, "day": day.strftime("%d/%m/%Y")}
    raise RegulationError("NOT_APPROVED", message, cite("house.approvals", profile), field=field)


def _lock_person(person: Any) -> None:
    """Acts on one person's approvals queue on a lock of their own."""
    if connection.vendor != "postgresql":
        return  # SQLite (the quick start) runs one writing transaction at a time
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(hashtext('house_books.approvals'), %s)", [int(person.pk)]
        )


def _require_director(actor: User, article: str) -> None:
    access.require(actor, Act.APPROVALS, article=article)


def _date(value: Any, field: str, article: str) -> dt.date:
    if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
        raise RegulationError("FIELD_INVALID", _("Indiquez une date."), article, field=field)
    if value > timezone.localdate():
        raise RegulationError("DATE_IN_FUTURE", _("Cette date est dans le futur."), article, field=field)
    return value


@transaction.atomic
def record_approval(
    *,
    actor: User,
    person: Any,
    function: str,
    approved_on: dt.date,
    reference: str,
    job: str = "",
) -> Approval:
    """The approval of ``person`` by the Minister of Justice, with its date and reference."""
    current = profile()
    if function not in ApprovalFunction.values:
        raise RegulationError(
            "APPROVAL_FUNCTION_UNKNOWN",
            _("Fonction inconnue « %(f)s ».") % {"f": function},
            cite("house.approvals", current),
            field="function",
        )
    article = cite(_FUNCTION_RULE[ApprovalFunction(function)], current)
    _require_director(actor, article)
    if person is None or not getattr(person, "pk", None):
        raise RegulationError("FIELD_REQUIRED", _("Indiquez la personne agréée."), article, field="person")
    day = _date(approved_on, "approved_on", article)
    reference = required_text(reference, "reference", _("la référence de l'agrément"), article)
    job = str(job or "").strip()
    if function == ApprovalFunction.STAFF and not job:
        raise RegulationError(
            "APPROVAL_JOB_REQUIRED", _("Indiquez l'emploi précisé au contrat."), article, field="job"
        )
    _lock_person(person)
    overlapping = Approval.objects.filter(person=person, function=function, ended_on__isnull=True).first()
    if overlapping is not None:
        raise RegulationError(
            "APPROVAL_ALREADY_IN_FORCE",
            _("%(name)s a déjà un agrément en vigueur pour cette fonction (%(ref)s).")
            % {"name": person.get_username(), "ref": overlapping.reference},
            article,
            field="person",
        )
    approval = create(
        Approval,
        article,
        person=person,
        function=function,
        job=job,
        approved_on=day,
        reference=reference,
        recorded_by=actor,
    )
    audit.record(
        actor=actor,
        action=Action.HOUSE_APPROVAL_RECORDED,
        obj=approval,
        payload={
            "person": person.get_username(),
            "function": function,
            "job": job,
            "approved_on": day,
            "reference": reference,
        },
    )
    return approval


@transaction.atomic
def end_approval(
    *,
    actor: User,
    approval: Approval,
    kind: str,
    ended_on: dt.date,
    reference: str,
    minister_notified_on: dt.date | None = None,
) -> Approval:
    """The end of an approval: revoked by the minister (every power ends that day), or a
    resignation or dismissal, notified to the Minister of Justice (with the reasons)."""
    current = profile()
    approval = Approval.objects.select_for_update().get(pk=approval.pk)
    article = cite(_FUNCTION_RULE[ApprovalFunction(approval.function)], current)
    _require_director(actor, article)
    if kind not in ApprovalEnd.values:
        raise RegulationError(
            "APPROVAL_END_UNKNOWN", _("Fin inconnue « %(k)s ».") % {"k": kind}, article, field="kind"
        )
    if approval.ended_on is not None:
        raise RegulationError(
            "APPROVAL_ALREADY_ENDED",
            _("Cet agrément a déjà pris fin le %(day)s.") % {"day": approval.ended_on.strftime("%d/%m/%Y")},
            article,
            field="approval",
        )
    day = _date(ended_on, "ended_on", article)
    if day < approval.approved_on:
        raise RegulationError(
            "APPROVAL_END_BEFORE_START",
            _("La fin ne peut précéder l'agrément (%(day)s).")
            % {"day": approval.approved_on.strftime("%d/%m/%Y")},
            article,
            field="ended_on",
        )
    what = _("la référence de la décision du ministre") if kind == ApprovalEnd.REVOKED else _("les motifs")
    reference = required_text(reference, "reference", what, article)
    if kind != ApprovalEnd.REVOKED:
        if minister_notified_on is None:
            raise RegulationError(
                "APPROVAL_END_NOT_NOTIFIED",
                _(
                    "Une démission ou un renvoi est notifié au Ministre de la Justice : indiquez la date de l'avis."
                ),
                article,
                field="minister_notified_on",
            )
        _date(minister_notified_on, "minister_notified_on", article)
        if minister_notified_on < day:
            raise RegulationError(
                "APPROVAL_NOTIFIED_BEFORE_END",
                _("L'avis au ministre suit la démission ou le renvoi."),
                article,
                field="minister_notified_on",
            )
    Approval.objects.filter(pk=approval.pk).update(
        ended_on=day,
        end_kind=kind,
        end_reference=reference,
        minister_notified_on=minister_notified_on,
        ended_by=actor,
    )
    approval.refresh_from_db()
    audit.record(
        actor=actor,
        action=Action.HOUSE_APPROVAL_ENDED,
        obj=approval,
        payload={
            "person": approval.person.get_username(),
            "function": approval.function,
            "kind": kind,
            "ended_on": day,
            "reference": reference,
            "minister_notified_on": minister_notified_on,
        },
    )
    return approval
