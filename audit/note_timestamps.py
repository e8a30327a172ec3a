"""RFC 3161 time-stamps over the checkpoint notes: a second source of time from outside.

When ``TIMESTAMP_URL`` names a time-stamp server, each checkpoint note (its text and the
casino's signature) is time-stamped once (``rfc3161-client``: a request with a nonce, the
answer's imprint and nonce checked) and the answer kept (:class:`audit.models.NoteTimeStamp`).
The server's time bounds the events the note covers from above, as a cosignature's does
(:mod:`audit.witness_times`). With ``AUDIT_TIMESTAMP_CA`` (the server's root certificate,
PEM), verify_audit also checks the answer's signature.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import urllib.request
from pathlib import Path

from django.conf import settings
from rfc3161_client import (
    HashAlgorithm,
    TimestampRequestBuilder,
    TimeStampResponse,
    VerifierBuilder,
    decode_timestamp_response,
)

from .models import CheckpointNote, NoteTimeStamp

log = logging.getLogger(__name__)


class TimeStampError(ValueError):
    """An answer that is not a time-stamp of the note."""


def _ask(url: str, data: bytes) -> TimeStampResponse:
    request = (
        TimestampRequestBuilder().data(data).hash_algorithm(HashAlgorithm.SHA256).nonce(nonce=True).build()
    )
    http = urllib.request.Request(
        url, data=request.as_bytes(), method="POST", headers={"Content-Type": "application/timestamp-query"}
    )
    timeout = float(getattr(settings, "AUDIT_WITNESS_TIMEOUT", 10.0))
    with urllib.request.urlopen(http, timeout=timeout) as answer:  # the configured server
        response = decode_timestamp_response(bytes(answer.read()))
    if response.status not in (0, 1):
        raise TimeStampError(f"the server refused: status {response.status} {response.status_string}")
    check(response, data)
    if response.tst_info.nonce != request.nonce:
        raise TimeStampError("the answer's nonce is not the request's")
    return response


def check(response: TimeStampResponse, data: bytes) -> dt.datetime:
    """The answer's time, once its imprint is the SHA-256 of ``data`` (and, with
    ``AUDIT_TIMESTAMP_CA``, its signature verifies up to that root)."""
    if response.tst_info.message_imprint.message != hashlib.sha256(data).digest():
        raise TimeStampError("the time-stamp is not over this note")
    ca = str(getattr(settings, "AUDIT_TIMESTAMP_CA", "") or "")
    if ca:
        from cryptography import x509

        root = x509.load_pem_x509_certificate(Path(ca).read_bytes())
        try:
            VerifierBuilder(roots=[root]).build().verify_message(response, data)
        except Exception as error:  # the library's VerificationError and its parsers' errors
            raise TimeStampError(f"the time-stamp's signature does not verify: {error}") from error
    gen_time = response.tst_info.gen_time
    return gen_time if gen_time.tzinfo else gen_time.replace(tzinfo=dt.UTC)


def stamp_pending(limit: int = 20) -> int:
    """Time-stamp the notes that have none yet (oldest first); how many were stamped."""
    url = str(getattr(settings, "TIMESTAMP_URL", "") or "")
    if not url:
        return 0
    stamped = 0
    for note in CheckpointNote.objects.filter(time_stamp__isnull=True).order_by("size")[:limit]:
        data = note.note.encode("utf-8")
        try:
            response = _ask(url, data)
        except (OSError, ValueError) as error:
            log.warning("time-stamp of the checkpoint note of size %s: %s", note.size, error)
            return stamped
        NoteTimeStamp.objects.create(note=note, response=response.as_bytes(), gen_time=check(response, data))
        stamped += 1
    return stamped
