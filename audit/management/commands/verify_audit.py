"""Recompute the whole audit chain. Exit 0 when it holds, 1 at the first break."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from audit.chain import verify_chain


class Command(BaseCommand):
    help = "Recompute the audit record's hash chain and report its head or its first break."

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        result = verify_chain()
        elapsed = time.perf_counter() - started
        if result.pending:
            self.stdout.write(
                f"{result.pending} event(s) waiting to be sealed, the oldest recorded at "
                f"{result.oldest_pending:%Y-%m-%d %H:%M:%S %Z}"
            )
        if result.ok:
            self.stdout.write(
                f"OK: {result.events} events, head #{result.head_seq} {result.head_hash} "
                f"({elapsed:.2f} s)"
            )
            return
        self.stderr.write(
            f"BROKEN at event #{result.broken_at}: {result.reason} "
            f"({result.events} events verified before it)"
        )
        raise SystemExit(1)
