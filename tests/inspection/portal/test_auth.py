"""Two-factor login (TOTP) for officers and directors, login throttling, production
hardening (``check --deploy``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino_ops import roles
from tests.support.clients import passkey_login, signed_in, totp_code

LOGIN = "/inspection/connexion/"


def _login(client: Client, username: str, password: str, code: str) -> Any:
    return client.post(LOGIN, {"username": username, "password": password, "code": code})


@pytest.mark.django_db
def test_officer_logs_in_with_password_and_passkey(users, devices) -> None:
    client = Client()
    password_only = _login(client, "u_officier", "pw-officier", "")
    assert password_only.status_code == 302 and "/inspection/verification/" in password_only["Location"]
    assert client.get("/inspection/").status_code == 302  # not before his passkey
    client = Client()
    response = passkey_login(client)
    assert response.status_code == 302 and response["Location"] == "/inspection/"
    page = client.get("/inspection/")
    assert page.status_code == 200
    assert "Tableau de bord" in page.content.decode()


@pytest.mark.django_db
def test_another_key_is_refused_and_counts_as_a_failure(users, devices) -> None:
    from axes.models import AccessAttempt

    from casino_ops.passkeys import SoftwarePasskey
    from tests.support.builders import other_passkey_pem

    client = Client()
    response = passkey_login(client, key=SoftwarePasskey.from_pem(other_passkey_pem()))
    assert response.status_code == 400
    assert "n&#x27;a pas été reconnue" in response.content.decode()
    assert client.get("/inspection/").status_code == 302
    assert AccessAttempt.objects.get().failures_since_start == 1


@pytest.mark.django_db
def test_a_totp_device_does_not_verify_an_officer(users, devices) -> None:
    app = TOTPDevice.objects.create(user=users[roles.OFFICER], name="app", confirmed=True)
    client = signed_in(users[roles.OFFICER], app)
    assert client.get("/inspection/").status_code == 302


@pytest.mark.django_db
def test_a_revoked_officer_is_out_at_once(users, devices) -> None:
    from django.utils import timezone

    from casino_ops.models import OfficerEnrolment

    client = signed_in(users[roles.OFFICER], devices[roles.OFFICER])
    assert client.get("/inspection/").status_code == 200
    OfficerEnrolment.objects.update(revoked_at=timezone.now())
    assert client.get("/inspection/").status_code in (302, 404)


@pytest.mark.django_db
@pytest.mark.parametrize("role", [r for r in roles.ALL_ROLES if r != roles.OFFICER])
def test_portal_login_is_for_officers_only(role, users, devices) -> None:
    device = devices.get(role) or TOTPDevice.objects.create(user=users[role], name="app")
    response = _login(Client(), f"u_{role}", f"pw-{role}", totp_code(device))  # a director's own app
    assert response.status_code == 400
    assert "réservé aux officiers" in response.content.decode()


@pytest.mark.django_db
def test_login_is_throttled_after_five_failures(users, devices) -> None:
    client = Client(REMOTE_ADDR="10.1.2.3")
    for _ in range(4):
        assert _login(client, "u_officier", "wrong", "123456").status_code == 400
    # The fifth failure locks the username from this address.
    assert _login(client, "u_officier", "wrong", "123456").status_code == 429
    # Even the right password is refused now.
    response = _login(client, "u_officier", "pw-officier", "")
    assert response.status_code == 429
    assert "bloquée" in response.content.decode()
    assert client.get("/inspection/").status_code == 302


@pytest.mark.django_db
def test_wrong_passkeys_count_as_failures(users, devices) -> None:
    import json

    from casino_ops.passkeys import SoftwarePasskey
    from tests.support.builders import other_passkey_pem

    other = SoftwarePasskey.from_pem(other_passkey_pem())
    client = Client(REMOTE_ADDR="10.1.2.4")
    assert passkey_login(client, key=other).status_code == 400  # the first failure
    for _ in range(3):
        client.get("/inspection/verification/")
        wrong = other.assert_(b"x" * 32, rp_id="localhost", origin="http://localhost")
        assert client.post("/inspection/verification/", {"assertion": json.dumps(wrong)}).status_code == 400
    client.get("/inspection/verification/")
    response = client.post("/inspection/verification/", {"assertion": "{}"})
    assert response.status_code == 429
    assert client.get("/inspection/verification/").status_code == 429
    assert client.get("/inspection/").status_code == 302


@pytest.mark.django_db
def test_director_in_the_admin_must_give_a_code(users, devices, settings) -> None:
    # django-otp also slows a device down after a wrong code (1 s, doubling);
    # this test gives the right code at once after a wrong one.
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    client = Client()
    client.force_login(users[roles.DIRECTOR])
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/inspection/verification/?next=%2Fadmin%2F")
    step = client.post("/inspection/verification/", {"code": "000000", "next": "/admin/"})
    assert step.status_code == 200 and "incorrect" in step.content.decode()
    step = client.post(
        "/inspection/verification/", {"code": totp_code(devices[roles.DIRECTOR]), "next": "/admin/"}
    )
    assert step.status_code == 302 and step["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


@pytest.mark.django_db
def test_roles_without_two_factor_use_the_admin_with_a_password(users) -> None:
    client = Client()
    client.force_login(users[roles.CROUPIER])
    assert client.get("/admin/").status_code == 200


@pytest.mark.django_db
def test_director_without_an_app_enrols_one(users) -> None:
    client = Client()
    client.force_login(users[roles.DIRECTOR])
    page = client.get("/inspection/verification/?next=/admin/")
    assert page.status_code == 200 and "Clé" in page.content.decode()
    device = TOTPDevice.objects.get(user=users[roles.DIRECTOR], confirmed=False)
    response = client.post("/inspection/verification/", {"code": totp_code(device), "next": "/admin/"})
    assert response.status_code == 302
    device.refresh_from_db()
    assert device.confirmed
    assert client.get("/admin/").status_code == 200


@pytest.mark.django_db
def test_api_session_without_second_factor_is_refused(users) -> None:
    client = Client()
    client.force_login(users[roles.OFFICER])
    response = client.get("/api/inspection/audit-events/")
    assert response.status_code == 403
    assert response.json()["code"] == "SECOND_FACTOR_REQUIRED"


@pytest.mark.django_db
def test_logout(officer_client) -> None:
    assert officer_client.post(reverse("portal:logout")).status_code == 302
    assert officer_client.get("/inspection/").status_code == 302


def test_check_deploy_is_clean_in_production_settings(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "casino_ops.settings",
        "DEBUG": "0",
        "SECRET_KEY": "k" * 20 + "-production-secret-key-long-and-random-9f8e7d6c5b4a",
        "ALLOWED_HOSTS": "casino.example",
        "AUDIT_WITNESS_DIR": str(tmp_path / "witness"),  # required with DEBUG off (audit.E001)
        "OFFICER_CASINO_ID": "casino-exemple",  # required with DEBUG off, as the authority's certificate
    }
    env.pop("SECURE_SSL_REDIRECT", None)
    env.pop("OFFICER_AUTHORITY_DEMO_KEY", None)  # demo only (casino_ops.E104)
    env.pop("OFFICER_DEMO_PASSKEY", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=Path(__file__).resolve().parents[3],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.django_db
def test_a_visa_without_the_csrf_token_is_refused(users, devices, samples) -> None:
    from django_otp import DEVICE_ID_SESSION_KEY

    from cards_registry.models import Visa

    client = Client(enforce_csrf_checks=True)
    client.force_login(users[roles.OFFICER])
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = devices[roles.OFFICER].persistent_id
    session.save()
    url = reverse("portal:stamp", args=["prise-en-charge", samples.reception.pk])
    assert client.post(url, {"remark": ""}).status_code == 403
    assert not Visa.objects.filter(reception=samples.reception).exists()
    # With the token of the visas page, the same visa goes through.
    page = client.get(reverse("portal:visas"))
    token = page.cookies["csrftoken"].value
    assert client.post(url, {"remark": "", "csrfmiddlewaretoken": token}).status_code == 302
    assert Visa.objects.filter(reception=samples.reception).exists()
