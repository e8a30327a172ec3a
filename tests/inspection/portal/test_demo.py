"""seed_demo gives the demo director a TOTP device and prints its secret; the demo officer is
enrolled by the demo authority with the published demo software passkey."""

from __future__ import annotations

import base64

import pytest
from django.core.management import call_command
from django.test import Client
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino_ops.models import OfficerEnrolment
from casino_ops.passkeys import SoftwarePasskey
from tests.support.clients import passkey_login


@pytest.mark.django_db
def test_demo_director_gets_the_printed_secret_and_the_officer_his_passkey(demo, capsys) -> None:
    first = demo.output
    call_command("seed_demo", "--if-empty")  # a database holding acts: no secret printed again
    second = capsys.readouterr().out
    device = TOTPDevice.objects.get()
    assert device.user.username == "directeur"
    secret = base64.b32encode(device.bin_key).decode()
    assert f"TOTP secret of directeur (base32, 6 digits, 30 s): {secret}" in first
    assert secret not in second and "nothing seeded" in second
    enrolment = OfficerEnrolment.objects.get()
    assert enrolment.user.username == "officier" and enrolment.serial == "demo-officier"
    assert enrolment.credential_id == SoftwarePasskey.demo().credential_id
    assert "enrolled by the demo authority" in first and "DEMO" in first

    # The officer signs in with his password, then the demo's software passkey.
    client = Client()
    response = passkey_login(client, "officier", "demo-officier")
    assert response.status_code == 302
    assert client.get("/inspection/").status_code == 200


@pytest.mark.django_db
def test_the_demo_path_signs_with_the_software_passkey_in_debug_only(demo, settings) -> None:
    client = Client()
    client.post("/inspection/connexion/", {"username": "officier", "password": "demo-officier"})
    settings.DEBUG = False
    page = client.get("/inspection/verification/")
    assert "Clé logicielle de démonstration" not in page.content.decode()
    assert client.post("/inspection/verification/", {"demo": "1"}).status_code == 400
    settings.DEBUG = True
    page = client.get("/inspection/verification/")
    assert "Clé logicielle de démonstration" in page.content.decode()
    assert client.post("/inspection/verification/", {"demo": "1"}).status_code == 302
    assert client.get("/inspection/").status_code == 200
