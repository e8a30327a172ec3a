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
from casino_ops.acts import declare_act
from casino_ops.regulations import cite

from ..models import Approval, ApprovalEnd, ApprovalFunction
from ..rules import approvals as rules
from ..rules.common import past_date, required_text
from ..selectors import approvals_changed, approved_on, last_revocation_of, revocation_of
from ._shared import create, profile

_FUNCTION_RULE = {
    ApprovalFunction.DIRECTOR: "house.approvals.direction",
    ApprovalFunction.COMMITTEE: "house.approvals.direction",
    ApprovalFunction.STAFF: "house.approvals.staff",
}


def check_approved(
    user: Any, day: dt.date, profile: str, *, field: str = "actor", approved: bool | None = None
) -> None:
    """Refuse an act signed, counted or witnessed on ``day`` by ``user`` without an approval
    in force that day (missing, not yet given, revoked or ended): LU art. 51, 54, 63.
    ``approved``: whether it is in force, when the caller already read it
    (:func:`~house_books.selectors.approvals_in_force`)."""
    if approved is None:
        approved = user is not None and approved_on(user, day)
    else:
        approved = user is not None and approved
    revoked = revocation_of(user, day) if user is not None and not approved else None
    rules.check_approved(user, day, approved, revoked, cite("house.approvals", profile), field=field)


def _lock_person(person: Any) -> None:
    """Acts on one person's approvals queue on a lock of their own."""
    if connection.vendor != "postgresql":
        return  # SQLite (the quick start) runs one writing transaction at a time
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(hashtext('house_books.approvals'), %s)", [int(person.pk)]
        )


def _require_director(actor: User, article: str, *, person: Any = None) -> None:
    """The director keeps the book, approved himself (the gate), except when he records his
    own approval: the minister's decision he writes is what puts him in force (never dated on
    or before a revocation it would erase: :func:`record_approval`)."""
    own = person is not None and getattr(person, "pk", None) == actor.pk
    access.require(actor, Act.APPROVALS, article=article, gate=not own)


@declare_act(
    act=Act.APPROVALS,
    action=Action.HOUSE_APPROVAL_RECORDED,
    article="house.approvals",
    gate=False,  # the service's own gate (see its body)
)
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
    rules.check_function(function, cite("house.approvals", current))
    article = cite(_FUNCTION_RULE[ApprovalFunction(function)], current)
    _require_director(actor, article, person=person)
    rules.check_person(person, article)
    day = past_date(approved_on, "approved_on", article, now=timezone.now())
    reference = required_text(reference, "reference", _("la référence de l'agrément"), article)
    job = str(job or "").strip()
    rules.check_job(function, job, article)
    _lock_person(person)
    overlapping = Approval.objects.filter(person=person, function=function, ended_on__isnull=True).first()
    rules.check_none_in_force(person, overlapping, article)
    # LU art. 51 IV: a revocation ends every power; a new approval starts after it, never on or
    # before it (the revocation is never erased)
    rules.check_after_revocation(person, day, last_revocation_of(person), current)
    approvals_changed()
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


@declare_act(
    act=Act.APPROVALS,
    action=Action.HOUSE_APPROVAL_ENDED,
    article="house.approvals",
    gate=False,  # the service's own gate (see its body)
)
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
    rules.check_end_kind(kind, article)
    rules.check_not_ended(approval, article)
    now = timezone.now()
    day = past_date(ended_on, "ended_on", article, now=now)
    rules.check_end_day(approval, day, article)
    what = _("la référence de la décision du ministre") if kind == ApprovalEnd.REVOKED else _("les motifs")
    reference = required_text(reference, "reference", what, article)
    if kind != ApprovalEnd.REVOKED:
        rules.check_minister_notified(minister_notified_on, article)
        notified = past_date(minister_notified_on, "minister_notified_on", article, now=now)
        rules.check_notified_after_end(notified, day, article)
    approvals_changed()
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
