"""The officer's passkey in the portal: signing in, and signing each act.

**Signing in.** After his password, an officer gives his passkey (WebAuthn) instead of a
TOTP code: the page asks his authenticator to sign a random challenge kept in the session;
the assertion checked against his enrolment (:func:`check_login`), the session is verified
with the enrolment as its django-otp device. A TOTP device never verifies an officer.

**Signing an act.** A form of an officer's act (``data-officer-sign``) is first posted with
``prepare=1``: the view answers the statement's challenge (:func:`prepare_response`, the
statement kept in the session under its nonce); the page has the authenticator sign it and
posts the form again with the assertion; :func:`signature_from` hands the service the
statement and the assertion, which the service checks before recording
(:func:`casino_ops.officers.seal`).
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import user_login_failed
from django.http import HttpRequest, JsonResponse
from django.utils import timezone

from casino_ops import officers, passkeys, roles
from casino_ops.models import OfficerEnrolment
from casino_ops.officers import OfficerSignature
from casino_ops.regulations import RegulationError

LOGIN_CHALLENGE = "officer_login_challenge"
STATEMENTS = "officer_statements"
_KEPT_STATEMENTS = 8


def request_options(enrolment: Any, challenge: bytes) -> dict[str, Any]:
    """``navigator.credentials.get({publicKey})``'s options, as JSON (binary as base64url)."""
    return {
        "challenge": passkeys.b64url(challenge),
        "rpId": enrolment.rp_id,
        "allowCredentials": [{"type": "public-key", "id": enrolment.credential_id}],
        "userVerification": "required",
        "timeout": 120000,
    }


def _origins() -> list[str] | None:
    return list(getattr(settings, "OFFICER_WEBAUTHN_ORIGINS", []) or []) or None


def demo_path(enrolment: Any) -> bool:
    """DEMO ONLY: may the server sign with the demo's software passkey for this officer?"""
    return bool(settings.DEBUG and getattr(settings, "OFFICER_DEMO_PASSKEY", False)) and (
        enrolment.credential_id == passkeys.SoftwarePasskey.demo().credential_id
    )


def second_factor_given(user: Any) -> bool:
    """Has ``user``'s session given its second factor: for an officer, his passkey under an
    enrolment in force; for a director, his TOTP device (django-otp)."""
    if not (hasattr(user, "is_verified") and user.is_verified()):
        return False
    if not roles.has_role(user, roles.OFFICER):
        return True
    device = getattr(user, "otp_device", None)
    return (
        isinstance(device, OfficerEnrolment)
        and device.revoked_at is None
        and device.valid_to > timezone.now()
    )


def login_options(request: HttpRequest, enrolment: Any) -> dict[str, Any]:
    challenge = secrets.token_bytes(32)
    request.session[LOGIN_CHALLENGE] = passkeys.b64url(challenge)
    return request_options(enrolment, challenge)


def check_login(request: HttpRequest, enrolment: Any, assertion_text: str, *, demo: bool = False) -> bool:
    """Does the posted assertion sign this session's challenge with the enrolled passkey? A
    failure counts for the login throttle, as a wrong code does."""
    challenge_text = request.session.pop(LOGIN_CHALLENGE, "")
    ok = False
    if challenge_text:
        challenge = passkeys.unb64url(challenge_text)
        try:
            if demo and demo_path(enrolment):
                assertion = passkeys.SoftwarePasskey.demo().assert_(
                    challenge, rp_id=enrolment.rp_id, origin=f"https://{enrolment.rp_id}"
                )
            else:
                assertion = json.loads(assertion_text)
            passkeys.check_assertion(
                assertion,
                challenge=challenge,
                rp_id=enrolment.rp_id,
                credential_id=enrolment.credential_id,
                public_key=enrolment.enrolment.public_key,
                origins=_origins(),
            )
            ok = True
        except (ValueError, passkeys.AssertionInvalid):
            ok = False
    if not ok:
        user_login_failed.send(
            sender=__name__, credentials={"username": request.user.get_username()}, request=request
        )
    return ok


def prepare_response(request: HttpRequest, *, act: str, target: Any, fields: dict[str, Any]) -> JsonResponse:
    """The statement of the act for the officer's authenticator to sign (400 with the refusal
    when he may not sign)."""
    try:
        said = officers.prepare(officer=request.user, act=act, target=target, fields=fields)
    except RegulationError as error:
        return JsonResponse(error.as_dict(), status=400)
    kept = dict(request.session.get(STATEMENTS, {}))
    kept[said["nonce"]] = said
    request.session[STATEMENTS] = dict(list(kept.items())[-_KEPT_STATEMENTS:])
    enrolment = officers.enrolment_in_force(request.user)
    return JsonResponse(
        {"statement": said["nonce"], "publicKey": request_options(enrolment, officers.challenge_of(said))}
    )


def is_prepare(request: HttpRequest) -> bool:
    return request.POST.get("prepare") == "1"


def signature_from(request: HttpRequest) -> OfficerSignature | None:
    """The statement (from the session) and the assertion (posted) of this act; None when the
    form came without them (the service then refuses, but on the demo's software passkey)."""
    nonce = request.POST.get("officer_statement", "")
    kept = dict(request.session.get(STATEMENTS, {}))
    said = kept.pop(nonce, None)
    if said is None:
        return None
    request.session[STATEMENTS] = kept
    try:
        assertion = json.loads(request.POST.get("officer_assertion", ""))
    except ValueError:
        assertion = {}
    return OfficerSignature(statement=said, assertion=assertion if isinstance(assertion, dict) else {})
