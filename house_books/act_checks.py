"""The rules of these books that bind the acts of the tables and the depot, registered in
:mod:`casino_ops.act_checks` when Django starts (the tables never import this app).

- approvals (LU art. 51, 54, 63): whoever performs, signs, counts or witnesses an act holds an
  approval in force that day, once the casino keeps its book of approvals (every act by a
  person passes the gate, ``Hook.PERFORM``; the tables' and the depot's acts name their people);
- séance hours (LU art. 71): no séance opens before the start hour notified, nor after the
  closing hour; a séance closed before the closing hour has its recorded reason;
- a bank failure (LU art. 11): no séance opens, no advance is added to one, no interrupted
  séance resumes, and no round is played (a hand log of a shoe filled after the failure, or
  received after it for a shoe never filled), until a new authorisation is recorded;
- shoe devices (LU art. 32 §3, 40): under LU, no séance opens at a table without the shoe
  the director assigned to it for that day (the book is compelled, not kept at will);
- closing down (LU art. 52): no séance opens after it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.utils import timezone

from casino_ops import act_checks, roles
from casino_ops.act_checks import Hook
from casino_ops.services import get_casino

from . import selectors
from .rules import seances as rules
from .services.approvals import check_approved


def approved_people(
    *, act: Hook, day: dt.date, profile: str, people: Mapping[str, Any], **_ignored: Any
) -> None:
    present = [
        (field, person)
        for field, person in people.items()
        if person is not None and not isinstance(person, str) and not roles.is_officer(person)
    ]
    if not present:
        return  # no one signs, counts or witnesses: nothing to check, kept book or not
    if act == Hook.PERFORM:
        selectors.approvals_changed()  # a new act: what earlier acts read is read again
    # whether the book is kept and who is approved that day: one query for the act's people (none
    # for whom the gate already read for this act: the memo on each person, for that day)
    unread = [person for _field, person in present if selectors.approval_memo(person, day) is None]
    if unread:
        kept, approved = selectors.approvals_in_force(unread, day)
        for person in unread:
            selectors.remember_approval(person, day, kept, person.pk in approved)
    for field, person in present:
        kept, in_force = selectors.approval_memo(person, day) or (True, False)
        if not kept:
            return
        if not in_force:
            check_approved(person, day, profile or get_casino().profile, field=field, approved=False)


def seance_hours(
    *, act: Hook, day: dt.date, profile: str, at: dt.datetime | None, subject: Any, **_ignored: Any
) -> None:
    if act not in (Hook.SESSION_OPEN, Hook.SESSION_CLOSE) or at is None:
        return
    opened_at = subject.opened_at if act == Hook.SESSION_CLOSE else at
    hours = selectors.hours_in_force(opened_at)
    if hours is None:
        return
    start, close = selectors.seance_window(hours, day)
    stopped = act == Hook.SESSION_CLOSE and at < close and bool(selectors.early_stop_of(subject))
    rules.check_seance_hours(act, day, profile, at, start, close, stopped)


def bank_authorised(*, act: Hook, profile: str, at: dt.datetime | None, **_ignored: Any) -> None:
    """LU art. 11: the counterpart games stop at the failure and the authorisation lapses: no
    séance opens, no further advance feeds an open one, no interrupted séance resumes, and no
    round is played (a hand log of a shoe filled after the failure), until a new authorisation."""
    if act not in (Hook.SESSION_OPEN, Hook.SESSION_ADVANCE, Hook.SESSION_RESUME, Hook.SESSION_PLAY):
        return
    rules.check_bank_authorised(act, profile, selectors.pending_bank_failure(at or timezone.now()))


def shoe_device_assigned(*, act: Hook, day: dt.date, profile: str, subject: Any, **_ignored: Any) -> None:
    if act != Hook.SESSION_OPEN or profile != "LU" or subject is None:
        return
    # compelled under LU, kept or not: a séance without its assigned shoe is refused
    rules.check_device_assigned(subject.number, day, profile, selectors.device_assigned(subject.number, day))


def not_closed_down(*, act: Hook, profile: str, at: dt.datetime | None, **_ignored: Any) -> None:
    if act != Hook.SESSION_OPEN or at is None:
        return
    rules.check_not_closed_down(profile, selectors.closed_at_or_before(at))


def register_all() -> None:
    act_checks.CHECKS.register("house.approvals", approved_people)
    act_checks.CHECKS.register("house.hours", seance_hours)
    act_checks.CHECKS.register("house.bank", bank_authorised)
    act_checks.CHECKS.register("house.devices", shoe_device_assigned)
    act_checks.CHECKS.register("house.closing", not_closed_down)
