"""The casino's signature: PAdES PDFs, CMS data, the missing certificate, time stamps."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from audit import signing
from audit.devcert import make_dev_certificate
from inspection.registers import get_register
from inspection.registers.base import Request
from inspection.registers.render import print_register

from .conftest import assert_signed_and_tamper_evident, pyhanko_validate


@pytest.mark.django_db
def test_a_signed_register_validates_with_pyhanko_and_pdfsig_and_one_byte_breaks_it(
    signing_configured: Any, nss_db: str, tmp_path: Path
) -> None:
    printed = print_register(get_register("receipt-book"), Request(dt.date(2026, 1, 1), dt.date(2026, 1, 31)))
    pdf = tmp_path / "receipt-book.pdf"
    pdf.write_bytes(printed.pdf)
    assert_signed_and_tamper_evident(pdf, tmp_path, signing_configured.ca_pem, nss_db)


def test_the_dev_certificate_has_the_key_usages_validators_ask_for(tmp_path: Path) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import pkcs12

    made = make_dev_certificate(tmp_path, casino="Casino de la Côte — démonstration", password="pw")
    ca = x509.load_pem_x509_certificate(made.ca_pem.read_bytes())
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca is True
    assert ca.extensions.get_extension_for_class(x509.KeyUsage).value.key_cert_sign is True
    key, cert, extra = pkcs12.load_key_and_certificates(made.pkcs12.read_bytes(), b"pw")
    usage = cert.extensions.get_extension_for_class(x509.KeyUsage).value
    assert usage.content_commitment and usage.digital_signature  # non-repudiation
    assert cert.issuer == ca.subject


@pytest.mark.django_db  # it first asks the database whether it holds any act (then it refuses)
def test_make_dev_certificate_prints_the_two_settings_lines(tmp_path: Path, capsys: Any) -> None:
    call_command("make_dev_certificate", "--out", str(tmp_path / "dev"), "--casino", "Casino X")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"SIGNING_PKCS12={(tmp_path / 'dev' / 'signer.p12').resolve()}"
    assert lines[1].startswith("SIGNING_PKCS12_PASSWORD=") and len(lines[1]) > 30
    assert (tmp_path / "dev" / "ca.pem").is_file()


@pytest.mark.django_db
def test_without_a_certificate_making_a_register_says_so(settings: Any, tmp_path: Path) -> None:
    settings.SIGNING_PKCS12 = ""
    with pytest.raises(signing.SigningNotConfigured) as refused:
        print_register(get_register("receipt-book"), Request(dt.date(2026, 1, 1), dt.date(2026, 1, 2)))
    assert "SIGNING_PKCS12" in str(refused.value) and "make_dev_certificate" in str(refused.value)
    with pytest.raises(CommandError, match="SIGNING_NOT_CONFIGURED: Aucun certificat de signature"):
        call_command(
            "register",
            "receipt-book",
            "--from",
            "2026-01-01",
            "--to",
            "2026-01-02",
            "--output",
            str(tmp_path / "x.pdf"),
        )
    assert not (tmp_path / "x.pdf").exists()


def test_a_missing_file_or_a_wrong_password_is_said_clearly(settings: Any, dev_cert: Any) -> None:
    settings.SIGNING_PKCS12 = "/nonexistent/signer.p12"
    with pytest.raises(signing.SigningNotConfigured, match="n'existe pas"):
        signing.get_signer()
    settings.SIGNING_PKCS12 = str(dev_cert.pkcs12)
    settings.SIGNING_PKCS12_PASSWORD = "wrong"
    with pytest.raises(Exception, match="(?i)mot de passe|password|mac"):
        signing.get_signer()


def test_the_signer_is_loaded_once_per_process(signing_configured: Any, monkeypatch: Any) -> None:
    from pyhanko.sign import signers  # imported by audit.signing when it first signs

    signing._cache.clear()
    calls = []
    original = signers.SimpleSigner.load_pkcs12

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(signers.SimpleSigner, "load_pkcs12", counting)
    first = signing.get_signer()
    assert signing.get_signer() is first
    signing.sign_data(b"one")
    signing.sign_data(b"two")
    assert len(calls) == 1


def _blank_pdf() -> bytes:
    import io

    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=595, height=842)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_the_room_for_a_signature_is_estimated_once_per_signer(
    signing_configured: Any, monkeypatch: Any, settings: Any, dev_cert: Any, tmp_path: Path
) -> None:
    """pyHanko estimates the room a signature needs by making a dry-run signature (as much work
    again as the signature): its size depends only on the certificate and the time stamper, so
    it is made once per process and signer, and every PDF gets the room the first one got."""
    from pyhanko.sign.signers.pdf_signer import PdfSigningSession

    signing._cache.clear()
    calls = []
    original = PdfSigningSession.estimate_signature_container_size

    async def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(PdfSigningSession, "estimate_signature_container_size", counting)
    first, second = signing.sign_pdf(_blank_pdf()), signing.sign_pdf(_blank_pdf())
    assert len(calls) == 1
    assert signing.reserved_room(first) == signing.reserved_room(second) > 0
    assert len(first) == len(second)
    for n, data in enumerate((first, second)):
        pdf = tmp_path / f"{n}.pdf"
        pdf.write_bytes(data)
        code, text = pyhanko_validate(pdf, dev_cert.ca_pem)
        assert code == 0 and ":VALID" in text, text
    # another certificate: estimated again, for its own size
    other = make_dev_certificate(tmp_path / "other", casino="Autre casino", password="pw")
    settings.SIGNING_PKCS12, settings.SIGNING_PKCS12_PASSWORD = str(other.pkcs12), other.password
    signing.sign_pdf(_blank_pdf())
    assert len(calls) == 2


def test_the_private_key_is_read_once_and_signs_as_pyhanko_does(
    signing_configured: Any, monkeypatch: Any
) -> None:
    """pyHanko's signer parses its private key again for every signature (an RSA key is checked
    as it is parsed: a quarter of a second each); the casino's signer reads it once, and its
    signatures are those pyHanko's own signer makes (PKCS#1 v1.5: the same bytes)."""
    from cryptography.hazmat.primitives import serialization
    from pyhanko.sign import signers

    signing._cache.clear()
    signer = signing.get_signer()
    own = signers.SimpleSigner.load_pkcs12(
        pfx_file=str(signing_configured.pkcs12), passphrase=signing_configured.password.encode()
    )
    assert own.sign_raw(b"data", "sha256") == signer.sign_raw(b"data", "sha256")
    calls = []
    original = serialization.load_der_private_key

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(serialization, "load_der_private_key", counting)
    signing.sign_pdf(_blank_pdf())
    signing.sign_data(b"one")
    signing.sign_pdf(_blank_pdf())
    assert calls == []


