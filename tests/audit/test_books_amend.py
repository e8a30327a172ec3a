"""The books survive schema changes: a migration that adds a regulated field to a book, or
renames one, binds the rows written before anew (audit.books.amend), after checking each
against the chain; verification then passes on a database holding a month of acts (the LU
demo), and a row tampered with before the migration still refuses it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from django.db import connection, transaction

from audit.books import BookNotVouched, amend_book, amend_operations, book_for
from audit.books import registry as book_registry
from audit.books.amend import _book
from audit.models import AuditEvent
from tables.models import Session
from tests.support.tampering import run_verify_audit, tamper_books

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

TABLE = "tables_session"


@pytest.fixture
def month_of_acts(lu_demo: Any, capsys: Any) -> list[tuple[str, str, str]]:
    """The LU demo (a month of séances), verified clean; the séances' book as declared now."""
    code, _out, err = run_verify_audit(capsys)
    assert code == 0, err
    assert Session.objects.count() > 30
    book = book_for(TABLE)
    assert book is not None
    return list(zip(book.fields, book.columns, book.kinds, strict=True))


def _alter(sql: str) -> None:
    """The migration's schema change (the test's transaction holds the demo, uncommitted)."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # deferred checks pending forbid ALTER
        cursor.execute(sql)


@pytest.fixture
def declare() -> Iterator[Callable[[list[tuple[str, str, str]]], None]]:
    """The séances' book as the new code declares it (what the migration's app version would),
    for the test's length."""
    with ExitStack() as stack:

        def declared(fields: list[tuple[str, str, str]]) -> None:
            book = _book(TABLE, "id", fields)
            object.__setattr__(book, "model", Session)
            stack.enter_context(book_registry.BOOKS.temporarily(TABLE, book))

        yield declared


def test_a_field_added_to_a_book_binds_the_rows_written_before(month_of_acts, declare, capsys):
    before = month_of_acts
    _alter(f"ALTER TABLE {TABLE} ADD COLUMN screen_note varchar(50) NOT NULL DEFAULT 'néant'")
    after = [*before, ("screen_note", "screen_note", "value")]
    declare(after)
    code, _out, err = run_verify_audit(capsys)
    assert code == 1 and f"BOOK: {TABLE} pk" in err  # without the amendment, every row differs
    operation = amend_operations(table=TABLE, pk="id", before=before, after=after, reason="note d'écran")
    with connection.schema_editor(atomic=True) as editor:
        operation.code(None, editor)
    code, _out, err = run_verify_audit(capsys)
    assert code == 0, err
    events = AuditEvent.objects.filter(action="book.amended", object_id=TABLE)
    assert events.exists() and all(e.actor_id is None for e in events)
    # from now on the new column is bound: changing it behind the application is named
    pk = Session.objects.order_by("pk").values_list("pk", flat=True).first()
    tamper_books(f"UPDATE {TABLE} SET screen_note = 'autre' WHERE id = %s", [pk], TABLE)
    code, _out, err = run_verify_audit(capsys)
    assert code == 1 and f"BOOK: {TABLE} pk {pk} field screen_note" in err


def test_a_renamed_field_binds_the_rows_under_their_new_name(month_of_acts, declare, capsys):
    before_now = month_of_acts
    old, new = "ministry_notice_reference", "notice_reference"
    _alter(f'ALTER TABLE {TABLE} RENAME COLUMN "{old}" TO "{new}"')
    # before: the old name, read from the renamed column; after: the new name
    before = [(name, new if name == old else column, kind) for name, column, kind in before_now]
    after = [
        (new if name == old else name, new if name == old else column, kind)
        for name, column, kind in before_now
    ]
    declare(after)
    code, _out, _err = run_verify_audit(capsys)
    assert code == 1
    count = amend_book(table=TABLE, pk="id", before=before, after=after, renamed={old: new})
    assert count == Session.objects.count()
    code, _out, err = run_verify_audit(capsys)
    assert code == 0, err


def test_a_row_tampered_with_before_the_migration_refuses_the_amendment(month_of_acts, declare, capsys):
    before = month_of_acts
    pk = Session.objects.order_by("pk").values_list("pk", flat=True).first()
    tamper_books(f"UPDATE {TABLE} SET minimum = minimum + 1 WHERE id = %s", [pk], TABLE)
    _alter(f"ALTER TABLE {TABLE} ADD COLUMN screen_note varchar(50) NOT NULL DEFAULT 'néant'")
    after = [*before, ("screen_note", "screen_note", "value")]
    with pytest.raises(BookNotVouched) as refused, transaction.atomic():
        amend_book(table=TABLE, pk="id", before=before, after=after)
    assert f"{TABLE} pk {pk}: differs from event #" in str(refused.value)
    assert not AuditEvent.objects.filter(action="book.amended").exists()
    declare(before)
    code, _out, err = run_verify_audit(capsys)
    assert code == 1 and f"BOOK: {TABLE} pk {pk} field minimum" in err
