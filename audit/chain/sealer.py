"""The sealer's loop (``manage.py audit_sealer``), which never stops silently.

- :func:`run_sealer`: one pass every interval while something waits, until asked to stop.
- :func:`waiting` and :func:`sealing_late`: the events committed and not yet sealed, and
  whether the oldest has waited longer than ``AUDIT_SEALING_LATE_AFTER`` seconds (sealer
  mode). ``/health/`` answers 503 on it and the officers' dashboard shows its warning: one
  function for both.
- :class:`SealerWatch`: what :func:`run_sealer` does when the database is lost (a
  server restart, the backend ended, connections refused): the connection closed, a warning
  logged with the attempt's number, the next attempt after a back-off doubling from 0.5 s to
  30 s at most, never an exit. Once sealing resumes after an interruption longer than
  ``AUDIT_SEALING_LATE_AFTER`` (or when the sealer finds events that waited longer, as at its
  start after being stopped), it records and seals the alarm event
  ``audit.sealing_interrupted``: the interruption's start and end, how many events waited,
  and the failed attempts to reach the database.

An event whose MAC fails (``audit.forged_event``, never sealed) once its alarm is recorded does
not count as waiting: it never will be sealed, and its own alarm reports it.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import psycopg
from django.conf import settings
from django.db import InterfaceError, OperationalError, connections, router, transaction
from django.utils import timezone

from ..actions import Action
from ..models import AuditEvent
from .hashing import FORGED_ACTION, FORGED_OBJECT
from .recording import record
from .seal import SEALER_INTERVAL, _any_pending, seal_pending

log = logging.getLogger(__name__)

#: What a lost database raises (Django's wrapping, or psycopg's own where nothing wraps it).
CONNECTION_ERRORS = (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)
#: The back-off between two attempts to reach the database: doubling from the first, capped.
BACKOFF_FIRST, BACKOFF_MAX = 0.5, 30.0
#: The object of the alarm event (the sealer itself, not a model).
SEALER_OBJECT = "audit.sealer"

_TABLE = AuditEvent._meta.db_table
# The pending events by their partial index; a forged one's alarm by the partial index of the
# alarms (its condition written out, so that the planner matches it whatever the binding).
_WAITING_SQL = (
    f"SELECT count(*), min(e.recorded_at) FROM {_TABLE} AS e WHERE e.seq IS NULL "
    f"AND NOT EXISTS (SELECT 1 FROM {_TABLE} AS a WHERE a.action = '{FORGED_ACTION.value}' "
    f"AND a.object_type = '{FORGED_OBJECT}' AND a.object_id = e.id::text)"
)


@dataclass(frozen=True)
class Waiting:
    """The events committed and not yet sealed: how many, the oldest's time and its age."""

    count: int
    oldest: dt.datetime | None
    seconds: float

    @property
    def late(self) -> bool:
        return self.oldest is not None and self.seconds > late_after()


def late_after() -> float:
    """``AUDIT_SEALING_LATE_AFTER``: seconds an event may wait to be sealed."""
    return float(settings.AUDIT_SEALING_LATE_AFTER)


def waiting(using: str = "default") -> Waiting:
    """The events waiting to be sealed (one query, on the index of the unsealed events)."""
    with connections[using].cursor() as cursor:
        cursor.execute(_WAITING_SQL)
        count, oldest = cursor.fetchone()
    seconds = (timezone.now() - oldest).total_seconds() if oldest is not None else 0.0
    return Waiting(int(count), oldest, max(0.0, seconds))


def sealing_late(using: str = "default") -> Waiting | None:
    """The events waiting when the oldest has waited longer than ``AUDIT_SEALING_LATE_AFTER``
    (the sealer stopped, or cut from the database); None when sealing keeps up, and always in
    inline mode (each event is sealed in its act's transaction: no query)."""
    if settings.AUDIT_SEALING != "sealer":
        return None
    found = waiting(using)
    return found if found.late else None


def backoff(attempt: int) -> float:
    """Seconds to wait after the ``attempt``-th failure in a row: 0.5, 1, 2 … 30 at most."""
    return min(BACKOFF_MAX, BACKOFF_FIRST * 2.0 ** (attempt - 1))


def pause(seconds: float, should_stop: Callable[[], bool]) -> None:
    """Sleep ``seconds``, waking at once when ``should_stop()`` (a SIGTERM does not cut a
    sleep short: its handler only sets the flag)."""
    end = time.monotonic() + seconds
    while not should_stop():
        left = end - time.monotonic()
        if left <= 0:
            return
        time.sleep(min(left, 0.1))


