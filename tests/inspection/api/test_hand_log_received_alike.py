"""A hand log whose integer no column holds is refused alike by the admin upload and by
``import_hand_logs`` (as by the API, tests/inspection/api/test_schema.py): the field named, nothing stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError

from casino_ops import roles
from tests.support.samples import module_casino, module_clients, module_devices, module_samples, module_users  # noqa: F401 - made once for the module

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "handlog"


def _log(shoe_id: str, number: int) -> bytes:
    doc = json.loads((FIXTURES / "worked-example.json").read_text())
    doc["shoe_id"] = shoe_id
    doc["rounds"][0]["number"] = number
    return json.dumps(doc).encode()


@pytest.fixture(autouse=True)
def two_factor_required(settings: Any) -> None:
    """The admin's act pages without the code step (its own tests are in tests/inspection/portal)."""
    settings.TWO_FACTOR_REQUIRED = False


def _counts() -> tuple[int, int]:
    from audit.models import AuditEvent
    from tables.models import HandLog

    return HandLog.objects.count(), AuditEvent.objects.count()


@pytest.mark.django_db
@pytest.mark.parametrize("number", [2**31, 2**63, -1])
def test_the_admin_upload_refuses_a_round_number_no_column_holds(
    client: Any, samples: Any, number: int
) -> None:
    client.force_login(samples.users[roles.DIRECTOR])
    url = f"/admin/tables/session/{samples.session.pk}/act/handlog/"
    before = _counts()
    upload = SimpleUploadedFile("shoe.json", _log("BJ03-ADMIN-1", number))
    response = client.post(url, {"file": upload})
    assert response.status_code == 200
    page = response.content.decode()
    assert "rounds[0].number" in page and str(number) in page
    # a .jsonl: the good first line is not kept either
    lines = [_log("BJ03-ADMIN-2", 1), _log("BJ03-ADMIN-3", number)]
    upload = SimpleUploadedFile("shoes.jsonl", b"\n".join(lines))
    response = client.post(url, {"file": upload})
    assert response.status_code == 200 and "rounds[0].number" in response.content.decode()
    assert _counts() == before


@pytest.mark.django_db
def test_import_hand_logs_refuses_a_round_number_no_column_holds(
    samples: Any, tmp_path: Path, capsys: Any
) -> None:
    path = tmp_path / "shoes.jsonl"
    path.write_bytes(b"\n".join(_log(f"BJ03-CMD-{i}", n) for i, n in enumerate((2**31, 2**63, -5))) + b"\n")
    before = _counts()
    with pytest.raises(CommandError):
        call_command(
            "import_hand_logs",
            str(path),
            session=samples.session.pk,
            user=samples.users[roles.CROUPIER].username,
        )
    err = capsys.readouterr().err
    assert err.count("refusé: HAND_LOG_REJECTED: rounds[0].number") == 3, err
    assert "Traceback" not in err
    assert _counts() == before


@pytest.mark.django_db
def test_the_ranges_checked_are_those_of_the_columns() -> None:
    from django.db import connection

    from tables.models import Discrepancy
    from tables.rules import logs

    def column(name: str) -> tuple[int, int]:
        low, high = connection.ops.integer_field_range(Discrepancy._meta.get_field(name).get_internal_type())
        return 0 if low is None else low, high

    assert logs.ROUND_INTEGER_RANGES == {
        "number": column("round"),
        "box": column("box"),
        "hand": column("hand"),
    }
    assert logs.HOUSE_RULE_INTEGER_RANGE == column("box")
    assert set(logs.SHOE_INTEGER_RANGES.values()) == {connection.ops.integer_field_range("IntegerField")}
