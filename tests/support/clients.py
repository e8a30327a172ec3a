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
