"""The audit record written and tampered with behind the application's back, as a PostgreSQL
superuser (and an attacker with the database's credentials) could: events recorded in bulk, the
record's and the checkpoints' guards lifted for one statement, the whole chain forged with its
hashes recomputed, and ``verify_audit`` run as the officer would."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal as D
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.db import connection, transaction

import audit
from audit.actions import Action
from audit.chain import GENESIS, event_bytes, event_hash, event_mac, format_time
from audit.models import AuditEvent
from cards_registry import services as depot
from cards_registry.models import Deck
from casino_ops import roles
from tables import services as floor
from tables.blackjack.simulator import simulate_shoe
from tables.models import ControlLine
from tests.support import builders
from tests.support.depot_helpers import issue_and_check
from tests.support.guards import restore_event_guard

#: The key of the table row that :func:`load_a_forged_table` writes: beyond any key the tables'
#: sequence gives in a run (a fixed small key was that of a table some act of the worker made).
FORGED_TABLE_PK = 10**9


def load_a_forged_table(folder: Path) -> None:
    """A table row written by ``loaddata`` (no act, no event), as a fixture file would."""
    fixture = folder / "forged.json"
    row = {
        "model": "tables.table",
        "pk": FORGED_TABLE_PK,
        "fields": {"number": 9, "code": "BJ09", "boxes": 7},
    }
    fixture.write_text(json.dumps([row]))
    call_command("loaddata", str(fixture), verbosity=0)


def as_superuser_without_guard(sql: str, params=None) -> None:
    """Tamper with the record behind the application's back, as tests must."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no deferred checks pending
        cursor.execute("ALTER TABLE audit_event DISABLE TRIGGER USER")
        try:
            cursor.execute(sql, params or [])
        finally:
            restore_event_guard(cursor)


def record_events(n: int, **payload: Any) -> list[AuditEvent]:
    """``n`` events in the casino's record, each carrying ``payload``."""
    return _recorded(n, lambda i: payload)


def record_numbered_events(n: int) -> list[AuditEvent]:
    """``n`` events in the casino's record, the ``i``-th carrying ``{"i": i}``."""
    return _recorded(n, lambda i: {"i": i})


def _recorded(n: int, payload: Any) -> list[AuditEvent]:
    with transaction.atomic():
        return [
            audit.record(
                actor=None,
                action=Action.TABLE_CREATED,
                object_type="test.thing",
                object_id=i,
                payload=payload(i),
            )
            for i in range(n)
        ]


def rewrite_whole_chain_with_recomputed_hashes(from_seq: int) -> None:
    """A superuser who also holds the application's key (AUDIT_EVENT_KEY) forges
    event ``from_seq`` and recomputes its MAC and every hash after it."""
    events = list(AuditEvent.objects.order_by("seq"))
    prev = GENESIS
    updates = []
    for e in events:
        payload = '{"forged":true}' if e.seq == from_seq else e.payload
        mac = event_mac(
            event_bytes(
                recorded_at=format_time(e.recorded_at),
                actor_name=e.actor_name,
                action=e.action,
                object_type=e.object_type,
                object_id=e.object_id,
                payload=payload,
            )
        )
        digest = event_hash(
            prev_hash=prev,
            seq=e.seq,
            recorded_at=format_time(e.recorded_at),
            actor_name=e.actor_name,
            action=e.action,
            object_type=e.object_type,
            object_id=e.object_id,
            payload=payload,
        )
        updates.append((payload, mac, prev, digest, e.seq))
        prev = digest
    sql = "; ".join(
        "UPDATE audit_event SET payload = %s, mac = %s, prev_hash = %s, hash = %s WHERE seq = %s"
        for _ in updates
    )
    as_superuser_without_guard(sql, [v for u in updates for v in u])


def rewrite_and_re_sign(from_seq: int) -> None:
    """The attacker holds the database and the application's keys: the events from ``from_seq``
    rewritten with every hash recomputed, the checkpoints and the Merkle nodes replaced by a new
    checkpoint signed with the casino's key."""
    from audit.checkpoints import make_checkpoint

    rewrite_whole_chain_with_recomputed_hashes(from_seq=from_seq)
    checkpoints_and_merkle_nodes_deleted()
    make_checkpoint()


def checkpoints_and_merkle_nodes_deleted() -> None:
    """The attacker deletes every checkpoint and every node of the Merkle tree, past their guards."""
    checkpoints_as_superuser_without_guard("DELETE FROM audit_checkpoint")
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE audit_merkle_node DISABLE TRIGGER USER")
        cursor.execute("DELETE FROM audit_merkle_node")
        cursor.execute("ALTER TABLE audit_merkle_node ENABLE ALWAYS TRIGGER audit_merkle_node_guard_rows")


