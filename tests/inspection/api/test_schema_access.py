"""The API's schema is read by the roles that use the API through a token: the officers (their
read-only API) and the hand-log machine (its upload); no other token opens it (tokens open two
doors only, docs/officers.md). A person signed in with a session reads it to use the acts' API."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from casino_ops import roles


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("role", "status"),
    [
        (roles.OFFICER, 200),
        (roles.MACHINE, 200),
        (roles.DIRECTOR, 403),
        (roles.COMMITTEE, 403),
        (roles.CROUPIER, 403),
        (roles.CASHIER, 403),
    ],
)
def test_the_schema_is_read_with_the_token_of_an_officer_or_of_the_hand_log_machine_only(
    users: dict[str, Any], role: str, status: int
) -> None:
    token = Token.objects.create(user=users[role])
    response = Client(HTTP_AUTHORIZATION=f"Token {token.key}").get("/api/schema/")
    assert response.status_code == status, response.content[:300]
    if status == 403:
        assert b"TOKEN_NOT_ALLOWED" in response.content


@pytest.mark.django_db
def test_the_schema_is_read_in_a_session_and_not_anonymously(users: dict[str, Any], settings: Any) -> None:
    settings.TWO_FACTOR_REQUIRED = False  # a session past its second factor
    client = Client()
    assert client.get("/api/schema/").status_code in (401, 403)
    client.force_login(users[roles.DIRECTOR])
    response = client.get("/api/schema/")
    assert response.status_code == 200, response.content[:300]
