"""Login hardening: the lockout covers the code step, TWO_FACTOR_REQUIRED=0 removes the code,
API tokens only for the officers' reads and the hand-log machine, axes keyed on the client
behind a trusted proxy, a lockout that says the time left in words."""

from __future__ import annotations

import json
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from rest_framework.authtoken.models import Token

from casino_ops import roles
from tables.blackjack.simulator import simulate
from tests.support.clients import totp_code
from tests.support.samples import module_casino, module_clients, module_devices, module_samples, module_users  # noqa: F401 - made once for the module

LOGIN = "/inspection/connexion/"
VERIFY = "/inspection/verification/"


@pytest.mark.django_db
def test_a_lockout_covers_the_code_step_of_an_open_session(users, devices, settings) -> None:
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    director = users[roles.DIRECTOR]
    client = Client(REMOTE_ADDR="10.9.9.9")
    assert (
        client.post("/admin/login/", {"username": "u_directeur", "password": "pw-directeur"}).status_code
        == 302
    )
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(VERIFY, {"code": "000000", "next": "/admin/"})
    assert AccessAttempt.objects.filter(username=director.username).exists()
    # the right code no longer opens the session while the lockout lasts
    step = client.post(VERIFY, {"code": totp_code(devices[roles.DIRECTOR]), "next": "/admin/"})
    assert step.status_code == 429
    page = step.content.decode()
    assert "bloquée" in page and "PT1H" not in page and ("minute" in page or "heure" in page)
    assert client.get("/admin/").status_code == 302


@pytest.mark.django_db
def test_a_lockout_says_the_time_left_in_words(users, devices) -> None:
    client = Client(REMOTE_ADDR="10.1.2.5")
    for _ in range(5):
        response = client.post(LOGIN, {"username": "u_officier", "password": "wrong", "code": "1"})
    assert response.status_code == 429
    page = response.content.decode()
    assert "PT1H" not in page and ("minutes" in page or "heure" in page)


@pytest.mark.django_db
def test_without_two_factor_officers_sign_in_with_a_password(users, devices, settings) -> None:
    settings.TWO_FACTOR_REQUIRED = False
    client = Client()
    form = client.get(LOGIN).content.decode()
    assert 'name="code"' not in form
    response = client.post(LOGIN, {"username": "u_officier", "password": "pw-officier"})
    assert response.status_code == 302 and response["Location"] == "/inspection/"
    assert client.get("/inspection/").status_code == 200


def _proxied(client_ip: str) -> Client:
    return Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=client_ip)


@pytest.mark.django_db
def test_behind_a_trusted_proxy_the_lockout_is_per_client(users, devices, settings) -> None:
    settings.TRUSTED_PROXIES = ["127.0.0.1/32"]
    attacker = _proxied("203.0.113.7")
    for _ in range(5):
        attacker.post(LOGIN, {"username": "u_officier", "password": "wrong", "code": "1"})
    assert (
        attacker.post(LOGIN, {"username": "u_officier", "password": "wrong", "code": "1"}).status_code == 429
    )
    assert AccessAttempt.objects.get().ip_address == "203.0.113.7"
    # the officer, from his own address through the same proxy, is not locked out
    officer = _proxied("198.51.100.4")
    response = officer.post(
        LOGIN,
        {"username": "u_officier", "password": "pw-officier"},
    )
    assert response.status_code == 302
    # a client cannot choose its address by sending its own X-Forwarded-For
    spoofing = Client(REMOTE_ADDR="192.0.2.50", HTTP_X_FORWARDED_FOR="198.51.100.4")
    spoofing.post(LOGIN, {"username": "u_officier", "password": "wrong", "code": "1"})
    assert AccessAttempt.objects.filter(ip_address="192.0.2.50").exists()


@pytest.mark.django_db
def test_tries_during_a_lockout_do_not_restart_it(users, devices) -> None:
    client = Client(REMOTE_ADDR="10.1.2.6")
    for _ in range(5):
        client.post(LOGIN, {"username": "u_officier", "password": "wrong", "code": "1"})
    locked_at = AccessAttempt.objects.get().attempt_time
    for _ in range(3):
        assert (
            client.post(LOGIN, {"username": "u_officier", "password": "wrong", "code": "1"}).status_code
            == 429
        )
    assert AccessAttempt.objects.get().attempt_time == locked_at


# -- API tokens ----------------------------------------------------------------------------------


def _token_client(user: Any) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")


@pytest.fixture
def machine(db) -> Any:
    user = get_user_model().objects.create_user(username="releves-bj", password=None)
    user.groups.add(Group.objects.get(name=roles.MACHINE))
    return user


def _log() -> bytes:
    sim = simulate(7, "FR", table="BJ03", limits=("10.00", "1000.00"))
    return json.dumps(sim.log).encode()


@pytest.mark.django_db
def test_an_officer_token_reads_the_officers_api_only(users, samples) -> None:
    client = _token_client(users[roles.OFFICER])
    assert client.get("/api/inspection/audit-events/").status_code == 200
    session = samples.session
    assert client.get("/api/tables/sessions/").status_code == 403
    posted = client.post(
        f"/api/tables/sessions/{session.pk}/hand-logs/", _log(), content_type="application/json"
    )
    assert posted.status_code == 403


@pytest.mark.django_db
@pytest.mark.parametrize("role", [roles.DIRECTOR, roles.COMMITTEE, roles.CROUPIER, roles.CASHIER])
def test_other_roles_tokens_are_refused(role, users, samples) -> None:
    from tables.models import HandLog

    client = _token_client(users[role])
    before = HandLog.objects.count()
    posted = client.post(
        f"/api/tables/sessions/{samples.session.pk}/hand-logs/", _log(), content_type="application/json"
    )
    assert posted.status_code == 403
    assert posted.json()["code"] == "TOKEN_NOT_ALLOWED"
    assert HandLog.objects.count() == before
    assert client.get("/api/tables/sessions/").status_code == 403
    assert client.get("/api/inspection/audit-events/").status_code == 404  # officers only


@pytest.mark.django_db
def test_the_machine_account_uploads_hand_logs_and_nothing_else(
    machine, samples, django_capture_on_commit_callbacks
) -> None:
    from tables.models import HandLog

    client = _token_client(machine)
    before = HandLog.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        posted = client.post(
            f"/api/tables/sessions/{samples.session.pk}/hand-logs/", _log(), content_type="application/json"
        )
    assert posted.status_code == 201, posted.content[:300]
    assert client.get("/api/tables/sessions/").status_code == 403
    assert client.get(f"/api/tables/sessions/{samples.session.pk}/hand-logs/").status_code == 403
    assert client.get("/api/inspection/audit-events/").status_code == 403
    # no admin, no portal
    session_client = Client()
    session_client.force_login(machine)
    assert session_client.get("/admin/").status_code == 302
    assert session_client.get("/inspection/").status_code == 404
    assert set(machine.get_all_permissions()) == set()  # its upload is an act (casino_ops.access)
    if posted.status_code == 201:
        assert HandLog.objects.count() == before + 1
