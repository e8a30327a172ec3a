"""The tests' people and clients, a pytest plugin (the root ``conftest.py`` loads it): one user
per role (``users``, ``director``, ``officer``…), ``make_user`` for anyone else with the roles a
test gives him, and clients signed in (``tests.support.clients.signed_in``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from tests.support.clients import signed_in


@pytest.fixture
def users(db: None) -> dict[str, Any]:
    """One user per role, keyed by role name (``u_<role>``, password ``pw-<role>``)."""
    from tests.support.builders import users_by_role

    return users_by_role()


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    """``make_user(username, *roles, password=…, is_staff=True, **fields)``: a user holding
    ``roles`` (an officer enrolled with the demo passkey), anyone else the test needs."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from casino_ops import roles as casino_roles
    from tests.support.builders import enrol_officer

    def make(
        username: str, *roles: str, password: str | None = None, is_staff: bool = True, **fields: Any
    ) -> Any:
        user = get_user_model().objects.create_user(
            username=username, password=password, is_staff=is_staff, **fields
        )
        if roles:
            user.groups.add(*Group.objects.filter(name__in=roles))
        if casino_roles.OFFICER in roles:
            enrol_officer(user)
        return user

    return make


@pytest.fixture
def newcomer(make_user: Callable[..., Any]) -> Any:
    """A member of the staff holding no role yet (Anne Kremer, ``nouveau``)."""
    return make_user("nouveau", password="pw-nouveau-1234", first_name="Anne", last_name="Kremer")


@pytest.fixture
def director(users: dict[str, Any]) -> Any:
    from casino_ops import roles

    return users[roles.DIRECTOR]


@pytest.fixture
def officer(users: dict[str, Any]) -> Any:
    from casino_ops import roles

    return users[roles.OFFICER]


@pytest.fixture
def cashier(users: dict[str, Any]) -> Any:
    from casino_ops import roles

    return users[roles.CASHIER]


@pytest.fixture
def croupier(users: dict[str, Any]) -> Any:
    from casino_ops import roles

    return users[roles.CROUPIER]


@pytest.fixture
def committee(users: dict[str, Any]) -> Any:
    from casino_ops import roles

    return users[roles.COMMITTEE]


@pytest.fixture
def casino(director: Any) -> Any:
    """The casino's settings: FR, authorised minimum 5.00."""
    from tests.support.builders import casino_settings

    return casino_settings(director)


@pytest.fixture
def director_client(director: Any) -> Client:
    """The director signed in (no second factor asked unless the test sets it)."""
    return signed_in(director)


@pytest.fixture
def croupier_client(users: dict[str, Any]) -> Client:
    from casino_ops import roles

    return signed_in(users[roles.CROUPIER])


@pytest.fixture
def devices(users: dict[str, Any]) -> dict[str, Any]:
    """Each role's second factor: an authenticator app, the officer's enrolment."""
    from tests.support.clients import make_devices

    return make_devices(users)


@pytest.fixture
def clients(users: dict[str, Any], devices: dict[str, Any]) -> dict[str, Client]:
    """One client per role (verified where the role needs it), plus anonymous and an
    officer who gave only a password."""
    from casino_ops import roles

    made = {role: signed_in(users[role], devices.get(role)) for role in roles.ALL_ROLES}
    made["anonymous"] = Client()
    made["officer_password_only"] = signed_in(users[roles.OFFICER])
    return made


@pytest.fixture
def officer_client(clients: dict[str, Client]) -> Client:
    from casino_ops import roles

    return clients[roles.OFFICER]
