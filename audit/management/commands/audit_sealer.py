"""Seal audit events into the chain just after their commit (AUDIT_SEALING=sealer)."""

from __future__ import annotations

import signal
from typing import Any

from django.core.management.base import BaseCommand
from django.db import close_old_connections

from audit.chain import run_sealer, seal_pending
from audit.chain.seal import SEALER_INTERVAL


class Command(BaseCommand):
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

    def handle(self, *args: Any, **options: Any) -> None:
        interval: float = options["interval"]
        if options["once"]:
            self.stdout.write(f"sealed {seal_pending()} event(s)")
            return
        stopping = False

        def stop(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        run_sealer(lambda: stopping, interval=interval, between_passes=close_old_connections)
