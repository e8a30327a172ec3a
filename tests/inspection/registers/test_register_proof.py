"""A signed register carries the C2SP tlog proof of its own issuing event (docs/officers.md, "A
printed register, offline, years later: the proof it carries").

The issuing event (``register.issued``: the register, its period, its table, who asked and the
digest of the content its pages show) is sealed before the PDF is laid out; the print obtains a
checkpoint covering it, cosigned by the authority's witnesses as the policy requires, and embeds
the proof (index, inclusion path, cosigned checkpoint) in the PDF before signing it. An officer
checks the printed register offline with the authority's policy file alone:
``verifier.py pdf REGISTER.pdf --policy POLICY``. A real witness process cosigns.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.files.storage import default_storage

from audit.actions import Action
from audit.models import AuditEvent
from casino_ops import roles
from inspection import verifier
from inspection.models import Report
from inspection.portal.checker import check_pdf
from inspection.registers.issuing import ATTACHMENT, content_digest
from inspection.registers.reports import produce_report, request_report
from tests.support.celery_workers import celery_worker, worker_env
from tests.support.register_parts import assert_request_in, requested_report
from tests.support.witness_process import WitnessServer, witness_server  # noqa: F401  # the fixture
from tlog import note as notes

pytestmark = pytest.mark.django_db


def _print(director: Any, register: str = "order-book", days: int = 60) -> tuple[Report, bytes]:
    report = requested_report(director, register, days=days)
    done = produce_report(report.pk, inline_parts=True)
    assert done.state == Report.State.DONE, done.error
    with default_storage.open(done.file.name, "rb") as f:
        return done, f.read()


def _attachment(pdf: bytes) -> bytes | None:
    from pypdf import PdfReader

    found = PdfReader(io.BytesIO(pdf)).attachments.get(ATTACHMENT)
    return found[0] if found else None


def _verify(capsys: Any, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = verifier.main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _pages_only(pdf: bytes, attachment: bytes | None = None) -> bytes:
    """The register's pages (their foot as printed) in a new file, with ``attachment`` as its
    embedded proof (the signature no longer covers the file, which the verifier under a policy
    alone does not read: what it checks is the proof and its event)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        writer.add_page(page)
    if attachment is not None:
        writer.add_attachment(ATTACHMENT, attachment)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _upload(client: Any, pdf: bytes) -> str:
    from django.core.files.uploadedfile import SimpleUploadedFile

    answer = client.post(
        "/inspection/signatures/",
        {"pdf": SimpleUploadedFile("registre.pdf", pdf, content_type="application/pdf")},
    )
    return str(answer.content.decode())


def test_the_issuing_event_is_sealed_before_the_print_and_its_proof_is_in_the_signed_pdf(
    demo: None,
    casino_log: WitnessServer,
    signing_configured: Any,
    director: Any,
    clients: Any,
    tmp_path: Path,
    capsys: Any,
) -> None:
    report, pdf = _print(director)
    issued = AuditEvent.objects.get(action=Action.REGISTER_ISSUED, object_id=str(report.pk))
    printed = AuditEvent.objects.get(action=Action.REGISTER_PRINTED, object_id=str(report.pk))
    assert issued.seq is not None and printed.seq is not None and issued.seq < printed.seq
    assert issued.actor_id == director.pk
    payload = json.loads(issued.payload)
    assert report.register == "order-book"
    assert_request_in(payload, report, director)
    assert payload["content_sha256"] == content_digest(
        [
            rp.part.content_hash
            for rp in report.period_parts.select_related("part").order_by("number")
            if not rp.part.empty
        ]
    )
    proof = _attachment(pdf)
    assert proof is not None and proof.startswith(b"c2sp.org/tlog-proof@v1\nextra ")
    assert f"\nindex {issued.seq - 1}\n".encode() in proof
    # the signature covers the proof: the signed PDF is the one the chain records; the portal's
    # checker reports the proof, checked under the casino's policy
    checked = check_pdf(pdf)
    assert checked.signed_ok and checked.issued
    assert checked.proof.ok and checked.proof.event == issued.seq
    assert (checked.proof.cosigned, checked.proof.witnesses) == (1, 1)
    page = _upload(clients[roles.OFFICER], pdf)
    assert f"Registre émis par l'événement n° {issued.seq} du journal" in page
    assert "cosigné par 1 témoin(s) sur 1" in page
    register = tmp_path / "registre.pdf"
    register.write_bytes(pdf)
    code, out, err = _verify(capsys, "pdf", str(register), "--policy", settings.AUDIT_WITNESS_POLICY)
    assert code == 0, err
    origin = settings.AUDIT_NOTE_KEY.split("+")[2]
    assert (
        f"registre émis par l'événement n° {issued.seq} du journal {origin}, cosigné par 1 témoin sur 1"
        in out
    )
    assert "order-book" in out and report.date_from.strftime("%d/%m/%Y") in out
    # with the CA, the PDF's own signature too: it binds the pages to the proof they carry
    ca = str(signing_configured.ca_pem)
    code, out, err = _verify(
        capsys, "pdf", str(register), "--policy", settings.AUDIT_WITNESS_POLICY, "--ca", ca
    )
    assert code == 0 and "OK: the PDF's signature holds" in out, err
    register.write_bytes(pdf + b"%% appended\n")
    code, out, err = _verify(
        capsys, "pdf", str(register), "--policy", settings.AUDIT_WITNESS_POLICY, "--ca", ca
    )
    assert code == 1 and "bytes were added after signing" in err

    # asked again while the books are unchanged: the same print (its issuance moved nothing)
    again = request_report(
        actor=director, register="order-book", date_from=report.date_from, date_to=report.date_to
    )
    assert again.pk == report.pk


