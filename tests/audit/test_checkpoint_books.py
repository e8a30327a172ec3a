"""A checkpoint is never signed over a forged row: before signing, the books are checked against
the chain as verify_audit checks them; a row no act wrote is named (its book and key), an alarm is
sealed in the chain, and no checkpoint is written (FR art. 68; LU art. 10)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from audit.actions import Action
from audit.models import AuditEvent, Checkpoint
from audit.record_tasks import make_checkpoint as checkpoint_task
from tests.support.tampering import FORGED_TABLE_PK, load_a_forged_table

pytestmark = pytest.mark.django_db


def test_audit_checkpoint_refuses_to_sign_over_a_row_loaded_by_loaddata(
    signing_configured: Any, director: Any, casino: Any, tmp_path: Any
) -> None:
    from tables.services import create_table

    create_table(actor=director, number=3, code="BJ03")
    call_command("audit_checkpoint")
    assert Checkpoint.objects.count() == 1
    create_table(actor=director, number=4, code="BJ04")
    load_a_forged_table(tmp_path)
    with pytest.raises(CommandError) as refused:
        call_command("audit_checkpoint")
    said, forged = str(refused.value), f"tables_table pk {FORGED_TABLE_PK}:"
    assert said.startswith("AUDIT_BOOKS_FORGED:") and forged in said
    assert "no event of the chain created this row" in said and "FR art. 68" in said
    assert Checkpoint.objects.count() == 1  # nothing signed over it
    [alarm] = AuditEvent.objects.filter(action=Action.CHECKPOINT_REFUSED)
    assert alarm.seq is not None and forged in alarm.payload  # sealed in the chain
    # the task beat runs refuses the same, and the alarm is not repeated for the same rows
    with pytest.raises(Exception, match=f"AUDIT_BOOKS_FORGED|tables_table pk {FORGED_TABLE_PK}"):
        checkpoint_task()
    assert Checkpoint.objects.count() == 1
    assert AuditEvent.objects.filter(action=Action.CHECKPOINT_REFUSED).count() == 1


def test_a_row_inserted_by_sql_is_refused_the_same(
    signing_configured: Any, director: Any, casino: Any
) -> None:
    from django.db import connection

    from tables.services import create_table

    create_table(actor=director, number=3, code="BJ03")
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO tables_table (id, number, code, game, boxes, in_service) "
            "VALUES (77, 7, 'BJ07', 'blackjack', 7, TRUE)"
        )
    with pytest.raises(CommandError, match="AUDIT_BOOKS_FORGED: .*tables_table pk 77"):
        call_command("audit_checkpoint")
    assert not Checkpoint.objects.exists()


def test_books_that_hold_sign_as_before(signing_configured: Any, director: Any, casino: Any) -> None:
    from tables.services import create_table

    create_table(actor=director, number=3, code="BJ03")
    call_command("audit_checkpoint")
    assert Checkpoint.objects.count() == 1
    assert not AuditEvent.objects.filter(action=Action.CHECKPOINT_REFUSED).exists()


def test_a_register_printed_over_a_forged_row_is_signed_without_a_proof_and_says_why(
    signing_configured: Any, director: Any, casino: Any, tmp_path: Any
) -> None:
    """The officer needs the registers most exactly when the books are forged: the print is made
    and signed, without a proof of issue (no checkpoint is signed over the forged row), and its
    footer says why in words and names the alarm."""
    import datetime as dt
    import io

    from django.core.files.storage import default_storage
    from django.db import connection
    from django.utils import timezone
    from pypdf import PdfReader

    from inspection.models import Report
    from inspection.registers.issuing import ATTACHMENT
    from inspection.registers.reports import produce_report, request_report
    from tables.services import create_table

    from .conftest import pdf_text

    create_table(actor=director, number=3, code="BJ03")
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO tables_table (id, number, code, game, boxes, in_service) "
            "VALUES (77, 7, 'BJ07', 'blackjack', 7, TRUE)"
        )
    today = timezone.localdate()
    report = request_report(
        actor=director,
        register="order-book",
        date_from=today - dt.timedelta(days=3),
        date_to=today,
        enqueue=False,
    )
    done = produce_report(report.pk, inline_parts=True)
    assert done.state == Report.State.DONE, done.error
    assert not Checkpoint.objects.exists()  # nothing signed over the forged row
    [alarm] = AuditEvent.objects.filter(action=Action.CHECKPOINT_REFUSED)
    assert alarm.seq is not None and "tables_table pk 77" in alarm.payload
    with default_storage.open(done.file.name, "rb") as f:
        pdf = f.read()
    assert PdfReader(io.BytesIO(pdf)).attachments.get(ATTACHMENT) is None  # no embedded proof
    path = tmp_path / "registre.pdf"
    path.write_bytes(pdf)
    text = " ".join(pdf_text(path).split())
    assert "Sans preuve d'émission : les registres diffèrent de ce que la chaîne a scellé" in text
    assert f"voir l'alarme n° {alarm.seq} du journal / inspect_books" in text
    assert "Émis par l'événement n°" in text  # the issuing event is still named
    from pyhanko.pdf_utils.reader import PdfFileReader

    assert PdfFileReader(io.BytesIO(pdf)).embedded_signatures  # the print is signed
    assert done.sha256 == hashlib.sha256(pdf).hexdigest()
