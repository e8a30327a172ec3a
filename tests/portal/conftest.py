"""Fixtures of the portal and the officers' API: two-factor login switched on,
TOTP devices, clients signed in per role (verified with their device)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino_ops import roles


@pytest.fixture(scope="session")
def screenshots(pytestconfig: pytest.Config) -> bool:
    """Whether the browser tests keep a full-page screenshot of each page they check
    (``--screenshots``), for people to look at. No check reads them; taking them costs a tenth
    to half a second a page, over a minute for the hundreds of pages of the tour and the admin."""
    return bool(pytestconfig.getoption("--screenshots"))


@pytest.fixture(autouse=True)
def two_factor_required(settings: Any) -> None:
    """The production default: directors and officers need a TOTP code."""
    settings.TWO_FACTOR_REQUIRED = True


def totp_code(device: TOTPDevice) -> str:
    """The code the authenticator app shows now for ``device``."""
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    return f"{totp.token():0{device.digits}d}"


def make_devices(users: dict[str, Any]) -> dict[str, Any]:
    """A confirmed authenticator app for each role that needs a one-time code; the officer's
    second factor is his passkey, the device of his enrolment (tests.support.builders.enrol_officer)."""
    from casino_ops import officers

    return {
        role: officers.enrolment_in_force(users[role])
        if role == roles.OFFICER
        else TOTPDevice.objects.create(user=users[role], name="app", confirmed=True)
        for role in roles.TWO_FACTOR
    }


def passkey_login(
    client: Client, username: str = "u_officier", password: str = "pw-officier", *, key: Any = None
) -> Any:
    """An officer's sign-in: password, then the passkey (``key``: a SoftwarePasskey, the demo's
    by default) signing the challenge of the page, as his browser would. The last response."""
    import html
    import json
    import re

    from casino_ops.passkeys import SoftwarePasskey, unb64url

    first = client.post("/inspection/connexion/", {"username": username, "password": password})
    if first.status_code != 302 or "/verification/" not in first["Location"]:
        return first
    page = client.get(first["Location"])
    options = json.loads(
        html.unescape(re.search(r'data-passkey-options="([^"]*)"', page.content.decode())[1])
    )
    key = key or SoftwarePasskey.demo()
    assertion = key.assert_(unb64url(options["challenge"]), rp_id=options["rpId"], origin="http://localhost")
    return client.post(first["Location"], {"assertion": json.dumps(assertion)})


@pytest.fixture
def devices(users: dict[str, Any]) -> dict[str, TOTPDevice]:
    return make_devices(users)


def signed_in(user: Any, device: TOTPDevice | None = None) -> Client:
    """A client signed in as ``user``, verified with ``device`` when given."""
    client = Client()
    client.force_login(user)
    if device is not None:
        session = client.session
        session[DEVICE_ID_SESSION_KEY] = device.persistent_id
        session.save()
    return client


@pytest.fixture
def clients(users: dict[str, Any], devices: dict[str, TOTPDevice]) -> dict[str, Client]:
    """One client per role (verified where the role needs it), plus anonymous and an
    officer who gave only a password."""
    made = {role: signed_in(users[role], devices.get(role)) for role in roles.ALL_ROLES}
    made["anonymous"] = Client()
    made["officer_password_only"] = signed_in(users[roles.OFFICER])
    return made


@pytest.fixture
def officer_client(clients: dict[str, Client]) -> Client:
    return clients[roles.OFFICER]


from tests.support.samples import dev_cert, samples, shared_samples, signing  # noqa: F401,E402