def test_a_register_without_a_proof_another_s_proof_a_tampered_proof_or_a_policy_not_met_fails(
    demo: None,
    casino_log: WitnessServer,
    signing_configured: Any,
    director: Any,
    tmp_path: Path,
    capsys: Any,
) -> None:
    policy = settings.AUDIT_WITNESS_POLICY
    _report, pdf = _print(director)
    _other, other_pdf = _print(director, "receipt-book")
    proof = _attachment(pdf)
    other_proof = _attachment(other_pdf)
    assert proof is not None and other_proof is not None

    # a PDF without any embedded proof (a register printed before, or any other PDF)
    bare = tmp_path / "sans-preuve.pdf"
    bare.write_bytes(_pages_only(pdf))
    code, _out, err = _verify(capsys, "pdf", str(bare), "--policy", policy)
    assert code == 1 and "FAILED: " in err and "no tlog proof is embedded" in err
    assert not check_pdf(bare.read_bytes()).proof.found

    # the order book's pages with the receipt book's proof: a genuine proof, not of this register
    swapped = tmp_path / "preuve-d-un-autre.pdf"
    swapped.write_bytes(_pages_only(pdf, other_proof))
    code, _out, err = _verify(capsys, "pdf", str(swapped), "--policy", policy)
    assert code == 1 and "not this register's issuing event" in err
    swapped_check = check_pdf(swapped.read_bytes()).proof
    assert swapped_check.found and not swapped_check.ok
    assert "not this register's issuing event" in " ".join(swapped_check.problems)

    # a tampered proof: one hash of the inclusion path changed
    lines = proof.decode().split("\n")
    lines[3] = ("A" if lines[3][0] != "A" else "B") + lines[3][1:]
    tampered = tmp_path / "preuve-alteree.pdf"
    tampered.write_bytes(_pages_only(pdf, "\n".join(lines).encode()))
    code, _out, err = _verify(capsys, "pdf", str(tampered), "--policy", policy)
    assert code == 1 and "is not at index" in err

    # a policy asking for a second witness, which did not cosign
    other = notes.Signer.generate("witness.other.example/w", notes.COSIGNATURE_V1)
    stricter = tmp_path / "stricter.txt"
    stricter.write_text(
        Path(policy)
        .read_text()
        .replace("quorum A", f"witness B {other.verifier.vkey}\ngroup AB all A B\nquorum AB")
    )
    register = tmp_path / "registre.pdf"
    register.write_bytes(pdf)
    code, out, err = _verify(capsys, "pdf", str(register), "--policy", str(stricter))
    assert code == 1 and "short of the policy's quorum AB" in err
    assert "cosigné par 1 témoin sur 2" in out


def test_witnesses_out_of_reach_the_register_waits_for_them_rather_than_printing_without(
    demo: None,
    casino_log: WitnessServer,
    signing_configured: Any,
    director: Any,
    settings: Any,
    tmp_path: Path,
    capsys: Any,
) -> None:
    from inspection.tasks import assemble_report

    settings.REGISTER_PROOF_WAIT = 2.0
    casino_log.stop()
    try:
        report = requested_report(director)
        waiting = produce_report(report.pk, inline_parts=True)
        assert waiting.state != Report.State.DONE and not waiting.file
        assert "témoins" in waiting.error
        assert not AuditEvent.objects.filter(
            action=Action.REGISTER_PRINTED, object_id=str(report.pk)
        ).exists()
        # the task that assembles it again (with a broker, tried every REGISTER_PROOF_RETRY_DELAY
        # seconds, REGISTER_PROOF_RETRIES times): still no witness, failed with the reason (Celery
        # run in-process here: it does not wait)
        assemble_report.apply(args=[report.pk])
        report.refresh_from_db()
        assert report.state == Report.State.FAILED and "témoins" in report.error and not report.file
    finally:
        casino_log.start()

    assemble_report.apply(args=[report.pk])  # the retry, once the witness is back
    report.refresh_from_db()
    assert report.state == Report.State.DONE and report.error == ""
    assert AuditEvent.objects.filter(action=Action.REGISTER_ISSUED, object_id=str(report.pk)).count() == 1
    with default_storage.open(report.file.name, "rb") as f:
        register = tmp_path / "registre.pdf"
        register.write_bytes(f.read())
    code, _out, err = _verify(capsys, "pdf", str(register), "--policy", settings.AUDIT_WITNESS_POLICY)
    assert code == 0, err


