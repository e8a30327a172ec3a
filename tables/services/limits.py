"""Changes of a session's limits (FR art. 53, 55-5; LU art. 26, 33)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction

import audit
from audit.actions import Action
from casino_ops import access, officers
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.officers import OfficerSignature
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite
from casino_ops.services import get_casino

from .. import clock, rules
from ..models import (
    AuthorisedMinimum,
    Delegation,
    MaximumChange,
    MinistryNotice,
    Session,
    SessionStatus,
)
from ..rules import limits as limit_rules
from ..serializers import (
    AuthorisedMinimumInSerializer,
    DelegationInSerializer,
    MaximumInSerializer,
    MinistryNoticeInSerializer,
)
from ._shared import (
    _lock_session,
    _require_maximum_fixer,
    _require_signer,
    _require_status,
    _save,
)


@declare_act(
    act=(Act.FIX_MAXIMUM, Act.FIX_MAXIMUM_AS_DELEGATE),
    action=Action.SESSION_MAXIMUM_CHANGED,
    schema=MaximumInSerializer,
    article="limits.maximum_change",
    refusals=(
        Refusal.MAXIMUM_FIXED_FOR_SEASON,
        "SIGNATURE_REQUIRED",
        Refusal.MAXIMUM_BY_DIRECTOR,
        Refusal.DISPLAY_NOT_CHANGED,
    ),
    gate=False,  # LU refuses any change first; then the signer, then the director or his delegate
)
@transaction.atomic
def change_maximum(
    *, actor: User, session: Session, maximum: Decimal, display_changed: bool
) -> MaximumChange:
    """FR art. 55-5: the director may change the maximum during the session if the table display
    shows it. LU art. 33: the maximum is fixed for the season and never changes."""
    session = _lock_session(session)
    profile = session.profile
    limit_rules.check_maximum_may_change(profile)
    _require_signer(actor, profile, field="actor")
    _require_status(session, SessionStatus.OPEN, SessionStatus.INTERRUPTED)
    delegation = _require_maximum_fixer(actor, profile, get_casino().gaming_day(clock.now()))
    rules.check_maximum_multiple(session.minimum, maximum, profile)
    limit_rules.check_display_changed(display_changed, profile)
    change = _save(
        MaximumChange(
            session=session,
            previous=session.maximum,
            maximum=maximum,
            at=clock.now(),
            by=actor,
            display_changed=True,
            delegation=delegation,
        ),
        cite("limits.maximum_change", profile),
    )
    session.maximum = maximum
    _save(session, cite("limits.maximum_change", profile), update_fields=["maximum"])
    audit.record(
        actor=actor,
        action=Action.SESSION_MAXIMUM_CHANGED,
        obj=change,
        payload={
            "session": session.pk,
            "previous": change.previous,
            "maximum": maximum,
            "display_changed": True,
            "delegation": delegation.pk if delegation else None,
        },
    )
    return change


def change_minimum(*, actor: User, session: Session, minimum: Decimal) -> None:
    """Always refused: FR art. 53, the minimum changes only by closing the table and reopening it
    with a new advance; LU art. 26, the minimum of a table does not change within a day."""
    limit_rules.refuse_minimum_change(session.profile)


@declare_act(
    act=Act.GRANT_DELEGATION,
    action=Action.DELEGATION_GRANTED,
    schema=DelegationInSerializer,
    article="limits.maximum_by_director",
    refusals=(Refusal.DELEGATE_NOT_COMMITTEE, Refusal.DELEGATION_APPROVAL, Refusal.DELEGATION_DATES),
)
@transaction.atomic
def grant_delegation(
    *,
    actor: User,
    delegate: User,
    approval_reference: str,
    approved_on: dt.date,
    valid_from: dt.date,
    valid_until: dt.date | None = None,
) -> Delegation:
    """The director records a committee member approved by the minister as his delegate for the
    direction of play (LU art. 51 V): from then on, that member may fix the maximum (FR art. 55-5,
    LU art. 33). A dated act, shown in the registers."""
    profile = get_casino().profile
    article = cite("limits.maximum_by_director", profile)
    limit_rules.check_delegation(
        is_committee=access.may(delegate, Act.BE_DELEGATE),
        approval_reference=approval_reference,
        approved_on=approved_on,
        valid_from=valid_from,
        valid_until=valid_until,
        article=article,
    )
    delegation = _save(
        Delegation(
            delegate=delegate,
            approval_reference=approval_reference.strip(),
            approved_on=approved_on,
            valid_from=valid_from,
            valid_until=valid_until,
            granted_by=actor,
            at=clock.now(),
        ),
        article,
    )
    audit.record(
        actor=actor,
        action=Action.DELEGATION_GRANTED,
        obj=delegation,
        payload={
            "delegate": delegate.pk,
            "approval_reference": delegation.approval_reference,
            "approved_on": approved_on,
            "valid_from": valid_from,
            "valid_until": valid_until,
        },
    )
    return delegation


@declare_act(
    act=Act.RECORD_AUTHORISED_MINIMUM,
    action=Action.AUTHORISED_MINIMUM_RECORDED,
    schema=AuthorisedMinimumInSerializer,
    article="limits.authorised_minimum",
    refusals=(Refusal.AUTHORISED_MINIMUM_INVALID, Refusal.DECREE_DATES, Refusal.DECREE_REFERENCE),
)
@transaction.atomic
def record_authorised_minimum(
    *, actor: User, minimum: Decimal, decree_reference: str, decree_date: dt.date, in_force_on: dt.date
) -> AuthorisedMinimum:
    """The director records the authorised minimum of a decree (its reference, its date, the day it
    comes into force). It takes effect once an officer has stamped it (FR art. 55-5; LU art. 26, 33)."""
    profile = get_casino().profile
    article = cite("limits.authorised_minimum", profile)
    rules.check_amount(minimum, "minimum", "limits.authorised_minimum", profile)
    limit_rules.check_authorised_minimum(
        minimum=minimum,
        decree_reference=decree_reference,
        decree_date=decree_date,
        in_force_on=in_force_on,
        article=article,
    )
    act = _save(
        AuthorisedMinimum(
            minimum=minimum,
            decree_reference=decree_reference.strip(),
            decree_date=decree_date,
            in_force_on=in_force_on,
            recorded_by=actor,
            recorded_at=clock.now(),
        ),
        article,
    )
    audit.record(
        actor=actor,
        action=Action.AUTHORISED_MINIMUM_RECORDED,
        obj=act,
        payload={
            "minimum": minimum,
            "decree_reference": act.decree_reference,
            "decree_date": decree_date,
            "in_force_on": in_force_on,
        },
    )
    return act


@declare_act(
    act=Act.STAMP_AUTHORISED_MINIMUM,
    action=Action.AUTHORISED_MINIMUM_STAMPED,
    article="limits.authorised_minimum",
    refusals=(Refusal.ALREADY_STAMPED,),
)
@transaction.atomic
def stamp_authorised_minimum(
    *, actor: User, act: AuthorisedMinimum, signature: OfficerSignature | None = None
) -> AuthorisedMinimum:
    """An officer stamps (vise) the act; from then on (and from its date in force) it holds."""
    profile = get_casino().profile
    article = cite("limits.authorised_minimum", profile)
    act = AuthorisedMinimum.objects.select_for_update().get(pk=act.pk)
    limit_rules.check_not_stamped(act.stamped_at, article)
    sealed = officers.seal(
        officer=actor,
        act=Action.AUTHORISED_MINIMUM_STAMPED,
        target=act,
        fields={},
        signature=signature,
        profile=profile,
    )
    act.stamped_by = actor
    act.stamped_at = clock.now()
    _save(act, article, update_fields=["stamped_by", "stamped_at"])
    audit.record(
        actor=actor,
        action=Action.AUTHORISED_MINIMUM_STAMPED,
        obj=act,
        payload={
            "minimum": act.minimum,
            "decree_reference": act.decree_reference,
            officers.SIGNATURE_KEY: sealed,
        },
    )
    return act


@declare_act(
    act=Act.RECORD_MINISTRY_NOTICE,
    action=Action.MINISTRY_NOTICE_RECORDED,
    schema=MinistryNoticeInSerializer,
    article="limits.ministry_notice",
    refusals=(Refusal.NOTICE_IN_FUTURE, Refusal.MINISTRY_NOTICE_NO_REFERENCE),
)
@transaction.atomic
def record_ministry_notice(
    *, actor: User, minimum: Decimal, sent_on: dt.date, reference: str
) -> MinistryNotice:
    """The director's notice to the Minister of Finances (or his delegate) of a raised minimum,
    recorded when it is sent (LU art. 26, by art. 33): the moment of its recording is the
    system's, and the eight days run from it; the day he says he sent it is kept beside it, and a
    day declared earlier than the recording is named by ``inspect_books``."""
    casino = get_casino()
    profile = casino.profile
    article = cite("limits.ministry_notice", profile)
    rules.check_amount(minimum, "minimum", "limits.ministry_notice", profile)
    now = clock.now()
    rules.check_notice_sent_on(profile=profile, sent_on=sent_on, today=casino.gaming_day(now))
    reference = (reference or "").strip()
    rules.check_ministry_notice_reference(profile=profile, reference=reference)
    notice = _save(
        MinistryNotice(
            minimum=minimum, sent_on=sent_on, reference=reference, recorded_by=actor, recorded_at=now
        ),
        article,
    )
    audit.record(
        actor=actor,
        action=Action.MINISTRY_NOTICE_RECORDED,
        obj=notice,
        payload={"minimum": minimum, "sent_on": sent_on, "reference": reference},
    )
    return notice
