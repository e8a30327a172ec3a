"""The people checks under the Luxembourg règlement (LU art. 10, 51, 54): a role or a name changed
outside the book of roles, incompatible roles, a superuser made in SQL, a line counted and signed
by one person. Each breach is planted behind the acts' back and named by ``inspect_books`` with
its LU article (their FR twins: test_book_of_roles.py, test_procedure_holds.py)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.utils import timezone

from casino_ops import roles
from house_books import services
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db


def _named(check: str, who: str = "") -> list[Any]:
    return [b for b in breaches_of(check) if b.object.startswith(who)]


def test_lu_a_role_given_in_sql_is_named_with_its_name_changed_and_the_clash(
    lu_casino: Any, director: Any, newcomer: Any
) -> None:
    services.grant_role(actor=director, person=newcomer, role=roles.CASHIER, reason="Engagée")
    assert not _named("people.role_without_act", "nouveau") and not _named("people.name_changed")
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO auth_user_groups (user_id, group_id) VALUES (%s, %s)",
            [newcomer.pk, Group.objects.get(name=roles.DIRECTOR).pk],
        )
        cursor.execute("UPDATE auth_user SET last_name = 'Marchal' WHERE id = %s", [newcomer.pk])
    [role] = _named("people.role_without_act", "nouveau")
    assert role.article == "LU art. 10, 51, 54" and "Directeur responsable" in role.detail
    [renamed] = _named("people.name_changed")
    assert (renamed.object, renamed.article) == ("nouveau (Anne Kremer)", "LU art. 10, 51, 54")
    assert "nouveau (Anne Marchal)" in renamed.detail
    [clash] = _named("people.incompatible_roles", "nouveau")
    assert clash.article == "LU art. 10, 51"


def test_lu_a_role_taken_away_in_sql_is_named(lu_casino: Any, director: Any, newcomer: Any) -> None:
    services.grant_role(actor=director, person=newcomer, role=roles.CASHIER, reason="Engagée")
    newcomer.groups.clear()
    [found] = _named("people.role_without_act", "nouveau")
    assert found.article == "LU art. 10, 51, 54" and "sans acte de retrait" in found.detail


def test_lu_a_superuser_made_in_sql_on_a_database_in_service_is_named(lu_casino: Any) -> None:
    assert not _named("people.superuser_unrecorded")
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, "
            "is_staff, is_active, date_joined) VALUES ('!', TRUE, 'root', '', '', '', TRUE, TRUE, %s)",
            [timezone.now()],
        )
    assert [(b.object, b.article) for b in _named("people.superuser_unrecorded")] == [
        ("root", "LU art. 10, 51, 54")
    ]


def test_lu_a_line_counted_and_signed_by_one_person_is_named(lu_casino: Any, users: dict[str, Any]) -> None:
    from tables import services as tables
    from tables.models import AdvanceEntry
    from tests.support import builders
    from tests.support.guards import behind_the_guard

    director = users[roles.DIRECTOR]
    table = tables.create_table(actor=director, number=3, code="BJ03")
    day = builders.gaming_day() - dt.timedelta(days=1)
    builders.shoe_for(table, day, director)
    with builders.at_day(day):
        session = tables.open_session(
            actor=director,
            table=table,
            day=day,
            minimum=Decimal("5.00"),
            maximum=Decimal("500.00"),
            advance_amount=Decimal("20000.00"),
            guarantee_fund=Decimal("25000.00"),
            croupier=users[roles.CROUPIER],
        )
    assert not _named("tables.counter_is_signer")
    with behind_the_guard(AdvanceEntry):
        AdvanceEntry.objects.filter(session=session).update(counted_by=director)
    [found] = _named("tables.counter_is_signer")
    assert found.article == "LU art. 10, 51" and "comptée et signée" in found.detail
