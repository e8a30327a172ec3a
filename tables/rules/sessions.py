"""A séance's state, its decks, its day, its opening, interruption and closing (FR art. 40, 42, 53,
55-5, 68, 69, 72; LU art. 7, 9, 10, 11, 23, 26, 33, 51)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, NoReturn

from django.utils.translation import gettext as _

from casino_ops import dates
from casino_ops.refusals import Refusal

from ..models import EntryKind, SessionStatus


def check_day_open(closed: bool, day: dt.date, profile: str) -> None:
    """Nothing is written on a day closed in the control register (FR art. 68, 72)."""
    if closed:
        raise Refusal.DAY_CLOSED.error(profile, d=dates.day(day))


def check_status(session: Any, allowed: tuple[str, ...], field: str = "session") -> None:
    """The séance is in one of the ``allowed`` states."""
    if session.status not in allowed:
        raise Refusal.SESSION_STATE.error(
            session.profile, field=field, s=session, state=SessionStatus(session.status).label
        )


def check_delegation_covers(delegation: Any, profile: str, field: str) -> None:
    """A committee member fixes the maximum only under a delegation covering the day (LU art. 51 V)."""
    if delegation is None:
        raise Refusal.MAXIMUM_BY_DIRECTOR.error(profile, field=field)


def check_no_decks_out(serials: list[str], profile: str, *, table_number: int | None) -> None:
    """No séance (its table's decks) nor day (every table's) closes while decks issued by the
    depot are out of the cabinet (FR art. 40 §5, LU art. 7 §5)."""
    if serials:
        raise Refusal.DECKS_NOT_RETURNED.error(
            profile, field="day" if table_number is None else "session", serials=", ".join(serials)
        )


def check_decks_in_shoe(has_shoe: bool, session: Any, *, field: str, recording: str) -> None:
    """Rounds or a result are recorded only with decks of the depot in a shoe of the séance
    (FR art. 40, 55-4; LU art. 7, 32); ``recording`` names what is refused."""
    if not has_shoe:
        raise Refusal.SESSION_WITHOUT_DECKS.error(session.profile, field=field, s=session, what=recording)


def check_table_opens(table: Any, still_open: bool, profile: str) -> None:
    """A table in service, with no séance of it still running, opens a séance (FR art. 42; LU art. 9)."""
    if not table.in_service:
        raise Refusal.TABLE_OUT_OF_SERVICE.error(profile, t=table.code)
    if still_open:
        raise Refusal.SESSION_STILL_OPEN.error(profile, t=table.code)


def check_cashier_present(is_cashier: bool, profile: str) -> None:
    """LU art. 10, 23: a cashier is present at the count."""
    if not is_cashier:
        raise Refusal.CASHIER_ABSENT_SESSION_INTERRUPTION.error(profile)


def counted_amount(amount: Decimal | None, profile: str) -> Decimal:
    """A counted interruption writes the amount counted: ``amount``, given."""
    if amount is None:
        raise Refusal.INTERRUPTION_AMOUNT.error(profile)
    return amount


def check_key_holder(is_key_holder: bool, profile: str) -> None:
    """A box locked at the interruption names a holder of its key (FR art. 69; LU art. 23)."""
    if not is_key_holder:
        raise Refusal.KEY_HOLDER.error(profile)


def check_locked_interruption(profile: str, others_open: bool) -> None:
    """LU art. 23: the box is locked only while another table plays on; else the cash is counted."""
    if profile == "LU" and not others_open:
        raise Refusal.INTERRUPTION_MUST_BE_COUNTED.error(profile)


def refuse_interruption_mode(profile: str) -> NoReturn:
    """An interruption is counted or locked, nothing else."""
    raise Refusal.INTERRUPTION_MODE.error(profile)


def check_resumed_by_key_holder(last: Any, actor_id: int, profile: str) -> None:
    """A box locked at the interruption is reopened by the key holder named then (FR art. 69; LU art. 23)."""
    if last is not None and last.kind == EntryKind.INTERRUPTION_LOCKED and last.key_holder_id != actor_id:
        raise Refusal.KEY_HOLDER_ONLY.error(profile, k=last.key_holder)


def check_certified_exact(certified_exact: bool, profile: str) -> None:
    """The closing entry is certified "exact" by its signer (FR art. 69; LU art. 10)."""
    if not certified_exact:
        raise Refusal.NOT_CERTIFIED_EXACT.error(profile)


def check_closing_cashier(profile: str, cashier_named: bool, is_cashier: bool) -> None:
    """LU art. 10: a cashier is present at the closing count; one named anywhere holds the role."""
    if profile == "LU" and not is_cashier:
        raise Refusal.CASHIER_ABSENT.error(profile)
    if cashier_named and not is_cashier:
        raise Refusal.CASHIER_ABSENT.error(
            profile, message=_("La personne indiquée comme caissier n'a pas ce rôle.")
        )
