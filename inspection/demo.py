"""Demo data of the audit app (last in ``seed_demo``'s order).

The demo director and officer get an authenticator-app device (TOTP), since
their roles must give a one-time code at login. The secret is printed, so a
person can add it to an authenticator app; running the seed again keeps the
same devices and prints the same secrets.
"""

from __future__ import annotations

import base64
from typing import Any

from django_otp.plugins.otp_totp.models import TOTPDevice

from casino_ops import roles

DEVICE_NAME = "Application de démonstration"


def totp_secret(device: TOTPDevice) -> str:
    """The device's key in base32, as authenticator apps take it."""
    return base64.b32encode(device.bin_key).decode()


def seed(context: dict[str, Any]) -> None:
    notes = context.setdefault("notes", [])
    for role in roles.TWO_FACTOR:
        user = context["users"][role]
        device = TOTPDevice.objects.filter(user=user, name=DEVICE_NAME).first()
        if device is None:
            device = TOTPDevice.objects.create(user=user, name=DEVICE_NAME, confirmed=True)
            context["created"].append(f"TOTP device of {user.username}")
        notes.append(
            f"TOTP secret of {user.username} (base32, 6 digits, 30 s): {totp_secret(device)} — {device.config_url}"
        )