def kept_checkpoint(events: int, folder: Path, name: str = "kept.json") -> Path:
    """``events`` events recorded and a checkpoint made of them, which the officer keeps: the
    file ``audit_proof`` writes beside a first inclusion proof, in ``folder``."""
    from audit.checkpoints import make_checkpoint

    record_events(events)
    make_checkpoint()
    kept = folder / name
    call_command("audit_proof", "1", "--output", str(folder / "p.json"), "--checkpoint-file", str(kept))
    return kept


def checkpoints_as_superuser_without_guard(sql: str, params: Any = None) -> None:
    """Tamper with the checkpoints behind the application's back (a superuser lifts the guard)."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE audit_checkpoint DISABLE TRIGGER USER")
        try:
            cursor.execute(sql, params or [])
        finally:
            cursor.execute("ALTER TABLE audit_checkpoint ENABLE ALWAYS TRIGGER audit_checkpoint_guard_rows")
            cursor.execute(
                "ALTER TABLE audit_checkpoint ENABLE ALWAYS TRIGGER audit_checkpoint_guard_truncate"
            )


def every_book_written(users: dict[str, Any], capture: Any) -> dict[str, Any]:
    """Every book written through the services: the depot from order to table, a session with
    its advances, a shoe, a hand log and its replay, the closing and the control register."""
    director, officer = users[roles.DIRECTOR], users[roles.OFFICER]
    croupier = users[roles.CROUPIER]
    today = builders.gaming_day()
    reception = builders.depot_with_decks(director, officer, day=today, delivery_note="BL 1").reception
    visa = depot.stamp_reception(actor=officer, reception=reception, remark="vu")
    table = floor.create_table(actor=director, number=3, code="BJ03")
    session = floor.open_session(
        actor=director,
        table=table,
        day=today,
        minimum=D("10.00"),
        maximum=D("1000.00"),
        advance_amount=D("30000.00"),
        croupier=croupier,
    )
    advance = floor.add_advance(actor=director, session=session, amount=D("30000.00"), counted_by=croupier)
    a1 = list(Deck.objects.filter(serial__startswith="A1-").order_by("serial"))
    issue_and_check(director=director, croupier=croupier, table_number=3, day=today, decks=a1)
    shoe = floor.fill_shoe(actor=croupier, session=session, deck_ids=[d.pk for d in a1])
    log = simulate_shoe(1, "FR", table="BJ03", shoe_id=shoe.label, limits=("10.00", "1000.00"))
    with capture(execute=True):
        hand_log = floor.upload_hand_log(
            actor=croupier, session=session, raw=json.dumps(log).encode(), source="api"
        )
    # the decks come back before the session closes (FR art. 40 §5)
    depot.return_decks(actor=director, table_number=3, day=today, results=[(d, "fit", "", 52) for d in a1])
    floor.close_session(
        actor=director,
        session=session,
        closing_cash=D("61000.00"),
        counted_by=croupier,
        certified_exact=True,
    )
    with builders.at_day(today + dt.timedelta(days=1), 1):  # after midnight: the day has ended
        floor.close_day(actor=director, day=today)
    return {
        "reception": reception,
        "visa": visa,
        "advance": advance,
        "deck": a1[0],
        "hand_log": hand_log,
        "control_line": ControlLine.objects.get(),
        "session": session,
    }


def run_verify_audit(capsys: Any, *args: str) -> tuple[int, str, str]:
    """``verify_audit`` with ``args``, as the officer runs it: its exit code and what it wrote
    (only it: what was written before is read away first)."""
    capsys.readouterr()
    try:
        call_command("verify_audit", *args)
    except SystemExit as exit_info:
        code = int(exit_info.code or 0)
    else:
        code = 0
    out, err = capsys.readouterr()
    return code, out, err


def tamper_books(sql: str, params: list[Any], *tables: str) -> None:
    """Tamper with a book behind the application's back: lift its guard, write, restore it."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        for table in tables:
            cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        try:
            cursor.execute(sql, params)
        finally:
            for table in tables:
                cursor.execute(f"ALTER TABLE {table} ENABLE ALWAYS TRIGGER {table}_guard_rows")
                cursor.execute(f"ALTER TABLE {table} ENABLE ALWAYS TRIGGER {table}_guard_truncate")
