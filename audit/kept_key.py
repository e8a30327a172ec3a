"""The casino's signer, its private key read once (imported where a signature is made: it
imports pyHanko, which :mod:`audit.signing` leaves out of Django's start-up)."""

from __future__ import annotations

from typing import Any, cast

from asn1crypto import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ec import ECDSA, EllipticCurvePrivateKey
from cryptography.hazmat.primitives.asymmetric.padding import PKCS1v15
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey
from pyhanko.sign import signers
from pyhanko_certvalidator.util import get_pyca_cryptography_hash


class KeptKeySigner(signers.SimpleSigner):
    """pyHanko's signer from a PKCS#12 file, its private key read once rather than for every
    signature: pyHanko's ``SimpleSigner`` parses the key again for each one, and parsing an RSA
    key checks it (about a quarter of a second of CPU). Signs exactly as pyHanko does (PKCS#1
    v1.5 and ECDSA here; any other mechanism by pyHanko itself)."""

    def __init__(self, loaded: signers.SimpleSigner) -> None:
        super().__init__(
            signing_cert=cast(x509.Certificate, loaded.signing_cert),
            signing_key=loaded.signing_key,
            cert_registry=loaded.cert_registry,
            signature_mechanism=loaded.signature_mechanism,
            prefer_pss=loaded.prefer_pss,
            embed_roots=loaded.embed_roots,
        )
        self._private_key: Any = None

    def sign_raw(self, data: bytes, digest_algorithm: str) -> bytes:
        mechanism = self.get_signature_mechanism_for_digest(digest_algorithm)
        try:
            algorithm = mechanism.signature_algo
        except ValueError:
            algorithm = mechanism["algorithm"].native
        if self._private_key is None:
            self._private_key = serialization.load_der_private_key(self.signing_key.dump(), password=None)
        key = self._private_key
        if algorithm == "rsassa_pkcs1v15" and isinstance(key, RSAPrivateKey):
            return key.sign(data, PKCS1v15(), get_pyca_cryptography_hash(digest_algorithm))
        if algorithm == "ecdsa" and isinstance(key, EllipticCurvePrivateKey):
            return key.sign(data, signature_algorithm=ECDSA(get_pyca_cryptography_hash(digest_algorithm)))
        return super().sign_raw(data, digest_algorithm)
