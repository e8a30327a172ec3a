"""The heartbeat of a process making a print: a sign of life on the report's (or the part's) row.

While a process holds a report (planning it, assembling it) or one of its parts (laying it
out), it touches the row's ``heartbeat_at`` every ``REPORT_HEARTBEAT_EVERY`` seconds from a
thread of its own (a WeasyPrint layout can take longer than the staleness, and holds no
boundary where the main thread could beat), and clears it when it lets go. A heartbeat
left behind and older than ``REPORT_HEARTBEAT_STALE_AFTER`` is thus a process that died
holding it: :func:`inspection.registers.reports.recover_stale` resumes its report.

The thread writes with its own database connection; it is not started inside a
transaction (what the caller has not committed, another connection cannot touch: the
heartbeat written at the start, in the caller's connection, is all there is then), nor on
SQLite (the quick start makes its prints in-process, one at a time).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone

from inspection.models import Report, ReportPart

Row = type[Report] | type[ReportPart]

_guard = threading.Lock()
#: (model, pk) -> (how many contexts of this process hold it, its beating thread)
_held: dict[tuple[Row, int], tuple[int, _Beat | None]] = {}


class _Beat(threading.Thread):
    """Touches one row's heartbeat every ``every`` seconds until stopped."""

    def __init__(self, model: Row, pk: int, every: float) -> None:
        super().__init__(name=f"heartbeat-{model._meta.model_name}-{pk}", daemon=True)
        self.model, self.pk, self.every = model, pk, every
        self._stopped = threading.Event()

    def run(self) -> None:
        from django.db import connection as own  # this thread's connection

        try:
            while not self._stopped.wait(self.every):
                try:
                    self.model.objects.filter(pk=self.pk).update(heartbeat_at=timezone.now())
                except DatabaseError:  # the next beat tries again on a new connection
                    own.close()
        finally:
            own.close()

    def stop(self) -> None:
        self._stopped.set()
        self.join(timeout=self.every + 30)  # an update waiting on the row's lock ends with it


def _touch(model: Row, pk: int, value: object) -> None:
    with contextlib.suppress(DatabaseError):  # a broken connection: the recovery's locks decide
        model.objects.filter(pk=pk).update(heartbeat_at=value)


@contextlib.contextmanager
def beating(model: Row, pk: int) -> Iterator[None]:
    """Beat the row's heartbeat while the block runs; contexts of one process on the same row
    (the assembly inside its maker) share one heartbeat, cleared when the last lets go."""
    key = (model, pk)
    with _guard:
        count, beat = _held.get(key, (0, None))
        if count == 0:
            _touch(model, pk, timezone.now())
            if connection.vendor == "postgresql" and not connection.in_atomic_block:
                beat = _Beat(model, pk, float(settings.REPORT_HEARTBEAT_EVERY))
                beat.start()
        _held[key] = (count + 1, beat)
    try:
        yield
    finally:
        with _guard:
            count, beat = _held[key]
            if count > 1:
                _held[key] = (count - 1, beat)
                beat = None
                last = False
            else:
                del _held[key]
                last = True
        if last:
            if beat is not None:
                beat.stop()
            _touch(model, pk, None)
