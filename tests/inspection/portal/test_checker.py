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
from tests.support.samples import module_casino, module_clients, module_devices, module_samples, module_users  # noqa: F401 - made once for the module

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


def _register_of_today(director: Any) -> Any:
    """The receipt book of the days up to today, signed now (the officer's visa is today's)."""
    from django.utils import timezone

    from tests.support.samples import DAY

    today = timezone.localdate()
    from inspection.registers.reports import produce_report, request_report

    report = request_report(
        actor=director, register="receipt-book", date_from=DAY.replace(day=1), date_to=today, enqueue=False
    )
    return produce_report(report.pk, inline_parts=True)


@pytest.mark.django_db
def test_each_officers_visa_of_the_register_is_said_verified(officer_client: Any, samples: Any) -> None:
    """An issued register lists each officer's act of its book and period, verified as verify_audit
    does: his name, the act, its time and the fingerprint of his passkey signature."""
    from audit.officer_acts import check_officer_acts
    from cards_registry import services as depot
    from casino_ops import roles

    officer = samples.users[roles.OFFICER]
    depot.stamp_reception(actor=officer, reception=samples.reception, remark="vu")  # his passkey signs
    report = _register_of_today(samples.users[roles.DIRECTOR])
    result = check_pdf(report.file.read())
    assert result.issued
    (act,) = result.officer_acts
    assert act.ok and act.action == "depot.reception_stamped" and act.officer == officer.username
    assert (act.seq, act.officer, act.fingerprint) in check_officer_acts().verified
    name, fingerprint = act.officer, act.fingerprint
    page = _upload(officer_client, report.file.open("rb").read()).content.decode()
    assert f"Visa de l'officier {name} vérifié" in page
    assert fingerprint in page
    english = officer_client.post(
        URL,
        {"pdf": SimpleUploadedFile("register.pdf", report.file.open("rb").read())},
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert f"Officer {name}&#x27;s visa verified" in english or f"Officer {name}'s visa verified" in english
    assert f"fingerprint {fingerprint}" in english


@pytest.mark.django_db
def test_a_visa_written_with_the_casinos_keys_is_said_not_verified(officer_client: Any, samples: Any) -> None:
    """A visa event the casino's server wrote by itself (a valid MAC, no passkey signature) is named
    under the register: not verified, and why."""
    import audit
    from audit.actions import Action
    from casino_ops import roles

    officer = samples.users[roles.OFFICER]
    audit.record(
        actor=officer, action=Action.DEPOT_RECEPTION_STAMPED, obj=samples.reception, payload={"remark": "vu"}
    )
    report = _register_of_today(samples.users[roles.DIRECTOR])
    result = check_pdf(report.file.read())
    (act,) = result.officer_acts
    assert not act.ok and act.problem
    page = _upload(officer_client, report.file.open("rb").read()).content.decode()
    assert f"Visa de l'officier {officer.username} NON vérifié" in page


@pytest.mark.django_db
def test_a_register_of_another_book_lists_no_visa(samples: Any) -> None:
    """The order book's visas are not the receipt book's: a register lists its own book's acts."""
    from cards_registry import services as depot
    from casino_ops import roles

    depot.stamp_order(actor=samples.users[roles.OFFICER], order=samples.order, remark="vu")
    report = _register_of_today(samples.users[roles.DIRECTOR])
    assert check_pdf(report.file.read()).officer_acts == []


def test_a_proof_checked_without_a_witness_policy_is_said_in_words(settings: Any) -> None:
    """The portal says in words that no witness policy is configured on this server; the
    setting's name is for the docs and the logs, not the screen."""
    import re

    from pypdf import PdfWriter

    from inspection import verifier
    from inspection.portal.checker import embedded_proof

    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    writer.add_attachment("registre.tlog-proof", f"{verifier.TLOG_PROOF}\nindex 1\n".encode())
    out = io.BytesIO()
    writer.write(out)
    settings.AUDIT_WITNESS_POLICY = ""
    check = embedded_proof(out.getvalue())
    assert check.found
    [said] = check.problems
    assert "aucune politique de témoins n'est configurée sur ce serveur" in said
    assert not re.search(r"[A-Z]{2,}_[A-Z_]+", said)  # no setting's name on screen
