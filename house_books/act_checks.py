"""The rules of these books that bind the acts of the tables and the depot, registered in
:mod:`casino_ops.act_checks` when Django starts (the tables never import this app).

- approvals (LU art. 51, 54, 63): whoever signs, counts or witnesses an act holds an approval
  in force that day, once the casino keeps its book of approvals;
- séance hours (LU art. 71): no séance opens before the start hour notified, nor after the
  closing hour; a séance closed before the closing hour has its recorded reason;
- a bank failure (LU art. 11): no séance opens, and no advance is added to one, until a new
  authorisation is recorded;
- shoe devices (LU art. 32 §3, 40): under LU, no séance opens at a table without the shoe
  the director assigned to it for that day (the book is compelled, not kept at will);
- closing down (LU art. 52): no séance opens after it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops import act_checks, roles
from casino_ops.act_checks import Act
from casino_ops.regulations import RegulationError, cite

from . import selectors
from .services.approvals import check_approved


def approved_people(
    *, act: Act, day: dt.date, profile: str, people: Mapping[str, Any], **_ignored: Any
) -> None:
    if not selectors.approvals_book_kept():
        return
    for field, person in people.items():
        if person is None or roles.is_officer(person):
            continue  # an officer of the State is not the casino's to approve
        check_approved(person, day, profile, field=field)


def seance_hours(
    *, act: Act, day: dt.date, profile: str, at: dt.datetime | None, subject: Any, **_ignored: Any
) -> None:
    if act not in (Act.SESSION_OPEN, Act.SESSION_CLOSE) or at is None:
        return
    opened_at = subject.opened_at if act == Act.SESSION_CLOSE else at
    hours = selectors.hours_in_force(opened_at)
    if hours is None:
        return
    start, close = selectors.seance_window(hours, day)
    article = cite("house.hours", profile)
    if act == Act.SESSION_OPEN and at < start:
        raise RegulationError(
            "SESSION_BEFORE_START_HOUR",
            _("Les séances du %(day)s ne commencent pas avant %(start)s, heure notifiée aux ministres.")
            % {"day": day.strftime("%d/%m/%Y"), "start": timezone.localtime(start).strftime("%H:%M")},
            article,
            field="table",
        )
    if act == Act.SESSION_OPEN and at >= close:
        raise RegulationError(
            "SESSION_AFTER_CLOSING_HOUR",
            _("L'heure de fermeture (%(close)s) est passée.")
            % {"close": timezone.localtime(close).strftime("%H:%M")},
            article,
            field="table",
        )
    if act == Act.SESSION_CLOSE and at < close and not selectors.early_stop_of(subject):
        raise RegulationError(
            "EARLY_STOP_WITHOUT_REASON",
            _(
                "La séance ne s'arrête avant l'heure de fermeture (%(close)s) que si les joueurs se sont retirés ou après trois coups de suite sans mise : inscrivez d'abord ce motif."
            )
            % {"close": timezone.localtime(close).strftime("%H:%M")},
            article,
            field="session",
        )


def bank_authorised(*, act: Act, profile: str, at: dt.datetime | None, **_ignored: Any) -> None:
    """LU art. 11: the counterpart games stop at the failure and the authorisation lapses: no
    séance opens, and no further advance feeds an open one, until a new authorisation."""
    if act not in (Act.SESSION_OPEN, Act.SESSION_ADVANCE):
        return
    failure = selectors.pending_bank_failure(at or timezone.now())
    if failure is None:
        return
    when = {"at": timezone.localtime(failure.occurred_at).strftime("%d/%m/%Y %H:%M")}
    if act == Act.SESSION_ADVANCE:
        raise RegulationError(
            "BANK_FAILURE_NO_AUTHORISATION",
            _(
                "Depuis la défaillance de la contrepartie du %(at)s, aucune avance n'est versée avant l'inscription d'une nouvelle autorisation."
            )
            % when,
            cite("house.bank", profile),
            field="session",
        )
    raise RegulationError(
        "BANK_FAILURE_NO_AUTHORISATION",
        _(
            "Depuis la défaillance de la contrepartie du %(at)s, aucune séance n'ouvre avant l'inscription d'une nouvelle autorisation."
        )
        % when,
        cite("house.bank", profile),
        field="table",
    )


def shoe_device_assigned(*, act: Act, day: dt.date, profile: str, subject: Any, **_ignored: Any) -> None:
    if act != Act.SESSION_OPEN or profile != "LU" or subject is None:
        return
    # compelled under LU, kept or not: a séance without its assigned shoe is refused
    if not selectors.device_assigned(subject.number, day):
        raise RegulationError(
            "SESSION_WITHOUT_DEVICE",
            _(
                "Aucun sabot n'est affecté à la table %(t)s pour la séance du %(day)s : le directeur affecte d'abord un sabot numéroté de l'armoire."
            )
            % {"t": subject.number, "day": day.strftime("%d/%m/%Y")},
            cite("house.devices", profile),
            field="table",
        )


def not_closed_down(*, act: Act, profile: str, at: dt.datetime | None, **_ignored: Any) -> None:
    if act != Act.SESSION_OPEN or at is None:
        return
    closing = selectors.closed_at_or_before(at)
    if closing is not None:
        raise RegulationError(
            "CASINO_CLOSED_DOWN",
            _("L'exploitation a cessé le %(at)s : aucune séance n'ouvre plus.")
            % {"at": timezone.localtime(closing.closed_at).strftime("%d/%m/%Y %H:%M")},
            cite("house.closing", profile),
            field="table",
        )


def register_all() -> None:
    act_checks.register("house.approvals", approved_people)
    act_checks.register("house.hours", seance_hours)
    act_checks.register("house.bank", bank_authorised)
    act_checks.register("house.devices", shoe_device_assigned)
    act_checks.register("house.closing", not_closed_down)
