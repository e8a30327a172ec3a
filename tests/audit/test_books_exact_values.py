"""The books check compares each row's values exactly, not by Python's ``hash()``.

``hash(n) == hash(n + 2**61 - 1)`` for an integer and ``hash(-1) == hash(-2)``: a bound key
moved by either must still be named, whichever way the books are compared (on the
connection, event by event, or for a row bound only by an event waiting to be sealed). The
foreign keys are moved in replica mode, where PostgreSQL does not check them, as a superuser
may.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.db import connection

from audit.books import BookCheck
from audit.chain import verify_chain
from audit.verification import verify
from cards_registry.models import Visa
from casino_ops import roles
from tables.models import AdvanceEntry
from tests.support import builders
from tests.support.guards import behind_the_guard
from tests.support.tampering import every_book_written

MERSENNE_61 = 2**61 - 1


def _event_by_event() -> list[str]:
    check = BookCheck()
    chain = verify_chain(books=check)
    assert chain.chain_ok
    return check.check()


def _user(pk: int, role: str) -> Any:
    user = User.objects.create(id=pk, username=f"u_{pk}")
    user.groups.add(Group.objects.get(name=role))
    if role == roles.OFFICER:  # an officer acts under the authority's enrolment
        builders.enrol_officer(user)
    return user


def scenario(users: dict[str, Any], capture: Any) -> dict[str, Any]:
    """The tamper test's scenario, its visas stamped by an officer whose key is -1."""
    users = dict(users, **{roles.OFFICER: _user(-1, roles.OFFICER)})
    return every_book_written(users, capture)


def _move_keys(found: dict[str, Any]) -> tuple[AdvanceEntry, Visa]:
    advance, visa = found["advance"], found["visa"]
    assert visa.officer_id == -1 and hash(-1) == hash(-2)
    far = advance.session_id + MERSENNE_61
    assert hash(far) == hash(advance.session_id)
    with behind_the_guard(AdvanceEntry, Visa), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("UPDATE tables_advanceentry SET session_id = %s WHERE id = %s", [far, advance.pk])
        cursor.execute("UPDATE cards_registry_visa SET officer_id = -2 WHERE id = %s", [visa.pk])
        cursor.execute("SET LOCAL session_replication_role = origin")
    return advance, visa


def _assert_both_named(problems: list[str], advance: AdvanceEntry, visa: Visa) -> None:
    far = advance.session_id + MERSENNE_61
    assert any(
        f"tables_advanceentry pk {advance.pk} field session" in p and f"found {far}" in p for p in problems
    ), problems
    assert any(
        f"cards_registry_visa pk {visa.pk} field officer" in p
        and "the chain says -1" in p
        and "found -2" in p
        for p in problems
    ), problems


@pytest.mark.django_db
def test_a_bound_key_moved_by_a_hash_collision_is_named_on_the_connection_and_event_by_event(
    users, casino, django_capture_on_commit_callbacks
):
    found = scenario(users, django_capture_on_commit_callbacks)
    assert verify().book_problems == _event_by_event() == []
    advance, visa = _move_keys(found)
    problems = verify().book_problems
    _assert_both_named(problems, advance, visa)
    assert _event_by_event() == problems


@pytest.mark.django_db
def test_a_bound_key_moved_by_a_hash_collision_is_named_while_its_event_waits_to_be_sealed(
    users, casino, settings, django_capture_on_commit_callbacks
):
    settings.AUDIT_SEALING = "sealer"
    found = scenario(users, django_capture_on_commit_callbacks)
    outcome = verify()
    assert outcome.chain.pending and outcome.book_problems == []
    advance, visa = _move_keys(found)
    _assert_both_named(verify().book_problems, advance, visa)
