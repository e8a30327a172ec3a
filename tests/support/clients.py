"""The one signed-in client of the tests, for the admin, the portal and the API alike."""

from __future__ import annotations

from typing import Any

from django.test import Client


def signed_in(user: Any, device: Any = None) -> Client:
    """A client signed in as ``user`` (the admin, the portal and the API take the same
    session), its second factor verified with ``device`` (a TOTP device or an officer's
    enrolment) when given."""
    client = Client()
    client.force_login(user)
    if device is not None:
        from django_otp import DEVICE_ID_SESSION_KEY

        session = client.session
        session[DEVICE_ID_SESSION_KEY] = device.persistent_id
        session.save()
    return client


def totp_code(device: Any) -> str:
    """The code the authenticator app shows now for ``device``."""
    from django_otp.oath import TOTP

    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    return f"{totp.token():0{device.digits}d}"


def make_devices(users: dict[str, Any]) -> dict[str, Any]:
    """A confirmed authenticator app for each role that needs a one-time code; the officer's
    second factor is his passkey, the device of his enrolment (``builders.enrol_officer``)."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from casino_ops import officers, roles

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
