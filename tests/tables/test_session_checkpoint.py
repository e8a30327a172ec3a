"""A séance's close signs a checkpoint once it commits (then pushed to the authority's
witnesses): the record's head at the close is vouched for at once, not at beat's next run."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from audit import devcert
from audit.chain import head
from audit.models import Checkpoint


@pytest.fixture(scope="module")
def module_cert(tmp_path_factory: pytest.TempPathFactory) -> devcert.DevCertificate:
    return devcert.make_dev_certificate(tmp_path_factory.mktemp("signing"), casino="Casino de test")


@pytest.mark.django_db
def test_closing_a_seance_signs_a_checkpoint(
    open_session: Any,
    staff: dict[str, Any],
    settings: Any,
    module_cert: Any,
    tmp_path: Path,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from tables import services

    settings.SIGNING_PKCS12, settings.SIGNING_PKCS12_PASSWORD = str(module_cert.pkcs12), module_cert.password
    settings.AUDIT_WITNESS_DIR = str(tmp_path / "witness")
    with django_capture_on_commit_callbacks(execute=True):
        services.close_session(
            actor=staff["director"],
            session=open_session,
            closing_cash=Decimal("30440.50"),
            counted_by=staff["croupier"],
            cashier=None,
            certified_exact=True,
        )
    last = Checkpoint.objects.order_by("-number").first()
    assert last is not None and last.seq == head()[0]
