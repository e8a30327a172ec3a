"""Closing down (LU art. 52) and the table notice (LU art. 74): the acts recorded, refused
with their article, cited as internal rules under FR, printed, and checked by inspect_books."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from audit.models import AuditEvent
from casino_ops.regulations import RegulationError
from house_books.models import ClosingDown, DeviceState, ShoeDevice, TableNotice
from house_books.services.closing import record_closing, stamp_closing
from house_books.services.devices import assign_device, register_device
from house_books.services.notices import post_table_notice
from inspection.registers import get_register
from inspection.registers.base import Request
from tests.audit.conftest import (  # noqa: F401  (fixtures)
    assert_signed_and_tamper_evident,
    dev_cert,
    non_white_pixels,
    nss_db,
    render_page,
    signing_configured,
)
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()  # read once: a future day is two days on, still ahead after midnight
D = TODAY - dt.timedelta(days=2)
INTERNAL = "règlement intérieur du casino"
DOCUMENTS = [
    "Comptabilité spéciale des jeux",
    "Répertoire et fichier des joueurs admis",
    "Carnet de prise en charge et d'inventaire des jeux de cartes et des sabots",
    "Registre d'observations",
]


def _checks(name: str) -> list[Any]:
    return breaches_of(name)


def _close(actor: Any, **kw: Any) -> ClosingDown:
    values: dict[str, Any] = {
        "closed_at": timezone.now() - dt.timedelta(hours=1),
        "documents_left_at": "agents",
        "documents": DOCUMENTS,
        "disposal": "successor",
        "successor": "Société du Nouveau Casino SA",
        "officer_name": "Adjudant Weber, service spécial de la Gendarmerie",
    }
    values.update(kw)
    return record_closing(actor=actor, **values)


def _session(director: Any, croupier: Any, table: Any, **limits: Any) -> Any:
    from tables.clock import history_at
    from tables.services import open_session
    from tests.support.builders import shoe_for

    values = {"minimum": Decimal("5.00"), "maximum": Decimal("500.00"), "advance_amount": Decimal("30000.00")}
    values.update(limits)
    at = timezone.make_aware(dt.datetime.combine(D, dt.time(21)))
    shoe_for(table, D, director)  # LU art. 32 §3, 40
    with history_at(at):
        return open_session(
            actor=director,
            table=table,
            day=D,
            croupier=croupier,
            guarantee_fund=Decimal("100000.00"),
            **values,
        )


# -- Closing down ---------------------------------------------------------------------------------


def test_closing_recorded_devices_disposed_and_the_officer_stamps(
    lu_casino: Any, director: Any, committee: Any, officer: Any
) -> None:
    devices = [
        register_device(actor=director, approved_model="ACME 6", approval_reference="MF/1") for _ in "ab"
    ]
    with pytest.raises(RegulationError) as refused:
        _close(committee)
    assert (refused.value.code, refused.value.article) == ("CLOSING_BY_DIRECTOR", "LU art. 52")
    closing = _close(director)
    assert closing.devices == [d.number for d in devices] and closing.decks == []
    assert set(ShoeDevice.objects.values_list("state", flat=True)) == {DeviceState.DISPOSED}
    assert AuditEvent.objects.filter(action="house.closing_recorded", object_id=str(closing.pk)).count() == 1
    assert [b.object for b in _checks("house.closing_without_visa")]
    with pytest.raises(RegulationError) as refused:
        stamp_closing(actor=director, closing=closing)
    assert refused.value.code == "VISA_OFFICER_ONLY"
    stamp_closing(actor=officer, closing=closing, remark="Sabots remis au successeur")
    closing.refresh_from_db()
    assert closing.visa_by == officer
    assert AuditEvent.objects.filter(action="house.closing_stamped", object_id=str(closing.pk)).count() == 1
    assert not _checks("house.closing_without_visa") and not _checks("house.closing_not_disposed")
    with pytest.raises(RegulationError) as refused:
        _close(director)
    assert refused.value.code == "CLOSING_RECORDED"
    assert ClosingDown.objects.count() == 1


def test_closing_refusals_name_the_field_and_article(
    lu_casino: Any, director: Any, tables_in_service: Any
) -> None:
    for kw, field in (
        ({"officer_name": " "}, "officer_name"),
        ({"documents": []}, "documents"),
        ({"successor": ""}, "successor"),
        ({"disposal": "sold"}, "disposal"),
        ({"closed_at": timezone.now() + dt.timedelta(hours=1)}, "closed_at"),
    ):
        with pytest.raises(RegulationError) as refused:
            _close(director, **kw)
        assert (refused.value.field, refused.value.article) == (field, "LU art. 52"), kw
    device = register_device(actor=director, approved_model="ACME 6", approval_reference="MF/1")
    assign_device(actor=director, device=device, table_number=3, day=TODAY)
    with pytest.raises(RegulationError) as refused:
        _close(director)
    assert refused.value.code == "DEVICES_AT_TABLES"
    assert not ClosingDown.objects.exists() and not AuditEvent.objects.filter(action="house.closing_recorded")


def test_under_fr_the_closing_cites_the_internal_rules(casino: Any, director: Any) -> None:
    with pytest.raises(RegulationError) as refused:
        _close(director, officer_name="")
    assert refused.value.article == INTERNAL
    assert _close(director).pk


def test_no_seance_opens_after_the_closing_down(
    lu_casino: Any, director: Any, croupier: Any, table: Any
) -> None:
    from tables.models import Session

    _close(director, closed_at=timezone.make_aware(dt.datetime.combine(D, dt.time(12))))
    with pytest.raises(RegulationError) as refused:
        _session(director, croupier, table)
    assert (refused.value.code, refused.value.article) == ("CASINO_CLOSED_DOWN", "LU art. 52")
    assert not Session.objects.exists()


def test_inspection_flags_a_device_left_after_closing_and_an_unstamped_closing(
    lu_casino: Any, director: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    _close(director)
    ShoeDevice.objects.create(
        number=9, approved_model="ACME", approval_reference="MF/9", recorded_by=director
    )
    found = _checks("house.closing_not_disposed")
    assert len(found) == 1 and "9" in found[0].object and found[0].article == "LU art. 52"
    with pytest.raises(SystemExit) as exit_info:
        call_command("inspect_books")
    assert exit_info.value.code == 1
    out = capsys.readouterr().out
    assert "house.closing_not_disposed" in out or "sabot n° 9" in out
    assert "Adjudant Weber" in out


# -- Table notices --------------------------------------------------------------------------------


def test_notice_posted_from_the_limits_in_force(
    lu_casino: Any, director: Any, croupier: Any, table: Any
) -> None:
    with pytest.raises(RegulationError) as refused:
        post_table_notice(actor=director, table=table, day=D)
    assert (refused.value.code, refused.value.article) == ("TABLE_WITHOUT_LIMITS", "LU art. 74")
    with pytest.raises(RegulationError) as refused:
        post_table_notice(actor=director, table=99, day=D)
    assert (refused.value.code, refused.value.field) == ("TABLE_NOT_IN_SERVICE", "table")
    _session(director, croupier, table)
    assert [b.object for b in _checks("house.table_notice")] == ["table n° 3"]
    notice = post_table_notice(actor=director, table=table, day=D)
    assert (notice.table_number, notice.minimum, notice.maximum, notice.advance) == (
        3,
        Decimal("5.00"),
        Decimal("500.00"),
        Decimal("30000.00"),
    )
    assert (
        AuditEvent.objects.filter(action="house.table_notice_posted", object_id=str(notice.pk)).count() == 1
    )
    assert not _checks("house.table_notice")
    with pytest.raises(RegulationError) as refused:
        post_table_notice(actor=croupier, table=table, day=D)
    assert refused.value.field == "actor" and TableNotice.objects.count() == 1


def test_a_changed_maximum_makes_the_notice_stale(
    lu_casino: Any, director: Any, croupier: Any, table: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    session = _session(director, croupier, table)
    post_table_notice(actor=director, table=3, day=D)
    type(session).objects.filter(pk=session.pk).update(maximum=Decimal("800.00"))
    found = _checks("house.table_notice")
    assert len(found) == 1 and found[0].article == "LU art. 74" and "500" in found[0].detail
    with pytest.raises(SystemExit) as exit_info:
        call_command("inspect_books")
    assert exit_info.value.code == 1
    assert "table n° 3" in capsys.readouterr().out


def test_under_fr_the_notice_is_internal_and_checked_once_kept(
    casino: Any, director: Any, croupier: Any, table: Any
) -> None:
    _session(director, croupier, table)
    assert not _checks("house.table_notice")  # the casino does not keep the notices
    with pytest.raises(RegulationError) as refused:
        post_table_notice(actor=director, table=3, day=TODAY + dt.timedelta(days=2))
    assert (refused.value.field, refused.value.article) == ("day", INTERNAL)
    post_table_notice(actor=director, table=3, day=D)
    assert not _checks("house.table_notice")


# -- Registers ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["closing", "table-notice"])
def test_registers_signed_and_not_blank(
    name: str,
    lu_casino: Any,
    director: Any,
    officer: Any,
    croupier: Any,
    table: Any,
    signing_configured: Any,  # noqa: F811
    nss_db: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    from tables.services import create_table

    _session(director, croupier, table)
    _session(
        director, croupier, create_table(actor=director, number=5, code="BJ05"), maximum=Decimal("1000.00")
    )
    post_table_notice(actor=director, table=3, day=D)
    post_table_notice(actor=director, table=5, day=D)
    register_device(actor=director, approved_model="ACME 6", approval_reference="MF/1")
    from house_books.models import DeviceAssignment
    from house_books.services.devices import return_device

    for assignment in DeviceAssignment.objects.filter(returned_at__isnull=True):
        return_device(actor=director, assignment=assignment)  # the séances' shoes back in the cabinet
    stamp_closing(actor=officer, closing=_close(director))
    context = get_register(name).context(Request(D, TODAY))
    assert context["sections"]
    pdf = tmp_path / f"{name}.pdf"
    call_command(
        "register",
        name,
        "--from",
        D.isoformat(),
        "--to",
        TODAY.isoformat(),
        "--output",
        str(pdf),
        verbosity=0,
    )
    assert_signed_and_tamper_evident(pdf, tmp_path, signing_configured.ca_pem, nss_db)
    png = render_page(pdf, 1, tmp_path / f"{name}-p1")
    assert non_white_pixels(png) > 2000
    if name == "table-notice":
        from pypdf import PdfReader

        reader = PdfReader(str(pdf))
        assert len(reader.pages) == 2  # one page per table
        assert "1 000,00" in reader.pages[1].extract_text().replace("\u202f", " ")


def test_read_api_and_admin(
    lu_casino: Any, director: Any, officer: Any, croupier: Any, table: Any, client: Any
) -> None:
    import json

    from house_books.models import DeviceAssignment
    from house_books.services.devices import return_device

    _session(director, croupier, table)
    return_device(actor=director, assignment=DeviceAssignment.objects.get())  # the shoe back
    client.force_login(director)
    assert client.get("/admin/house_books/tablenotice/add/").status_code == 200
    response = client.post(
        "/admin/house_books/tablenotice/add/",
        {"table": "3", "day": (TODAY + dt.timedelta(days=3)).isoformat()},
    )
    assert response.status_code == 200 and "LU art. 74" in response.content.decode()
    assert not TableNotice.objects.exists()
    assert (
        client.post("/admin/house_books/tablenotice/add/", {"table": "3", "day": D.isoformat()}).status_code
        == 302
    )
    assert client.get("/admin/house_books/closingdown/add/").status_code == 200
    form = {
        "closed_at": (timezone.localtime() - dt.timedelta(hours=1)).strftime("%Y-%m-%d %H:%M"),
        "documents_left_at": "seat",
        "documents": "\n".join(DOCUMENTS),
        "disposal": "successor",
        "successor": "",
        "officer_name": "Adjudant Weber",
    }
    response = client.post("/admin/house_books/closingdown/add/", form)
    assert response.status_code == 200 and "LU art. 52" in response.content.decode()
    form["successor"] = "Nouveau Casino SA"
    assert client.post("/admin/house_books/closingdown/add/", form).status_code == 302
    client.force_login(officer)
    for url, key, value in (
        ("/api/house/closing/", "officer_name", "Adjudant Weber"),
        ("/api/house/table-notices/", "maximum", "500.00"),
    ):
        body = json.loads(client.get(url).content)
        rows = body["results"] if isinstance(body, dict) else body
        assert rows[0][key] == value
        assert client.post(url, {}).status_code == 403


def test_fr_a_closing_not_stamped_and_a_device_left_after_it_are_named(casino: Any, director: Any) -> None:
    closing = _close(director)
    found = _checks("house.closing_without_visa")
    assert len(found) == 1 and found[0].article == INTERNAL and "Adjudant Weber" in found[0].detail
    assert f"{timezone.localtime(closing.closed_at):%d/%m/%Y}" in found[0].object
    assert not _checks("house.closing_not_disposed")
    ShoeDevice.objects.create(
        number=9, approved_model="ACME", approval_reference="MF/9", recorded_by=director
    )
    found = _checks("house.closing_not_disposed")
    assert len(found) == 1 and "n° 9" in found[0].object and found[0].article == INTERNAL