def test_without_a_witness_the_proof_is_under_the_casino_s_own_checkpoint_policy_not_met(
    demo: None,
    casino_log: WitnessServer,
    signing_configured: Any,
    director: Any,
    settings: Any,
    tmp_path: Path,
    capsys: Any,
) -> None:
    policy = settings.AUDIT_WITNESS_POLICY
    settings.AUDIT_WITNESS_POLICY = ""  # the casino configured no witness
    _report, pdf = _print(director)
    assert _attachment(pdf) is not None
    register = tmp_path / "registre.pdf"
    register.write_bytes(pdf)
    code, out, err = _verify(capsys, "pdf", str(register), "--policy", policy)
    assert code == 1 and "short of the policy's quorum A" in err
    assert "cosigné par 0 témoin sur 1" in out


def test_a_casino_without_a_note_key_prints_its_registers_without_a_proof(
    demo: None, signing_configured: Any, director: Any, settings: Any, tmp_path: Path, capsys: Any
) -> None:
    """The quick start: no note key, no witness: the register prints at once, without a proof."""
    settings.AUDIT_NOTE_KEY = ""
    settings.AUDIT_WITNESS_POLICY = ""
    report, pdf = _print(director)
    assert _attachment(pdf) is None
    assert AuditEvent.objects.filter(action=Action.REGISTER_ISSUED, object_id=str(report.pk)).exists()
    assert hashlib.sha256(pdf).hexdigest() == report.sha256


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_with_a_worker_the_print_is_tried_again_until_the_witness_cosigns(
    demo: None,
    casino_log: WitnessServer,
    signing_configured: Any,
    settings: Any,
    tmp_path: Path,
    capsys: Any,
) -> None:
    """A real Celery worker on Redis: the witness down, the print waits (in progress, saying why)
    and its task is tried again every REGISTER_PROOF_RETRY_DELAY seconds; once the witness is
    back, the register is printed with its proof."""
    import time

    env = worker_env(
        settings,
        AUDIT_NOTE_KEY=settings.AUDIT_NOTE_KEY,
        AUDIT_WITNESS_POLICY=settings.AUDIT_WITNESS_POLICY,
        AUDIT_WITNESS_DIR=settings.AUDIT_WITNESS_DIR,
        REGISTER_PROOF_WAIT="1",
        REGISTER_PROOF_RETRY_DELAY="1",
    )
    with celery_worker(env, tmp_path) as worker:
        casino_log.stop()
        try:
            report = requested_report(None)
            worker.send("inspection.tasks.make_report", args=[report.pk])
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                report.refresh_from_db()
                if "témoins" in report.error:
                    break
                time.sleep(0.1)
            assert report.state == Report.State.RUNNING and not report.file, worker.log_tail()
            time.sleep(3)  # tried again meanwhile, still waiting
            report.refresh_from_db()
            assert report.state == Report.State.RUNNING and "témoins" in report.error
            casino_log.start()
            while time.monotonic() < deadline:
                report.refresh_from_db()
                if report.state != Report.State.RUNNING:
                    break
                time.sleep(0.1)
            log_text = worker.log.read_text()
            assert report.state == Report.State.DONE and report.error == "", (report.error, log_text[-3000:])
            assert "inspection.tasks.assemble_report" in log_text and "retry" in log_text.lower()
            with default_storage.open(report.file.name, "rb") as f:
                register = tmp_path / "registre.pdf"
                register.write_bytes(f.read())
            code, _out, err = _verify(capsys, "pdf", str(register), "--policy", settings.AUDIT_WITNESS_POLICY)
            assert code == 0, err
        finally:
            if casino_log.process is None:
                casino_log.start()


@pytest.mark.django_db(transaction=True)
def test_in_sealer_mode_the_issuing_event_is_sealed_by_the_print_itself(
    demo: None,
    casino_log: WitnessServer,
    signing_configured: Any,
    director: Any,
    settings: Any,
    tmp_path: Path,
    capsys: Any,
) -> None:
    """PostgreSQL's default: events travel with their COMMIT and the sealer seals them after; the
    print does not wait for the sealer's next pass, it seals its issuing event at once."""
    settings.AUDIT_SEALING = "sealer"
    report, pdf = _print(director)
    issued = AuditEvent.objects.get(action=Action.REGISTER_ISSUED, object_id=str(report.pk))
    assert issued.seq is not None
    proof = _attachment(pdf)
    assert proof is not None and f"\nindex {issued.seq - 1}\n".encode() in proof
    register = tmp_path / "registre.pdf"
    register.write_bytes(pdf)
    code, out, err = _verify(capsys, "pdf", str(register), "--policy", settings.AUDIT_WITNESS_POLICY)
    assert code == 0, err
    assert f"OK: registre émis par l'événement n° {issued.seq} du journal" in out