def test_cms_signature_detached_and_attached(signing_configured: Any) -> None:
    signature = signing.sign_data(b"seq 12 hash abc")
    assert signing.verify_data(signature, b"seq 12 hash abc").ok
    assert not signing.verify_data(signature, b"seq 12 hash abd").ok
    assert not signing.verify_data(b"not a signature", b"x").ok
    attached = signing.sign_data(b'{"a":1}', detached=False)
    check = signing.verify_data(attached)
    assert check.ok and check.content == b'{"a":1}'
    assert check.certificate == signing.signer_certificate_der()


# --- RFC 3161 time stamps, against a mocked time-stamp server ----------------------


@pytest.mark.django_db
def test_a_time_stamp_is_added_when_a_server_is_configured(
    signing_configured: Any, settings: Any, mock_tsa: Any, tmp_path: Path
) -> None:
    import io

    from pyhanko.pdf_utils.reader import PdfFileReader

    url, seen = mock_tsa
    settings.TIMESTAMP_URL = url
    signing._cache.clear()
    stamper = signing.get_timestamper()
    for _ in range(2):
        printed = print_register(
            get_register("receipt-book"), Request(dt.date(2026, 1, 1), dt.date(2026, 1, 2))
        )
    assert signing.get_timestamper() is stamper  # one object for the process
    assert len(seen) >= 2  # one stamp per document (pyHanko first probes the token's size)
    stamped = len(seen)
    sig = PdfFileReader(io.BytesIO(printed.pdf)).embedded_signatures[0]
    unsigned = sig.signer_info["unsigned_attrs"]
    assert any(attr["type"].native == "signature_time_stamp_token" for attr in unsigned)
    # and a CMS checkpoint signature carries one as well
    signature = signing.sign_data(b"checkpoint")
    assert len(seen) == stamped + 1
    assert signing.verify_data(signature, b"checkpoint").ok


@pytest.mark.django_db
def test_without_a_time_stamp_server_no_time_stamp(signing_configured: Any) -> None:
    import io

    from pyhanko.pdf_utils.reader import PdfFileReader

    printed = print_register(get_register("receipt-book"), Request(dt.date(2026, 1, 1), dt.date(2026, 1, 2)))
    sig = PdfFileReader(io.BytesIO(printed.pdf)).embedded_signatures[0]
    assert not sig.signer_info["unsigned_attrs"]
