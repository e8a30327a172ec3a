"""Forged events and other chain problems as the officer sees them: the dashboard's
red panel and the full check naming what is wrong."""

from __future__ import annotations

import pytest
from django.db import connection

from audit.chain import FORGED_ACTION, seal_pending
from audit.models import AuditEvent
from tests.support.samples import module_casino, module_clients, module_devices, module_samples, module_users  # noqa: F401 - made once for the module


def _forge_by_sql() -> int:
    """Anyone with INSERT on the event table adds an unsealed event without the key."""
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO audit_event (recorded_at, actor_name, action, object_type, object_id, payload, mac) "
            "VALUES (now() - interval '3 days', 'directeur', 'tables.advance', 'tables.advance', '7', "
            '\'{"amount":"100000.00"}\', NULL) RETURNING id'
        )
        return cursor.fetchone()[0]


@pytest.mark.django_db
def test_the_dashboard_reports_forged_events_in_red(officer_client, samples) -> None:
    clean = officer_client.get("/inspection/").content.decode()
    assert "Événements falsifiés" not in clean
    forged = _forge_by_sql()
    seal_pending()
    alarm = AuditEvent.objects.get(action=FORGED_ACTION, object_id=str(forged))
    assert alarm.seq is not None
    page = officer_client.get("/inspection/").content.decode()
    assert "Événements falsifiés" in page
    panel = page[page.index("Événements falsifiés") - 200 :]
    assert 'class="card wide alarm"' in panel[:400] and 'role="alert"' in panel[:400]
    assert f"n° {forged}" in panel
    assert f"alarme n° {alarm.seq}" in panel  # when it was found: the alarm's sealed event


@pytest.mark.django_db
def test_the_chain_check_names_forged_events_not_a_break_at_none(officer_client, samples) -> None:
    forged = _forge_by_sql()
    seal_pending()
    page = officer_client.get("/inspection/audit/verification/").content.decode()
    assert "None" not in page
    assert "Chaîne intègre" not in page
    assert "Chaîne rompue" not in page  # the chain itself holds
    assert "Événement falsifié" in page and f"event id {forged}" in page


@pytest.mark.django_db
def test_the_chain_check_names_a_checkpoint_problem(officer_client, samples, monkeypatch) -> None:
    from audit import chain, verification

    real = chain.verify_chain

    def with_problem(*args, **kwargs):
        result = real(*args, **kwargs)
        result.checkpoint_problems.append("checkpoint 3: the witness holds another hash")
        return result

    monkeypatch.setattr(verification, "verify_chain", with_problem)
    page = officer_client.get("/inspection/audit/verification/").content.decode()
    assert "None" not in page and "Chaîne rompue" not in page
    assert "Point de contrôle ou témoin" in page and "checkpoint 3: the witness holds another hash" in page
