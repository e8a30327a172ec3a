"""The book of roles (FR art. 68, 69; LU art. 10, 51, 54): a role is given and taken back only by
the director's act, recorded with who gave what to whom and why, read by the officers; the
officer's role is never the casino's to give; no one holds incompatible roles; a role or a name
changed in the admin's user page or in SQL is named by the self-inspection."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection

from audit.actions import Action
from audit.models import AuditEvent
from casino_ops import roles
from house_books import selectors, services
from house_books.models import RoleEntry
from tests.support.builders import assert_refused
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db


def _named(check: str) -> list[Any]:
    return breaches_of(check)


def test_a_role_is_given_by_the_directors_act_and_recorded(director: Any, casino: Any, newcomer: Any) -> None:
    entry = services.grant_role(actor=director, person=newcomer, role=roles.CROUPIER, reason="Engagée le 1er")
    assert roles.has_role(newcomer, roles.CROUPIER)
    assert (entry.kind, entry.role, entry.person_name, entry.recorded_by) == (
        "grant",
        roles.CROUPIER,
        "nouveau (Anne Kremer)",
        director,
    )
    event = AuditEvent.objects.filter(action=Action.HOUSE_ROLE_GRANTED).get()
    assert event.actor_name == director.username and "Engagée le 1er" in event.payload
    assert not [b for b in _named("people.role_without_act") if b.object.startswith("nouveau")]

    services.withdraw_role(actor=director, person=newcomer, role=roles.CROUPIER, reason="Départ")
    newcomer = get_user_model().objects.get(pk=newcomer.pk)
    assert not roles.has_role(newcomer, roles.CROUPIER)
    assert AuditEvent.objects.filter(action=Action.HOUSE_ROLE_WITHDRAWN).count() == 1
    assert list(RoleEntry.objects.values_list("kind", flat=True)) == ["grant", "withdrawal"]


def test_only_the_director_gives_roles(users: dict[str, Any], casino: Any, newcomer: Any) -> None:
    with assert_refused("ROLES_BY_DIRECTOR", article="FR art. 68, 69", nothing_recorded=True):
        services.grant_role(actor=users[roles.COMMITTEE], person=newcomer, role=roles.CROUPIER, reason="x")


def test_no_casino_act_gives_or_takes_the_officers_role(
    director: Any, casino: Any, newcomer: Any, officer: Any
) -> None:
    with assert_refused(
        "OFFICER_BY_AUTHORITY_ONLY", article="FR art. 39", field="role", nothing_recorded=True
    ):
        services.grant_role(actor=director, person=newcomer, role=roles.OFFICER, reason="contrôleur")
    with assert_refused("OFFICER_BY_AUTHORITY_ONLY", article="FR art. 39", field="role"):
        services.withdraw_role(actor=director, person=officer, role=roles.OFFICER, reason="gêne")
    assert not roles.has_role(newcomer, roles.OFFICER)


def test_incompatible_roles_are_refused(users: dict[str, Any], casino: Any) -> None:
    director = users[roles.DIRECTOR]
    # an officer is never casino staff
    with assert_refused("ROLES_INCOMPATIBLE", article="FR art. 39", field="role"):
        services.grant_role(actor=director, person=users[roles.OFFICER], role=roles.COMMITTEE, reason="x")
    # a committee member signs: he never counts as croupier (LU art. 51 V, FR art. 69)
    with assert_refused("ROLES_INCOMPATIBLE", article="FR art. 69", field="role"):
        services.grant_role(actor=director, person=users[roles.COMMITTEE], role=roles.CROUPIER, reason="x")
    with assert_refused("ROLES_INCOMPATIBLE", article="FR art. 69", field="role"):
        services.grant_role(actor=director, person=users[roles.CROUPIER], role=roles.CASHIER, reason="x")
    # nor does anyone give himself a role
    with assert_refused("ROLE_SELF_GRANT", field="person"):
        services.grant_role(actor=director, person=director, role=roles.CROUPIER, reason="x")
    with assert_refused("ROLE_NOT_HELD", field="role"):
        services.withdraw_role(actor=director, person=users[roles.CASHIER], role=roles.CROUPIER, reason="x")
    with assert_refused("FIELD_REQUIRED", field="reason"):
        services.grant_role(actor=director, person=users[roles.CASHIER], role=roles.MACHINE, reason="  ")


def test_the_first_director_is_named_once(newcomer: Any) -> None:
    services.appoint_first_director(person=newcomer, reason="Installation")
    assert roles.has_role(newcomer, roles.DIRECTOR)
    event = AuditEvent.objects.get(action=Action.HOUSE_ROLE_GRANTED)
    assert event.actor_name == "system"
    other = get_user_model().objects.create_user(username="autre")
    with assert_refused("FIRST_DIRECTOR_ALREADY_NAMED", nothing_recorded=True):
        services.appoint_first_director(person=other, reason="coup de force")


def test_a_role_or_a_name_changed_in_sql_is_named(director: Any, casino: Any, newcomer: Any) -> None:
    services.grant_role(actor=director, person=newcomer, role=roles.CASHIER, reason="Engagée")
    assert not [b for b in _named("people.role_without_act") if b.object.startswith("nouveau")]
    # someone adds the newcomer to the directors by SQL
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO auth_user_groups (user_id, group_id) VALUES (%s, %s)",
            [newcomer.pk, Group.objects.get(name=roles.DIRECTOR).pk],
        )
        cursor.execute("UPDATE auth_user SET last_name = 'Marchal' WHERE id = %s", [newcomer.pk])
    found = [b for b in _named("people.role_without_act") if b.object.startswith("nouveau")]
    assert [(b.article, "Directeur responsable" in b.detail) for b in found] == [("FR art. 68, 69", True)]
    renamed = _named("people.name_changed")
    assert [(b.object, b.article) for b in renamed] == [("nouveau (Anne Kremer)", "FR art. 68, 69")]
    assert "nouveau (Anne Marchal)" in renamed[0].detail
    # the same signer-and-counter is also named as incompatible roles
    clash = [b for b in _named("people.incompatible_roles") if b.object.startswith("nouveau")]
    assert [b.article for b in clash] == ["FR art. 69"]


def test_a_name_changed_by_the_act_is_not_named(director: Any, casino: Any, newcomer: Any) -> None:
    services.grant_role(actor=director, person=newcomer, role=roles.CASHIER, reason="Engagée")
    services.rename_person(
        actor=director, person=newcomer, first_name="Anne", last_name="Marchal", reason="Mariage"
    )
    assert not _named("people.name_changed")
    assert selectors.names_by_act()[newcomer.pk] == "nouveau (Anne Marchal)"
    assert AuditEvent.objects.filter(action=Action.HOUSE_PERSON_RENAMED).count() == 1


def test_a_role_taken_away_in_sql_is_named(director: Any, casino: Any, newcomer: Any) -> None:
    services.grant_role(actor=director, person=newcomer, role=roles.CASHIER, reason="Engagée")
    newcomer.groups.clear()
    found = [b for b in _named("people.role_without_act") if b.object.startswith("nouveau")]
    assert len(found) == 1 and "sans acte de retrait" in found[0].detail


def test_the_users_admin_page_no_longer_changes_roles(
    client: Any, newcomer: Any, casino: Any, settings: Any
) -> None:
    """A superuser posting the user's page with the officer's group changes no role."""
    settings.DEBUG = True  # a superuser made on a database in service: recorded (refused otherwise)
    settings.TWO_FACTOR_REQUIRED = False  # his second factor is tested below
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-123456")
    client.force_login(admin)
    officer_group = Group.objects.get(name=roles.OFFICER)
    response = client.post(
        f"/admin/auth/user/{newcomer.pk}/change/",
        {
            "username": "chef",
            "first_name": "Autre",
            "last_name": "Nom",
            "email": "",
            "is_active": "on",
            "is_staff": "on",
            "groups": [officer_group.pk],
            "is_superuser": "on",
        },
    )
    assert response.status_code in (200, 302)
    newcomer = get_user_model().objects.get(pk=newcomer.pk)
    assert not newcomer.groups.exists()
    assert (newcomer.username, newcomer.first_name, newcomer.last_name, newcomer.is_superuser) == (
        "nouveau",
        "Anne",
        "Kremer",
        False,
    )
    assert client.get("/admin/auth/group/").status_code == 404


def test_the_api_gives_a_role_and_the_officer_reads_the_book(
    director: Any, officer: Any, casino: Any, newcomer: Any
) -> None:
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(director)
    answer = api.post(
        "/api/house/roles/acts/",
        {"kind": "grant", "person": "nouveau", "role": roles.CROUPIER, "reason": "Engagée"},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    refused = api.post(
        "/api/house/roles/acts/",
        {"kind": "grant", "person": "nouveau", "role": roles.OFFICER, "reason": "x"},
        format="json",
    )
    assert refused.status_code == 400
    assert (refused.json()["code"], refused.json()["article"]) == ("OFFICER_BY_AUTHORITY_ONLY", "FR art. 39")
    unknown = api.post(
        "/api/house/roles/acts/",
        {"kind": "grant", "person": "personne", "role": roles.CROUPIER, "reason": "x"},
        format="json",
    )
    assert unknown.status_code == 400 and unknown.json()["field"] == "person"
    reader = APIClient()
    reader.force_authenticate(officer)
    rows = reader.get("/api/house/roles/").json()
    rows = rows.get("results", rows) if isinstance(rows, dict) else rows
    assert [(r["kind"], r["person"], r["role"], r["recorded_by"]) for r in rows] == [
        ("grant", "nouveau", roles.CROUPIER, director.username)
    ]


def test_who_counts_never_signs(users: dict[str, Any], casino: Any) -> None:
    """FR art. 69, LU art. 10: the director who opens a séance naming himself as the croupier
    who counted, or signs an advance he counted himself, is refused."""
    from tables import services as tables
    from tests.support import builders

    director, croupier = users[roles.DIRECTOR], users[roles.CROUPIER]
    table = tables.create_table(actor=director, number=3, code="BJ03")
    day = builders.gaming_day()
    with assert_refused("COUNTER_IS_SIGNER", article="FR art. 69", field="croupier", nothing_recorded=True):
        builders.open_session(table, director=director, croupier=director, day=day)
    session = builders.open_session(table, director=director, croupier=croupier, day=day)
    with assert_refused("COUNTER_IS_SIGNER", article="FR art. 69", field="counted_by", nothing_recorded=True):
        with builders.at_day(day):
            tables.add_advance(
                actor=director, session=session, amount=session.advance_amount, counted_by=director
            )


def test_the_director_gives_a_role_on_the_admins_page(
    client: Any, director: Any, casino: Any, newcomer: Any
) -> None:
    client.force_login(director)
    page = client.get("/admin/house_books/roleentry/add/").content.decode()
    assert "nouveau" in page and 'value="officier"' not in page  # the officer's role is not offered
    refused = client.post(
        "/admin/house_books/roleentry/add/",
        {"kind": "grant", "person": director.pk, "role": roles.CROUPIER, "reason": "moi-même"},
    )
    assert refused.status_code == 200 and "FR art. 68, 69" in refused.content.decode()
    done = client.post(
        "/admin/house_books/roleentry/add/",
        {"kind": "grant", "person": newcomer.pk, "role": roles.CROUPIER, "reason": "Engagée"},
    )
    assert done.status_code == 302
    assert RoleEntry.objects.get().role == roles.CROUPIER and roles.has_role(newcomer, roles.CROUPIER)
