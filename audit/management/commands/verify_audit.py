"""Recompute the whole audit chain (hashes and MACs), report forged events, and check
the signed checkpoints in the database and in the witness outside it; then the regulated
books against what the chain says they hold (audit.books). Exit 0 when all hold, 1 at the
first break, at any forged event, at any checkpoint (stored or witnessed) the database no
longer matches, or at any row of a book that differs from the chain, that no event
created, or that an event created and is gone; and without a witness unless ``--no-witness``
says so (the result then says it too)."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from audit.chain.verify import id_gaps
from audit.checkpoints import check_export
from audit.verification import verify
from audit.witness_times import check as check_times
from casino_ops.commands import Writes
from casino_ops.regulations import RegulationError


class Command(BaseCommand):
    writes = Writes.NOTHING
    help = "Recompute the audit record's hash chain and report its head or its first break."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--merkle",
            action="store_true",
            help="also rebuild the Merkle tree (RFC 9162): every checkpoint's signed tree head, "
            "stored and witnessed, and the stored subtree hashes proofs are made from",
        )
        parser.add_argument(
            "--no-witness",
            action="store_true",
            help="verify without a witness (AUDIT_WITNESS_DIR, AUDIT_WITNESS_STORAGE): the result then "
            "says so; without this option and without a witness the command exits 1",
        )
        parser.add_argument(
            "--against",
            type=Path,
            help="also check the chain against an exported checkpoints file kept outside the casino",
        )

    def _problems(self, *kinds: tuple[str, list[str]]) -> None:
        for label, problems in kinds:
            for problem in problems:
                self.stderr.write(f"{label}: {problem}")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        outcome = verify(merkle=True if options.get("merkle") else None, parallel=True)
        result, book_problems = outcome.chain, outcome.book_problems
        elapsed = time.perf_counter() - started
        exported_problems: list[str] = []
        if options.get("against"):
            try:
                count, exported_problems = check_export(options["against"].read_bytes())
            except (OSError, RegulationError) as error:
                raise CommandError(f"{options['against']}: {error}") from error
            if not exported_problems:
                self.stdout.write(f"OK: {count} exported checkpoint(s) match the chain")
        if result.pending:
            self.stdout.write(
                f"{result.pending} event(s) waiting to be sealed, the oldest recorded at "
                f"{result.oldest_pending:%Y-%m-%d %H:%M:%S %Z}"
            )
        self._problems(
            ("FORGED", result.forged),
            ("CHECKPOINT FAILED", result.checkpoint_problems + exported_problems),
            ("BOOK", book_problems),
            ("CLOCK", result.clock_problems),
            ("OFFICER", outcome.officer_problems),
            ("TIME", (times := check_times()).problems),
        )
        for gap in id_gaps():
            self.stdout.write(f"ID GAP: {gap}")
        if result.witness and result.chain_ok:
            self.stdout.write(_window(result))
        no_witness = not result.witness and not options.get("no_witness")
        if no_witness:
            self.stderr.write(
                "NO WITNESS: AUDIT_WITNESS_DIR and AUDIT_WITNESS_STORAGE are unset, so a chain rewritten "
                "and signed again with the application's keys cannot be told from the real one; "
                "configure the witness, or give --no-witness to check against the database alone"
            )
        elapsed = time.perf_counter() - started
        if outcome.ok and not exported_problems and not no_witness and not times.problems:
            checked = _summary(result, outcome, times)
            self.stdout.write(
                f"OK: {result.events} events, head #{result.head_seq} {result.head_hash}{checked} "
                f"({elapsed:.2f} s)"
            )
            return
        if not result.chain_ok:
            self.stderr.write(
                f"BROKEN at event #{result.broken_at}: {result.reason} "
                f"({result.events} events verified before it)"
            )
        raise SystemExit(1)


def _summary(result: Any, outcome: Any, times: Any) -> str:
    """What held, after "OK: N events, head …"."""
    checked = f", {result.checkpoints} signed checkpoint(s) hold" if result.checkpoints else ""
    if result.witness:
        checked += f", {result.witnessed} witnessed in {result.witness}"
    else:
        checked += ", no witness (--no-witness): checkpoints checked against the database only"
    if result.tree_checked:
        checked += ", Merkle tree heads and stored subtrees hold"
    checked += f", {outcome.rows_checked} rows of the books match the chain"
    if outcome.officer_acts is not None:
        checked += f", {outcome.officer_acts.checked} officers' acts signed by their enrolled passkeys"
    if times.last is not None:
        checked += (
            f", {times.cosigned} checkpoint(s) cosigned per the policy, every event's time within the "
            f"witnesses' (the last cosigned: size {times.last[0]} at {times.last[1]:%Y-%m-%d %H:%M:%S} UTC)"
        )
    return checked


def _window(result: Any) -> str:
    """What could be removed whole unseen: the events after the highest witnessed sequence."""
    if result.witnessed_seq is None:
        return (
            f"WINDOW: all {result.head_seq} event(s): the witness vouches for none yet "
            "(no checkpoint nor head witnessed)"
        )
    after = max(0, result.head_seq - result.witnessed_seq)
    age = ""
    try:
        at = dt.datetime.strptime(result.witnessed_at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=dt.UTC)
        age = f", {(dt.datetime.now(dt.UTC) - at).total_seconds():.0f} s ago"
    except ValueError:
        pass
    return (
        f"WINDOW: {after} event(s) after the last witnessed head #{result.witnessed_seq} "
        f"(witnessed at {result.witnessed_at}{age}) could be removed whole unseen"
    )
