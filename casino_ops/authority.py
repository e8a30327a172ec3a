"""The supervising authority's signed documents: an officer's enrolment and its revocation.

The authority (the police service or the inspectorate over the casino) holds a key pair of
its own; the casino's server holds only its certificate (``OFFICER_AUTHORITY_CERTIFICATE``).
An enrolment says who is an officer for which casino, from when to when, and with which
passkey (the WebAuthn credential's id and public key): the authority signs it with its key,
which never sits on the casino's server, and the casino checks it with the certificate.
Whoever administers the casino's server can therefore neither make an officer nor extend
nor re-key one: any change breaks the authority's signature.

A document is a JSON object; its signature (ECDSA P-256 with SHA-256, DER, base64) is over
the object's canonical form (keys sorted, no spaces, UTF-8) without its ``"signature"`` key.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from .passkeys import spki_of

ENROLMENT = "enrolment"
REVOCATION = "revocation"
VERSION = 1


class DocumentInvalid(ValueError):
    """A document the authority did not sign as it stands (or not for this casino)."""


def canonical(document: dict[str, Any]) -> bytes:
    """The bytes a signature covers: the object without ``"signature"``, keys sorted."""
    body = {key: value for key, value in document.items() if key != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sign(document: dict[str, Any], key: ec.EllipticCurvePrivateKey) -> dict[str, Any]:
    """``document`` with the authority's signature added (the authority's side)."""
    signature = key.sign(canonical(document), ec.ECDSA(hashes.SHA256()))
    return {**document, "signature": base64.b64encode(signature).decode()}


def verify(document: dict[str, Any], certificate: x509.Certificate) -> dict[str, Any]:
    """``document`` if the authority's certificate verifies its signature; else DocumentInvalid."""
    if not isinstance(document, dict) or not isinstance(document.get("signature"), str):
        raise DocumentInvalid("not a signed document of the authority")
    public_key = certificate.public_key()
    if not isinstance(public_key, ec.EllipticCurvePublicKey):
        raise DocumentInvalid("the authority's certificate holds no EC key")
    try:
        signature = base64.b64decode(document["signature"], validate=True)
        public_key.verify(signature, canonical(document), ec.ECDSA(hashes.SHA256()))
    except (InvalidSignature, ValueError) as error:
        raise DocumentInvalid("the authority's signature does not verify") from error
    if document.get("version") != VERSION or document.get("kind") not in (ENROLMENT, REVOCATION):
        raise DocumentInvalid("unknown kind or version of document")
    return document


def load_certificate(pem: bytes) -> x509.Certificate:
    return x509.load_pem_x509_certificate(pem)


@lru_cache(maxsize=4)
def _certificate_at(path: str, mtime: float) -> x509.Certificate:
    return load_certificate(Path(path).read_bytes())


def configured_certificate() -> x509.Certificate | None:
    """The certificate of ``settings.OFFICER_AUTHORITY_CERTIFICATE`` (None when unset)."""
    from django.conf import settings

    path = getattr(settings, "OFFICER_AUTHORITY_CERTIFICATE", "")
    if not path:
        return None
    file = Path(path)
    return _certificate_at(str(file), file.stat().st_mtime)


def fingerprint(certificate: x509.Certificate) -> str:
    """SHA-256 of the certificate, hex: what an officer compares with the authority's own."""
    return certificate.fingerprint(hashes.SHA256()).hex()


def parse_moment(value: Any) -> dt.datetime:
    moment = dt.datetime.fromisoformat(str(value))
    if moment.tzinfo is None:
        raise DocumentInvalid(f"{value!r}: a moment needs its time zone")
    return moment


def enrolment(
    *,
    username: str,
    name: str,
    casino: str,
    valid_from: dt.datetime,
    valid_to: dt.datetime,
    rp_id: str,
    credential_id: str,
    public_key: str,
    serial: str,
    issued_at: dt.datetime,
) -> dict[str, Any]:
    """An enrolment (unsigned): ``credential_id`` and ``public_key`` (COSE) base64url, as the
    officer's authenticator gave them when it made the passkey for ``rp_id``."""
    return {
        "version": VERSION,
        "kind": ENROLMENT,
        "serial": serial,
        "casino": casino,
        "officer": {"username": username, "name": name},
        "valid_from": valid_from.isoformat(),
        "valid_to": valid_to.isoformat(),
        "rp_id": rp_id,
        "credential_id": credential_id,
        "public_key": public_key,
        # the same key as a SubjectPublicKeyInfo: the offline verifier reads it without CBOR
        "public_key_spki": spki_of(public_key),
        "issued_at": issued_at.isoformat(),
    }


def revocation(*, serial: str, casino: str, at: dt.datetime, reason: str) -> dict[str, Any]:
    """The revocation (unsigned) of the enrolment ``serial``, from ``at``."""
    return {
        "version": VERSION,
        "kind": REVOCATION,
        "serial": serial,
        "casino": casino,
        "at": at.isoformat(),
        "reason": reason,
    }


@dataclass
class DevAuthority:
    key: Path
    certificate: Path


def make_dev_authority(
    out: Path, *, name: str = "Autorité de démonstration", days: int = 3 * 365
) -> DevAuthority:
    """A demo authority: ``authority-key.pem`` (kept by the authority, never on a real
    casino's server) and ``authority.pem`` (its certificate, for the casino's settings)."""
    out.mkdir(parents=True, exist_ok=True)
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Démonstration — aucune valeur"),
            x509.NameAttribute(NameOID.COMMON_NAME, name[:64]),
        ]
    )
    now = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(now + dt.timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(key, hashes.SHA256())
    )
    key_file = out / "authority-key.pem"
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    key_file.chmod(0o600)
    cert_file = out / "authority.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return DevAuthority(key=key_file, certificate=cert_file)


def load_key(path: Path) -> ec.EllipticCurvePrivateKey:
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise DocumentInvalid(f"{path}: not an EC private key")
    return key
