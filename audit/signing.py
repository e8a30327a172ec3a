"""The casino's electronic signature (FR art. 68: computerised books are validated
by electronic signature).

One PKCS#12 file holds the casino's signing key and certificate; the settings
name it (``SIGNING_PKCS12``, ``SIGNING_PKCS12_PASSWORD``). It signs:

- the registers, as PDF (PAdES baseline, invisible signature field), which any
  PDF tool can check (``pyhanko sign validate``, poppler's ``pdfsig``, Acrobat);
- the checkpoints of the audit record and their export, as CMS signed data
  (``openssl cms -verify`` checks them).

When ``TIMESTAMP_URL`` names an RFC 3161 time-stamp server, every signature
carries a time stamp from it. The signer and the time stamper are loaded once
per process (a Celery worker child signs many documents with them).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from asn1crypto import cms, x509
from django.conf import settings
from django.db import DatabaseError
from django.utils.translation import gettext as _

from casino_ops.regulations import RegulationError, cite
from casino_ops.services import get_casino

if TYPE_CHECKING:
    from pyhanko.sign import signers, timestamps
    from pyhanko_certvalidator import ValidationContext

# pyHanko (with aiohttp, for time stamps) is imported where a signature is made or checked,
# not with this module: every process that starts Django imports it through the apps, and
# most (a management command, a sealer) never sign; it costs about a second to import.

# pyHanko logs a warning with a whole traceback each time it cannot build a path
# to a trusted root; here trust is decided by comparing certificates (see
# _integrity_only), so that is expected and never worth a traceback.
logging.getLogger("pyhanko.sign.validation.generic_cms").setLevel(logging.ERROR)

FIELD_NAME = "Signature1"
DIGEST = "sha256"

_lock = threading.Lock()
_cache: dict[str, Any] = {}  # "signer" -> (key, signer); "tsa" -> (url, stamper); "reserved" -> (key, size)
_BYTE_RANGE = re.compile(rb"/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]")


class SigningNotConfigured(RegulationError):
    """No usable signing certificate: nothing is signed, so nothing is issued."""


def preload() -> None:
    """Import pyHanko now: a Celery worker does it before it forks its children (they sign)."""
    import pyhanko.pdf_utils.incremental_writer
    import pyhanko.sign.fields
    import pyhanko.sign.timestamps
    import pyhanko.sign.validation
    import pyhanko.sign.validation.generic_cms  # noqa: F401

    from . import kept_key  # noqa: F401  # deferred: it imports pyHanko


def _config() -> tuple[str, str]:
    path = getattr(settings, "SIGNING_PKCS12", "") or ""
    password = getattr(settings, "SIGNING_PKCS12_PASSWORD", "") or ""
    return str(path), str(password)


def no_erasure_article() -> str:
    """The article on books kept without erasure under the casino's regulation (FR art. 68,
    LU art. 10): what the signed registers and checkpoints cite."""
    try:
        profile = get_casino().profile
    except (DatabaseError, RuntimeError):  # no database to read (a configuration check): the default
        profile = "FR"
    return cite("books.no_erasure", profile)


def _not_configured(detail: str) -> SigningNotConfigured:
    return SigningNotConfigured(
        "SIGNING_NOT_CONFIGURED",
        _(
            "Aucun certificat de signature utilisable : %(detail)s Les registres et les points de "
            "contrôle doivent être validés par signature électronique. Définissez SIGNING_PKCS12 "
            "(chemin du fichier PKCS#12 du casino) et SIGNING_PKCS12_PASSWORD ; pour une "
            "démonstration : python manage.py make_dev_certificate --out var/signing"
        )
        % {"detail": detail},
        no_erasure_article(),
        field="SIGNING_PKCS12",
    )


def is_configured() -> bool:
    path, _password = _config()
    return bool(path) and Path(path).is_file()


def _signer_key() -> tuple[Path, str, str]:
    """The PKCS#12 file, its password, and a key that changes with either (or the file's content)."""
    path, password = _config()
    if not path:
        raise _not_configured(_("SIGNING_PKCS12 n'est pas défini."))
    file = Path(path)
    if not file.is_file():
        raise _not_configured(_("le fichier %(path)s n'existe pas.") % {"path": path})
    return file, password, f"{path}:{file.stat().st_mtime_ns}:{password}"


def get_signer() -> signers.SimpleSigner:
    """The casino's signer, loaded once per process (reloaded if the settings change)."""
    file, password, key = _signer_key()
    path = str(file)
    with _lock:
        cached_key, cached = _cache.get("signer", (None, None))
        signer: signers.SimpleSigner | None = cached if cached_key == key else None
        if signer is None:
            from pyhanko.sign import signers

            from .kept_key import KeptKeySigner  # deferred: it imports pyHanko

            loaded = signers.SimpleSigner.load_pkcs12(  # type: ignore[no-untyped-call]  # unannotated in pyhanko
                pfx_file=str(file), passphrase=password.encode() if password else None
            )
            if loaded is None:
                raise _not_configured(
                    _("le fichier %(path)s ne s'ouvre pas avec ce mot de passe.") % {"path": path}
                )
            signer = KeptKeySigner(loaded)
            _cache["signer"] = (key, signer)
    return signer


