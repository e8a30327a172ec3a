"""The checks of the approvals by the Minister of Justice (LU art. 51 IV-V, 54, 63; under FR,
internal rule): pure, no query."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from casino_ops import dates
from casino_ops.refusals import Refusal

from ..models import Approval, ApprovalEnd, ApprovalFunction


def in_force_on(held: Iterable[tuple[dt.date, dt.date | None, str]], day: dt.date) -> bool:
    """Whether a person whose approvals are ``held`` (approved on, ended on, how it ended) holds
    one in force on ``day``: given on or before it, not ended on or before it, and no revocation
    of that person between its start and ``day`` (LU art. 51 IV: a revocation ends every power,
    whatever other approval he held). The same rule as the query of the approvals in force
    (:func:`house_books.selectors.approved_on`), for the gate that reads one person's rows."""
    held = list(held)
    revoked = [ended for _on, ended, kind in held if kind == ApprovalEnd.REVOKED and ended is not None]
    return any(
        approved <= day
        and (ended is None or ended > day)
        and not any(approved <= at <= day for at in revoked)
        for approved, ended, _kind in held
    )


def check_approved(
    user: Any, day: dt.date, approved: bool, revoked: Any, article: str, *, field: str = "actor"
) -> None:
    """Refuse an act signed, counted or witnessed on ``day`` by ``user`` without an approval
    in force that day (``approved`` false): missing, not yet given, revoked (``revoked``, the
    revocation in force that day) or ended."""
    if user is not None and approved:
        return
    name = user.get_username() if user is not None else "?"
    if revoked is not None:
        # LU art. 51 IV: the revocation makes any act of the function impossible
        message = _(
            "%(name)s a été révoqué le %(ended)s (%(ref)s) : il ne peut plus accomplir aucun acte de sa fonction, ni signer, ni compter, ni être témoin."
        ) % {"name": name, "ended": dates.day(revoked.ended_on), "ref": revoked.end_reference}
    else:
        message = _(
            "%(name)s n'est pas agréé le %(day)s : il ne peut ni signer, ni compter, ni être témoin."
        ) % {"name": name, "day": dates.day(day)}
    raise Refusal.NOT_APPROVED.error(article=article, field=field, message=message)


def check_function(function: str, article: str) -> None:
    if function not in ApprovalFunction.values:
        raise Refusal.APPROVAL_FUNCTION_UNKNOWN.error(article=article, f=function)


def check_person(person: Any, article: str) -> None:
    if person is None or not getattr(person, "pk", None):
        raise Refusal.FIELD_REQUIRED.error(article=article, field="person")


def check_job(function: str, job: str, article: str) -> None:
    """A person employed in the gaming rooms is approved for the job his contract names."""
    if function == ApprovalFunction.STAFF and not job:
        raise Refusal.APPROVAL_JOB_REQUIRED.error(article=article)


def check_none_in_force(person: Any, overlapping: Approval | None, article: str) -> None:
    """One approval in force per person and function (``overlapping``: the one in force)."""
    if overlapping is not None:
        raise Refusal.APPROVAL_ALREADY_IN_FORCE.error(
            article=article, name=person.get_username(), ref=overlapping.reference
        )


def check_after_revocation(person: Any, day: dt.date, revocation: Approval | None, profile: str) -> None:
    """A new approval is dated after the latest revocation of the person (``revocation``): dated
    on or before it, it would put back in force the days the minister took away (LU art. 51 IV)."""
    if revocation is not None and revocation.ended_on is not None and day <= revocation.ended_on:
        raise Refusal.APPROVAL_BEFORE_REVOCATION.error(
            profile,
            name=person.get_username(),
            ended=dates.day(revocation.ended_on),
            ref=revocation.end_reference,
        )


def check_end_kind(kind: str, article: str) -> None:
    if kind not in ApprovalEnd.values:
        raise Refusal.APPROVAL_END_UNKNOWN.error(article=article, k=kind)


def check_not_ended(approval: Approval, article: str) -> None:
    if approval.ended_on is not None:
        raise Refusal.APPROVAL_ALREADY_ENDED.error(article=article, day=dates.day(approval.ended_on))


def check_end_day(approval: Approval, day: dt.date, article: str) -> None:
    if day < approval.approved_on:
        raise Refusal.APPROVAL_END_BEFORE_START.error(article=article, day=dates.day(approval.approved_on))


def check_minister_notified(minister_notified_on: Any, article: str) -> None:
    """A resignation or a dismissal is notified to the Minister of Justice: the notice's date."""
    if minister_notified_on is None:
        raise Refusal.APPROVAL_END_NOT_NOTIFIED.error(article=article)


def check_notified_after_end(minister_notified_on: dt.date, day: dt.date, article: str) -> None:
    if minister_notified_on < day:
        raise Refusal.APPROVAL_NOTIFIED_BEFORE_END.error(article=article)
