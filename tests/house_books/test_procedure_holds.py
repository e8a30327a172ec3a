"""The procedure holds against whoever runs the system: a superuser holds no regulated act and
logs in with the second factor, and none is made on a database in service outside DEBUG; the
regulation profile is fixed once the books hold an act; seed_demo refuses a database holding
acts; the clock never runs backwards in the chain."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from audit.actions import Action
from audit.models import AuditEvent
from casino_ops import roles
from house_books import services
from tests.support.builders import assert_refused
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db


# -- the superuser ---------------------------------------------------------------------------


def test_a_superuser_holds_no_regulated_act(casino: Any, newcomer: Any, settings: Any) -> None:
    from casino_ops import access
    from casino_ops.access import Act

    settings.DEBUG = True
    root = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-123456")
    assert not [act for act in Act if access.may(root, act)]
    with assert_refused("ROLES_BY_DIRECTOR", nothing_recorded=True):
        services.grant_role(actor=root, person=newcomer, role=roles.CROUPIER, reason="x")


def test_a_superuser_logs_in_with_the_second_factor(client: Any, db: None, settings: Any) -> None:
    settings.TWO_FACTOR_REQUIRED = True
    root = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-123456")
    client.force_login(root)
    response = client.get("/admin/")
    assert response.status_code == 302 and "/inspection/" in response["Location"]


def test_createsuperuser_on_a_database_in_service(casino: Any, settings: Any) -> None:
    from django.core.management import CommandError, call_command

    settings.DEBUG = False
    with pytest.raises(CommandError) as refused:
        call_command("createsuperuser", "--noinput", username="root", email="root@example.org")
    assert refused.value.code == "SUPERUSER_IN_SERVICE" and refused.value.article == "FR art. 68, 69"
    assert not get_user_model().objects.filter(username="root").exists()
    settings.DEBUG = True
    call_command("createsuperuser", "--noinput", username="root", email="root@example.org")
    event = AuditEvent.objects.get(action=Action.HOUSE_SUPERUSER_CREATED)
    assert event.actor_name == "system" and '"root"' in event.payload


def test_createsuperuser_on_a_new_database_is_free(db: None, settings: Any) -> None:
    from django.core.management import call_command

    settings.DEBUG = False
    call_command("createsuperuser", "--noinput", username="root", email="root@example.org")
    assert get_user_model().objects.filter(username="root", is_superuser=True).exists()
    assert not AuditEvent.objects.exists()


def test_check_deploy_names_the_superusers(db: None) -> None:
    from django.core import checks

    get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-123456")
    found = [m for m in checks.run_checks(include_deployment_checks=True) if m.id == "house_books.W001"]
    assert len(found) == 1 and "root" in found[0].msg and "second factor" in found[0].msg


# -- the regulation profile --------------------------------------------------------------------


def test_the_profile_is_fixed_once_the_books_hold_an_act(director: Any, casino: Any) -> None:
    from tables.services import create_table

    # before any book's act, the director may still choose the regulation
    services.update_casino_settings(actor=director, profile="LU")
    services.update_casino_settings(actor=director, profile="FR")
    create_table(actor=director, number=3, code="BJ03")
    with assert_refused("PROFILE_FIXED", article="FR art. 68", field="profile", nothing_recorded=True):
        services.update_casino_settings(actor=director, profile="LU")
    services.update_casino_settings(actor=director, name="Casino du Lac")  # the other settings move


# -- rows written behind the acts' back --------------------------------------------------------


def test_a_book_row_loaded_by_loaddata_is_named_by_inspect_books(
    director: Any, casino: Any, tmp_path: Any
) -> None:
    """A forged book row loaded by ``loaddata`` (no act, no event) is named by inspect_books the
    same day, with its article, not only by verify_audit."""
    import json

    from django.core.management import call_command

    from tables.services import create_table

    table = create_table(actor=director, number=3, code="BJ03")
    assert not breaches_of("audit.books_bound")
    fixture = tmp_path / "forged.json"
    # a key no row holds (the sequence is not rolled back between tests: a fixed key may be taken)
    forged = table.pk + 1000
    fixture.write_text(
        json.dumps(
            [{"model": "tables.table", "pk": forged, "fields": {"number": 9, "code": "BJ09", "boxes": 7}}]
        )
    )
    call_command("loaddata", str(fixture), verbosity=0)
    found = breaches_of("audit.books_bound")
    assert [(b.article, "no event of the chain created this row" in b.detail) for b in found] == [
        ("FR art. 68", True)
    ]


# -- the clock ---------------------------------------------------------------------------------


def test_an_event_recorded_when_the_clock_ran_backwards_is_named(director: Any, casino: Any) -> None:
    """verify_audit checks the events' time order; inspect_books names it with its article."""
    import datetime as dt

    import time_machine
    from django.core.management import call_command
    from django.utils import timezone

    from audit.verification import verify
    from tables.services import create_table

    create_table(actor=director, number=3, code="BJ03")
    assert verify().chain.ok
    # a few seconds back (two writers a moment apart) is no breach
    with time_machine.travel(timezone.now() - dt.timedelta(seconds=5), tick=False):
        create_table(actor=director, number=4, code="BJ04")
    assert verify().chain.clock_problems == []
    with time_machine.travel(timezone.now() - dt.timedelta(days=2), tick=False):
        create_table(actor=director, number=5, code="BJ05")
    problems = verify().chain.clock_problems
    assert len(problems) == 1 and "the clock ran backwards" in problems[0]
    found = breaches_of("audit.books_bound")
    assert [b.article for b in found] == ["FR art. 68"] and "clock ran backwards" in found[0].detail
    with pytest.raises(SystemExit):
        call_command("verify_audit", "--no-witness")


def test_a_superuser_made_in_sql_on_a_database_in_service_is_named(casino: Any) -> None:
    from django.db import connection
    from django.utils import timezone

    assert not breaches_of("people.superuser_unrecorded")
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, "
            "is_staff, is_active, date_joined) VALUES ('!', TRUE, 'root', '', '', '', TRUE, TRUE, %s)",
            [timezone.now()],
        )
    found = breaches_of("people.superuser_unrecorded")
    assert [(b.object, b.article) for b in found] == [("root", "FR art. 68, 69")]


def test_a_line_counted_and_signed_by_one_person_is_named(users: dict[str, Any], casino: Any) -> None:
    """A line whose counter was set to its signer behind the acts' back (FR art. 69)."""
    from tables.models import AdvanceEntry
    from tables.services import create_table
    from tests.support import builders
    from tests.support.guards import behind_the_guard

    director = users[roles.DIRECTOR]
    table = create_table(actor=director, number=3, code="BJ03")
    session = builders.open_session(
        table, director=director, croupier=users[roles.CROUPIER], day=builders.gaming_day()
    )
    assert not breaches_of("tables.counter_is_signer")
    with behind_the_guard(AdvanceEntry):
        AdvanceEntry.objects.filter(session=session).update(counted_by=director)
    found = breaches_of("tables.counter_is_signer")
    assert [b.article for b in found] == ["FR art. 69"] and "comptée et signée" in found[0].detail
