"""Seal audit events into the chain just after their commit (AUDIT_SEALING=sealer).

The database lost (a restart, the connection cut), the sealer logs each attempt and tries again
with a back-off, never exiting; an interruption longer than AUDIT_SEALING_LATE_AFTER is sealed as
the alarm event ``audit.sealing_interrupted`` once it can write (audit.chain.sealer)."""

from __future__ import annotations

import logging
import signal
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import close_old_connections

from audit.chain import head, run_sealer, seal_pending
from audit.chain.seal import SEALER_INTERVAL
from audit.chain.sealer import CONNECTION_ERRORS
from audit.checkpoints import witness_head
from casino_ops.commands import Writes

log = logging.getLogger(__name__)


def head_witnessing(every: float, *, close_connections: bool = True) -> Callable[[], None]:
    """Before each pass: stale connections closed, and the sealed head written to the witness
    when it moved and ``every`` seconds have passed since the last (the window in which the
    newest acts could be removed whole unseen; verify_audit prints it)."""
    last: dict[str, Any] = {"at": None, "seq": 0}

    def between_passes() -> None:
        if close_connections:
            close_old_connections()
        now = time.monotonic()
        if last["at"] is not None and now - last["at"] < every:
            return
        try:
            seq, _digest = head()
            if seq != last["seq"]:
                witness_head()
                last["seq"] = seq
            last["at"] = now
        except CONNECTION_ERRORS:  # the database lost: run_sealer reconnects (and logs it)
            raise
        except Exception:  # the witness unreachable: sealing goes on, retried next pass
            log.exception("the chain's head could not be written to the witness")

    return between_passes


class Command(BaseCommand):
    writes = Writes.RECORD
    help = "Run the audit sealer: seal committed events in order, polling every --interval seconds."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--interval",
            type=float,
            default=SEALER_INTERVAL,
            help=f"seconds between the starts of two passes, about the longest an event waits "
            f"(default {SEALER_INTERVAL})",
        )
        parser.add_argument("--once", action="store_true", help="one pass, then exit")
        parser.add_argument(
            "--witness-every",
            type=float,
            default=getattr(settings, "AUDIT_HEAD_WITNESS_EVERY", 10),
            help="seconds between two writes of the sealed head to the witness (AUDIT_HEAD_WITNESS_EVERY, "
            "default 10)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        interval: float = options["interval"]
        if options["once"]:
            self.stdout.write(f"sealed {seal_pending()} event(s)")
            witness_head()
            return
        stopping = False

        def stop(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        run_sealer(
            lambda: stopping, interval=interval, between_passes=head_witnessing(options["witness_every"])
        )
        try:
            witness_head()  # the head the last pass reached
        except CONNECTION_ERRORS as error:
            log.warning(
                "audit sealer: the last head not written to the witness, the database lost: %s", error
            )
