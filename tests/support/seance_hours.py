"""The séance hours notified to the ministers (LU art. 71), on a day three days back: the notice,
and séances opened and closed at an hour of that day."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone

from house_books.models import SeanceHours
from house_books.services.hours import notify_seance_hours

TODAY = timezone.localdate()
D = TODAY - dt.timedelta(days=3)


def moment_on(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, minute)))


def notify_hours(actor: Any, **kw: Any) -> SeanceHours:
    values = {
        "weekday_start": dt.time(15),
        "holiday_start": dt.time(15),
        "closing": dt.time(3),
        "effective_from": moment_on(D - dt.timedelta(days=10), 0),
        "notified_at": moment_on(D - dt.timedelta(days=12), 10),
        "reference": "Avis MJ/MF 2026-07",
    }
    values.update(kw)
    from tables.clock import history_at

    with history_at(values["notified_at"]):  # written when the notice is given
        return notify_seance_hours(actor=actor, **values)


def open_seance_at(director: Any, croupier: Any, table: Any, hour: int, *, shoe: bool = True) -> Any:
    """A séance opened at ``table`` on ``D`` at ``hour``; first (``shoe``) the table's shoe for
    the day assigned, as LU asks (LU art. 32 §3, 40; nothing under FR)."""
    from tables.clock import history_at
    from tables.services import open_session
    from tests.support.builders import shoe_for

    if shoe:
        shoe_for(table, D, director)
    with history_at(moment_on(D, hour)):
        return open_session(
            actor=director,
            table=table,
            day=D,
            minimum=Decimal("5.00"),
            maximum=Decimal("500.00"),
            advance_amount=Decimal("30000.00"),
            croupier=croupier,
            guarantee_fund=Decimal("100000.00"),
        )


def close_seance_at(director: Any, croupier: Any, cashier: Any, session: Any, hour: int) -> Any:
    from tables.clock import history_at
    from tables.services import close_session

    with history_at(moment_on(D, hour)):
        return close_session(
            actor=director,
            session=session,
            closing_cash=Decimal("30000.00"),
            counted_by=croupier,
            certified_exact=True,
            cashier=cashier,
        )