def get_timestamper() -> timestamps.TimeStamper | None:
    """The RFC 3161 time stamper of ``TIMESTAMP_URL``, or None (loaded once per process)."""
    url = getattr(settings, "TIMESTAMP_URL", "") or ""
    if not url:
        return None
    with _lock:
        cached_url, cached = _cache.get("tsa", (None, None))
        stamper: timestamps.TimeStamper | None = cached if cached_url == url else None
        if stamper is None:
            from pyhanko.sign import timestamps

            stamper = timestamps.HTTPTimeStamper(url, timeout=getattr(settings, "TIMESTAMP_TIMEOUT", 10))
            _cache["tsa"] = (url, stamper)
    return stamper


def _certificate() -> x509.Certificate:
    # pyhanko types it optional; a signer loaded from a PKCS#12 file always has one
    return cast(x509.Certificate, get_signer().signing_cert)


def signer_subject() -> str:
    return str(_certificate().subject.human_friendly)


def sign_pdf(pdf: bytes) -> bytes:
    """Sign a PDF for the casino: PAdES baseline, invisible field, time stamp if configured."""
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import signers
    from pyhanko.sign.fields import SigSeedSubFilter

    signer = get_signer()
    meta = signers.PdfSignatureMetadata(
        field_name=FIELD_NAME,
        md_algorithm=DIGEST,
        subfilter=SigSeedSubFilter.PADES,
        reason=_("Registre validé par signature électronique (%(article)s)")
        % {"article": no_erasure_article()},
    )
    # pyHanko reserves room for the signature by making a whole dry-run signature first (as much
    # work again as the signature itself), its size depending only on the certificate and the
    # time stamper: reserved once per signer and stamper, the same room as pyHanko's own estimate
    room_key = f"{_signer_key()[2]}|{getattr(settings, 'TIMESTAMP_URL', '') or ''}"
    cached_key, reserved = _cache.get("reserved", (None, None))
    out: io.BytesIO = signers.sign_pdf(
        IncrementalPdfFileWriter(io.BytesIO(pdf), strict=False),
        meta,
        signer=signer,
        timestamper=get_timestamper(),
        bytes_reserved=reserved if cached_key == room_key else None,
    )
    signed = out.getvalue()
    if cached_key != room_key:
        _cache["reserved"] = (room_key, reserved_room(signed))
    return signed


def reserved_room(pdf: bytes) -> int:
    """The room (hexadecimal digits) the last signature of ``pdf`` was given: the gap of its
    /ByteRange, less the two angle brackets of its /Contents string."""
    found = _BYTE_RANGE.findall(pdf)
    _start, first_length, second_start, _second_length = (int(n) for n in found[-1])
    return second_start - first_length - 2


def sign_data(data: bytes, *, detached: bool = True) -> bytes:
    """CMS signed data over ``data`` (DER); ``detached=False`` embeds ``data`` in it."""
    signer = get_signer()
    content = asyncio.run(
        signer.async_sign_general_data(data, DIGEST, detached=detached, timestamper=get_timestamper())
    )
    return bytes(content.dump())


@dataclass
class CmsCheck:
    intact: bool
    valid: bool
    signer: str
    content: bytes | None = None
    certificate: bytes = b""

    @property
    def ok(self) -> bool:
        return self.intact and self.valid


def verify_data(signature: bytes, data: bytes | None = None) -> CmsCheck:
    """Check a CMS signature: over ``data`` if detached, else over its own content.

    Checks integrity (the digest) and the signature with the certificate it
    carries; whether that certificate is the casino's is the caller's concern.
    """
    from pyhanko.sign.validation import async_validate_detached_cms
    from pyhanko.sign.validation.generic_cms import async_validate_cms_signature

    try:
        info = cms.ContentInfo.load(signature)
        signed_data = info["content"]
        embedded = signed_data["encap_content_info"]["content"].native
    except Exception:  # any malformed input is simply not a valid signature
        return CmsCheck(intact=False, valid=False, signer="")
    try:
        if data is None:
            if embedded is None:
                return CmsCheck(intact=False, valid=False, signer="")
            status = asyncio.run(
                async_validate_cms_signature(signed_data, validation_context=_integrity_only())
            )
            content = embedded
        else:
            status = asyncio.run(
                async_validate_detached_cms(data, signed_data, signer_validation_context=_integrity_only())
            )
            content = data
    except Exception:
        return CmsCheck(intact=False, valid=False, signer="")
    return CmsCheck(
        intact=bool(status.intact),
        valid=bool(status.valid),
        signer=status.signing_cert.subject.human_friendly if status.signing_cert else "",
        content=content,
        certificate=status.signing_cert.dump() if status.signing_cert else b"",
    )


def _integrity_only() -> ValidationContext:
    # The digest and the signature are checked; trust in the certificate is
    # decided by comparing it with the casino's (no system trust store).
    from pyhanko_certvalidator import ValidationContext

    return ValidationContext(trust_roots=[])


def signer_certificate_der() -> bytes:
    return bytes(_certificate().dump())
