"""Demo data of the officers' side.

:func:`enrol_officers` (right after the casino's settings): the demo officer is enrolled by
the demo authority (``OFFICER_AUTHORITY_DEMO_KEY``), with the published demo software passkey
(docs/officers.md), as ``enrol_officer --demo-passkey`` then ``record_enrolment`` would.

:func:`seed` (last in ``seed_demo``'s order): the demo director gets an authenticator-app
device (TOTP), since his role must give a one-time code at login (officers give their
passkey instead). The secret is printed, so a person can add it to an authenticator app;
running the seed again keeps the same device and prints the same secret.
"""

from __future__ import annotations

import base64
from typing import Any

from django_otp.plugins.otp_totp.models import TOTPDevice

from casino_ops import roles
from casino_ops.demo import demo_enrolment
from casino_ops.passkeys import SoftwarePasskey
from house_books.services.officers import record_enrolment

DEVICE_NAME = "Application de démonstration"


def totp_secret(device: TOTPDevice) -> str:
    """The device's key in base32, as authenticator apps take it."""
    return base64.b32encode(device.bin_key).decode()


DEMO_ENROLMENT = "demo-officier"


def enrol_officers(context: dict[str, Any]) -> None:
    officer = context["users"][roles.OFFICER]
    row, outcome = record_enrolment(
        document=demo_enrolment(officer.get_username(), officer.get_full_name(), serial=DEMO_ENROLMENT)
    )
    if outcome == "enrolled":
        context["created"].append(f"enrolment of {officer.username} by the demo authority")
    context.setdefault("notes", []).append(
        f"Officer {officer.username}: enrolled by the demo authority (n° {row.serial}) with the DEMO "
        f"software passkey (credential {SoftwarePasskey.demo().credential_id}, docs/officers.md)."
    )


def seed(context: dict[str, Any]) -> None:
    notes = context.setdefault("notes", [])
    for role in roles.TWO_FACTOR:
        if role == roles.OFFICER:
            continue  # an officer signs in with his passkey
        user = context["users"][role]
        device = TOTPDevice.objects.filter(user=user, name=DEVICE_NAME).first()
        if device is None:
            device = TOTPDevice.objects.create(user=user, name=DEVICE_NAME, confirmed=True)
            context["created"].append(f"TOTP device of {user.username}")
        notes.append(
            f"TOTP secret of {user.username} (base32, 6 digits, 30 s): {totp_secret(device)} — {device.config_url}"
        )
