"""A certificate authority and a signing certificate for the demo and the tests.

A casino signs with the certificate its trust service provider issued; this
module only makes a stand-in with the same shape: a CA (basicConstraints
CA:TRUE, keyCertSign) and a signer certificate with the non-repudiation and
digital-signature key usages, in a PKCS#12 file.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID


@dataclass
class DevCertificate:
    ca_pem: Path
    pkcs12: Path
    password: str


def _fit(text: str, limit: int = 64) -> str:
    """At most ``limit`` UTF-8 bytes (X.520 upper bound), cut on a character."""
    data = text.encode("utf-8")[:limit]
    return data.decode("utf-8", errors="ignore").strip() or "Casino"


def _name(common_name: str, casino: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.COUNTRY_NAME, "FR"),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, _fit(casino)),
            x509.NameAttribute(NameOID.COMMON_NAME, _fit(common_name)),
        ]
    )


def make_dev_certificate(
    out: Path, *, casino: str = "Casino", password: str | None = None, days: int = 3 * 365
) -> DevCertificate:
    out.mkdir(parents=True, exist_ok=True)
    password = password or secrets.token_urlsafe(18)
    now = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)
    until = now + dt.timedelta(days=days)

    ca_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ca_name = _name(f"{casino} — autorité de démonstration", casino)
    ca_cert = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(until)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(f"{casino} — signature des registres", casino))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(until)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=True,  # non-repudiation
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )

    ca_pem = out / "ca.pem"
    ca_pem.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    p12 = out / "signer.p12"
    p12.write_bytes(
        pkcs12.serialize_key_and_certificates(
            name=b"casino-signer",
            key=key,
            cert=cert,
            cas=[ca_cert],
            encryption_algorithm=serialization.BestAvailableEncryption(password.encode()),
        )
    )
    p12.chmod(0o600)
    return DevCertificate(ca_pem=ca_pem, pkcs12=p12, password=password)