class SealerWatch:
    """The sealer's account of its interruptions (see the module's docstring)."""

    def __init__(self, using: str) -> None:
        self.using = using
        self.failures = 0  # failed attempts in a row to reach the database
        self.since: dt.datetime | None = None  # when sealing stopped (None: it goes on)
        self.waited = 0  # events found waiting during the interruption
        self.look = True  # read the waiting events before the next pass (start, reconnection)
        self.last_sealing = timezone.now()  # the end of the last pass (or look) that succeeded

    def lost(self, error: BaseException) -> float:
        """The database lost: close the connection, log it, return the back-off to wait."""
        self.failures += 1
        if self.since is None:
            self.since = self.last_sealing
        self.look = True
        try:
            connections[self.using].close()
        except Exception:  # a connection already broken: the next attempt opens a new one
            log.debug("closing the lost connection failed", exc_info=True)
        delay = backoff(self.failures)
        log.warning(
            "audit sealer: connection to the database lost (attempt %d, not sealing for %.1f s): %s; "
            "next attempt in %.1f s",
            self.failures,
            (timezone.now() - self.since).total_seconds(),
            str(error).strip() or type(error).__name__,
            delay,
        )
        return delay

    def before_pass(self) -> None:
        """Some event waits: at the sealer's start and after a reconnection, how long it waited."""
        if not self.look:
            return
        found = waiting(self.using)
        self.waited = max(self.waited, found.count)
        if found.late and found.oldest is not None:
            self.since = min(self.since or found.oldest, found.oldest)
        self.look = False

    def passed(self, sealed: int, *, started: float, started_at: dt.datetime) -> bool:
        """A pass (or a look that found nothing to seal) succeeded: sealing goes on. After an
        interruption longer than the setting, its alarm is recorded (True: to seal at once)."""
        if time.monotonic() - started > late_after():  # a pass held up (the chain's lock, a stall)
            self.since = self.since or started_at
            self.waited = max(self.waited, sealed)
        ended = timezone.now()
        if self.failures:
            log.warning(
                "audit sealer: sealing resumed after %d failed attempt(s), %.1f s without sealing",
                self.failures,
                (ended - (self.since or ended)).total_seconds(),
            )
        alarmed = self.since is not None and (ended - self.since).total_seconds() > late_after()
        if alarmed and self.since is not None:
            self._alarm(self.since, ended)
        self.failures, self.since, self.waited, self.look = 0, None, 0, False
        self.last_sealing = ended
        return alarmed

    def _alarm(self, since: dt.datetime, ended: dt.datetime) -> None:
        payload = {
            "started_at": since.astimezone(dt.UTC).isoformat(),
            "ended_at": ended.astimezone(dt.UTC).isoformat(),
            "seconds": round((ended - since).total_seconds(), 1),
            "waited": self.waited,
            "failed_attempts": self.failures,
            "late_after": late_after(),
        }
        with transaction.atomic(using=self.using):
            record(
                actor=None,
                action=Action.SEALING_INTERRUPTED,
                object_type=SEALER_OBJECT,
                object_id="",
                payload=payload,
                using=self.using,
            )
        log.error(
            "audit sealer: sealing was interrupted from %s to %s (%d event(s) waited): alarm %s recorded",
            payload["started_at"],
            payload["ended_at"],
            self.waited,
            Action.SEALING_INTERRUPTED.value,
        )


def run_sealer(
    should_stop: Callable[[], bool],
    *,
    interval: float = SEALER_INTERVAL,
    limit: int = 5000,
    between_passes: Callable[[], None] | None = None,
    using: str | None = None,
) -> int:
    """Seal continuously until ``should_stop()``, then once more; return how many.

    One pass every ``interval`` seconds at most (a pass that found a full batch
    goes on at once): an event waits for at most one interval plus one pass, and
    under load each pass seals a batch, so the sealer's cost per event stays
    small (one transaction, one statement to read, one to write, per pass rather
    than per event). ``between_passes`` runs before each pass (the command closes
    stale connections there). The database lost, the sealer waits and tries again
    (:class:`SealerWatch`): it returns only when asked to stop.
    """
    total = 0
    using = using or router.db_for_write(AuditEvent)
    watch = SealerWatch(using)
    while not should_stop():
        started, started_at = time.monotonic(), timezone.now()
        try:
            if between_passes is not None:
                between_passes()
            # nothing committed to seal: no pass (an event committed after this look is taken
            # by the next pass, as by a pass that would have started now)
            sealed = 0
            if _any_pending(using):
                watch.before_pass()
                sealed = seal_pending(using=using, limit=limit)
            total += sealed
            if watch.passed(sealed, started=started, started_at=started_at):
                total += seal_pending(using=using, limit=limit)  # the alarm, sealed at once
        except CONNECTION_ERRORS as error:
            pause(watch.lost(error), should_stop)
            continue
        if sealed < limit:
            time.sleep(max(0.0, interval - (time.monotonic() - started)))
    try:
        return total + seal_pending(using=using, limit=limit)  # what was committed before the stop
    except CONNECTION_ERRORS as error:  # the next sealer (or beat's seal_chain) seals them
        log.warning("audit sealer: stopped without its last pass, the database lost: %s", error)
        return total
