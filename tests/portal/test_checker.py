"""The signature checker: a register the casino signed and issued, a changed byte, a
signature by another authority, a signed file the system never issued, not a PDF."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.sign import signers

from audit import devcert
from audit import signing as casino_signing
from inspection.portal.checker import check_pdf

from .samples import module_casino, module_clients, module_devices, module_samples, module_users  # noqa: F401 - made once for the module

URL = "/inspection/signatures/"


def _upload(client: Any, data: bytes) -> Any:
    return client.post(URL, {"pdf": SimpleUploadedFile("registre.pdf", data, content_type="application/pdf")})


@pytest.mark.django_db
def test_a_register_the_casino_issued(officer_client, samples) -> None:
    pdf = samples.report.file.read()
    result = check_pdf(pdf)
    assert result.signed_ok and result.issued
    assert result.reports == [samples.report]
    (sig,) = result.signatures
    assert sig.intact and sig.valid and sig.trusted and sig.covers_whole_file and sig.is_casino_certificate
    page = _upload(officer_client, pdf).content.decode()
    assert "Registre authentique" in page
    assert "Carnet de prise en charge des jeux de cartes, du 01/11/2026 au 30/11/2026" in page
    assert samples.report.sha256 in page


@pytest.mark.django_db
def test_one_changed_byte_breaks_the_signature(officer_client, samples) -> None:
    pdf = bytearray(samples.report.file.read())
    # Change a byte inside the signed range (the first object after the header).
    index = pdf.index(b"obj") + 10
    pdf[index] = (pdf[index] + 1) % 256
    result = check_pdf(bytes(pdf))
    assert not result.issued
    assert not result.signed_ok
    assert (
        "Signature absente, altérée ou non reconnue" in _upload(officer_client, bytes(pdf)).content.decode()
    )


@pytest.mark.django_db
def test_signed_by_the_casino_but_never_issued(signing) -> None:
    pdf = casino_signing.sign_pdf(_blank_pdf())
    result = check_pdf(pdf)
    assert result.signed_ok
    assert not result.issued


@pytest.mark.django_db
def test_another_authority_is_not_trusted(samples, tmp_path) -> None:
    other = devcert.make_dev_certificate(tmp_path / "other", casino="Faux casino")
    signer = signers.SimpleSigner.load_pkcs12(pfx_file=str(other.pkcs12), passphrase=other.password.encode())
    out = signers.sign_pdf(
        IncrementalPdfFileWriter(io.BytesIO(_blank_pdf())),
        signers.PdfSignatureMetadata(field_name="Signature1", md_algorithm="sha256"),
        signer=signer,
    )
    result = check_pdf(out.getvalue())
    (sig,) = result.signatures
    assert sig.intact and sig.valid
    assert not sig.trusted and not sig.is_casino_certificate
    assert not result.signed_ok


@pytest.mark.django_db
def test_not_a_pdf_is_refused_with_the_reason(officer_client, samples) -> None:
    response = _upload(officer_client, b"hello, not a pdf")
    assert response.status_code == 400
    assert "pas un PDF (il ne commence pas par %PDF-)" in response.content.decode()


def _blank_pdf() -> bytes:
    from weasyprint import HTML

    return HTML(string="<p>Document de test</p>").write_pdf()


@pytest.mark.django_db
def test_a_tampered_pdf_never_reads_signature_valid(officer_client, samples, tmp_path) -> None:
    """The verdict is one: "valide" only when the content is intact, the certificate
    trusted and the whole file covered — never beside "contenu modifié"."""
    import re

    pdf = bytearray(samples.report.file.read())
    index = pdf.index(b"obj") + 10
    pdf[index] = (pdf[index] + 1) % 256
    page = _upload(officer_client, bytes(pdf)).content.decode()
    rows = dict(re.findall(r"<dt>([^<]+)</dt><dd>(.*?)</dd>", page))
    assert "contenu modifié" in rows["Intégrité"]
    assert "non valide" in rows["Signature"] and '"ok">valide' not in rows["Signature"]
    good = _upload(officer_client, samples.report.file.open("rb").read()).content.decode()
    assert '<dt>Signature</dt><dd><span class="ok">valide</span>' in good


@pytest.mark.django_db
def test_the_casino_certificate_is_never_said_unrecognised(officer_client, samples) -> None:
    """One word on the certificate per file: a register signed with the casino's own
    certificate is never shown "certificat non reconnu" beside "certificat du casino", even
    when a changed byte breaks the signature (the content is what the verdict then rejects)."""
    import re

    pdf = bytearray(samples.report.file.read())
    index = pdf.index(b"obj") + 10
    pdf[index] = (pdf[index] + 1) % 256
    for data in (bytes(pdf), samples.report.file.open("rb").read()):
        page = _upload(officer_client, data).content.decode()
        rows = dict(re.findall(r"<dt>([^<]+)</dt><dd>(.*?)</dd>", page))
        assert "certificat du casino" in rows["Signataire"]
        assert "certificat non reconnu" not in page, rows
    assert (
        "non valide"
        in dict(
            re.findall(
                r"<dt>([^<]+)</dt><dd>(.*?)</dd>", _upload(officer_client, bytes(pdf)).content.decode()
            )
        )["Signature"]
    )
