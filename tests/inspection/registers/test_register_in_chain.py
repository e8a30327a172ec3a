"""A printed register is in the chain (FR art. 68): its SHA-256, period, kind and requester are
recorded by an event when the print completes; ``verify_audit`` names a printed register's row
that differs from that event, or that no event records; the portal's "issued by this casino"
rests on the chain, not on the row alone."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from django.core.files.storage import default_storage
from django.db import connection

from audit.actions import Action
from audit.models import AuditEvent
from inspection.models import Report
from inspection.portal.checker import check_pdf
from inspection.registers.reports import produce_report
from tests.support.register_parts import assert_request_in, requested_report
from tests.support.tampering import run_verify_audit


def _verify(capsys: Any) -> tuple[int, str]:
    code, _out, err = run_verify_audit(capsys, "--no-witness")
    return code, err


def _printed(director: Any) -> Report:
    report = requested_report(director)
    done = produce_report(report.pk, inline_parts=True)
    assert done.state == Report.State.DONE and done.sha256
    return done


@pytest.mark.django_db
def test_a_printed_register_is_recorded_by_an_event_and_a_rewritten_sha256_is_named(
    demo: None, signing_configured: Any, director: Any, capsys: Any
) -> None:
    report = _printed(director)
    event = AuditEvent.objects.get(action=Action.REGISTER_PRINTED, object_id=str(report.pk))
    assert event.actor_id == director.pk
    payload = json.loads(event.payload)
    assert report.register == "order-book"
    assert_request_in(payload, report, director)
    assert payload["sha256"] == report.sha256
    with default_storage.open(report.file.name, "rb") as f:
        data = f.read()
    assert hashlib.sha256(data).hexdigest() == report.sha256
    assert check_pdf(data).issued
    assert _verify(capsys) == (0, "")
    forged = "0" * 64
    with connection.cursor() as cursor:
        cursor.execute("UPDATE audit_report SET sha256 = %s WHERE id = %s", [forged, report.pk])
    code, err = _verify(capsys)
    assert code == 1
    assert (
        f"BOOK: audit_report pk {report.pk} field sha256: the chain says {report.sha256!r} "
        f"(event #{event.seq}), found {forged!r}"
    ) in err


@pytest.mark.django_db
def test_a_printed_register_no_event_records_is_named_and_not_issued(
    demo: None, signing_configured: Any, director: Any, capsys: Any
) -> None:
    report = _printed(director)
    data = b"%PDF-1.7 a file the casino never printed"
    digest = hashlib.sha256(data).hexdigest()
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO audit_report (key, register, date_from, date_to, requested_at, state, progress, "
            "attempts, head_hash, sha256, file, error) SELECT 'forged', register, date_from, date_to, now(), "
            "'done', 100, 1, head_hash, %s, file, '' FROM audit_report WHERE id = %s RETURNING id",
            [digest, report.pk],
        )
        forged = cursor.fetchone()[0]
    assert Report.objects.filter(sha256=digest).exists()
    assert not check_pdf(data).issued  # the row alone does not make it the casino's
    code, err = _verify(capsys)
    assert code == 1
    assert (
        f"BOOK: audit_report pk {forged}: printed (SHA-256 {digest}) but no event of the chain records it"
        in err
    )
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_reportpart WHERE report_id = %s", [report.pk])
        cursor.execute("DELETE FROM audit_report WHERE id = %s", [report.pk])
    _code, err = _verify(capsys)
    assert f"BOOK: audit_report pk {report.pk}: its print is recorded by event #" in err
