"""seed_demo gives the demo director and officer a TOTP device and prints its secret."""

from __future__ import annotations

import base64

import pytest
from django.core.management import call_command
from django.test import Client
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice


@pytest.mark.django_db
def test_demo_officer_logs_in_with_the_printed_secret(demo, capsys) -> None:
    first = demo.output
    call_command("seed_demo", "--if-empty")  # a database holding acts: no secret printed again
    second = capsys.readouterr().out
    assert TOTPDevice.objects.count() == 2
    device = TOTPDevice.objects.get(user__username="officier")
    secret = base64.b32encode(device.bin_key).decode()
    assert f"TOTP secret of officier (base32, 6 digits, 30 s): {secret}" in first
    assert secret not in second and "nothing seeded" in second
    assert "TOTP secret of directeur" in first

    # What an authenticator app computes from the printed secret opens the portal.
    key = base64.b32decode(secret)
    code = f"{TOTP(key, device.step, device.t0, device.digits).token():06d}"
    client = Client()
    response = client.post(
        "/inspection/connexion/", {"username": "officier", "password": "demo-officier", "code": code}
    )
    assert response.status_code == 302
    assert client.get("/inspection/").status_code == 200
