"""Officers' passkeys (WebAuthn): checking an assertion, and the demo's software passkey.

An officer's authenticator (a passkey on his phone or computer, or a security key) signs a
challenge with the private key it made for the casino's site; the enrolment the authority
signed holds the public key (COSE, as the authenticator gave it). Assertions are checked
with py_webauthn (:func:`check_assertion`), which parses the authenticator's data and the
COSE key: nothing of CBOR or COSE is written here.

:data:`DEMO_PASSKEY_PEM` is the demo officer's **software passkey**: a published key, so a
demo only. The browser test loads it into Chromium's virtual authenticator; the demo's
"software passkey" path (``OFFICER_DEMO_PASSKEY``, refused by ``check --deploy``) signs with
it on the server for people trying the demo without an authenticator. A real officer's
private key never leaves his authenticator.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import cbor2
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

# py_webauthn is imported where an assertion or a key is read, not with the module: every
# process loads this module with the admin (a command, a worker), and py_webauthn's package
# (its attestation formats, pyasn1's modules) costs a tenth of a process's start.

# DEMO ONLY: the private key of the demo officer's software passkey, published with the
# project (docs/officers.md). Never enrol it for a real officer.
DEMO_PASSKEY_PEM = b"""-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg2yweyxEEJTVvCGAN
BzB6EWi8kxVtUZVFf2QAp+frKh6hRANCAATdWYX4/hLLuUyQSQ4OKwXGRfTEWZdG
pkJo1EQ61N81UIbB52OUQNOQjX7Fnl5xus8ufkzrmU8wTKtFwH0xdjcT
-----END PRIVATE KEY-----
"""


class AssertionInvalid(ValueError):
    """An assertion that is not the enrolled passkey's signature over the expected challenge."""


def b64url(data: bytes) -> str:
    from webauthn.helpers import bytes_to_base64url

    return bytes_to_base64url(data)


def unb64url(text: str) -> bytes:
    from webauthn.helpers import base64url_to_bytes

    return base64url_to_bytes(text)


def cose_public_key(key: ec.EllipticCurvePublicKey) -> bytes:
    """The COSE_Key (RFC 9053, EC2, ES256) of a P-256 public key, as an authenticator gives it."""
    numbers = key.public_numbers()
    return cbor2.dumps(
        {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
    )


def spki_of(public_key: str) -> str:
    """The COSE public key (base64url) as a SubjectPublicKeyInfo (DER, base64), decoded by
    py_webauthn: what the offline verifier reads with ``cryptography`` alone."""
    from webauthn.helpers import decode_credential_public_key, decoded_public_key_to_cryptography

    try:
        key = decoded_public_key_to_cryptography(decode_credential_public_key(unb64url(public_key)))
    except Exception as error:  # py_webauthn raises several kinds for a key it cannot read
        raise ValueError(f"not a COSE public key: {error}") from error
    der = key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(der).decode()


@dataclass(frozen=True)
class SoftwarePasskey:
    """A passkey held in software (the demo's and the tests'): what an authenticator does,
    in the few lines the WebAuthn spec gives for an assertion (§6.3.3, no CBOR in it)."""

    key: ec.EllipticCurvePrivateKey

    @classmethod
    def from_pem(cls, pem: bytes) -> SoftwarePasskey:
        key = serialization.load_pem_private_key(pem, password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey):
            raise ValueError("a passkey's key is an EC P-256 key")
        return cls(key)

    @classmethod
    def demo(cls) -> SoftwarePasskey:
        return cls.from_pem(DEMO_PASSKEY_PEM)

    @property
    def public_key(self) -> str:
        """The COSE public key, base64url (what the authority enrols)."""
        return b64url(cose_public_key(self.key.public_key()))

    @property
    def credential_id(self) -> str:
        """A stable credential id (base64url) derived from the public key."""
        return b64url(hashlib.sha256(cose_public_key(self.key.public_key())).digest()[:16])

    def pkcs8(self) -> str:
        """The private key, PKCS#8 DER base64 (Chromium's ``WebAuthn.addCredential``)."""
        der = self.key.private_bytes(
            serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        return base64.b64encode(der).decode()

    def assert_(self, challenge: bytes, *, rp_id: str, origin: str, counter: int = 0) -> dict[str, Any]:
        """An assertion over ``challenge``, in the JSON a browser's ``PublicKeyCredential`` gives."""
        authenticator_data = (
            hashlib.sha256(rp_id.encode()).digest() + bytes([0x05]) + counter.to_bytes(4, "big")
        )
        client_data = json.dumps(
            {"type": "webauthn.get", "challenge": b64url(challenge), "origin": origin, "crossOrigin": False},
            separators=(",", ":"),
        ).encode()
        signature = self.key.sign(
            authenticator_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return {
            "id": self.credential_id,
            "rawId": self.credential_id,
            "type": "public-key",
            "response": {
                "authenticatorData": b64url(authenticator_data),
                "clientDataJSON": b64url(client_data),
                "signature": b64url(signature),
            },
        }


def _origin_of(assertion: dict[str, Any]) -> str:
    try:
        client_data = json.loads(unb64url(assertion["response"]["clientDataJSON"]))
        return str(client_data["origin"])
    except (KeyError, TypeError, ValueError) as error:
        raise AssertionInvalid("the assertion's client data cannot be read") from error


def origin_fits(origin: str, rp_id: str) -> bool:
    """Is ``origin`` a site of ``rp_id`` (its host the RP ID or under it)? WebAuthn's own rule."""
    host = urlsplit(origin).hostname or ""
    return host == rp_id or host.endswith("." + rp_id)


def check_assertion(
    assertion: dict[str, Any],
    *,
    challenge: bytes,
    rp_id: str,
    credential_id: str,
    public_key: str,
    origins: list[str] | None = None,
) -> int:
    """Check ``assertion`` (a browser's JSON) against the enrolled credential: the right
    credential, ``challenge`` signed, the RP ID's hash, user present and verified, and the
    origin one of ``origins`` (offline, when None: any origin of the RP ID's site). Returns
    the authenticator's signature counter; raises AssertionInvalid."""
    from webauthn import verify_authentication_response
    from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidJSONStructure

    if not isinstance(assertion, dict):
        raise AssertionInvalid("no assertion")
    if assertion.get("rawId", assertion.get("id")) != credential_id:
        raise AssertionInvalid("the assertion is not made by the enrolled passkey")
    origin = _origin_of(assertion)
    if origins is None:
        if not origin_fits(origin, rp_id):
            raise AssertionInvalid(f"the assertion was made on {origin}, not on {rp_id}")
        origins = [origin]
    try:
        verified = verify_authentication_response(
            credential=assertion,
            expected_challenge=challenge,
            expected_rp_id=rp_id,
            expected_origin=origins,
            credential_public_key=unb64url(public_key),
            credential_current_sign_count=0,
            require_user_verification=True,
        )
    except (InvalidAuthenticationResponse, InvalidJSONStructure, ValueError, KeyError, TypeError) as error:
        raise AssertionInvalid(str(error) or type(error).__name__) from error
    return int(verified.new_sign_count)


def short_fingerprint(assertion: dict[str, Any]) -> str:
    """The first 16 hex digits of the SHA-256 of the assertion's signature: printed with a visa."""
    try:
        signature = unb64url(assertion["response"]["signature"])
    except (KeyError, TypeError, ValueError):
        return ""
    digest = hashlib.sha256(signature).hexdigest()[:16]
    return " ".join(digest[i : i + 4] for i in range(0, 16, 4))
