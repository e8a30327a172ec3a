"""Compare each log's checkpoint at the peer witnesses (WITNESS_PEERS) with what this witness
cosigned: a split view is kept and printed (exit 1)."""

from typing import Any

from django.core.management.base import BaseCommand

from witness.peers import compare_all


class Command(BaseCommand):
    help = "Detect split views: each log's checkpoint at the peer witnesses against what this one cosigned."

    def handle(self, *args: Any, **options: Any) -> None:
        split = False
        for found in compare_all():
            self.stdout.write(f"{found.peer} {found.origin}: {found.outcome}\n")
            split = split or found.outcome == "split"
        if split:
            raise SystemExit(1)
