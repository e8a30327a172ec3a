"""The tables' acts in the signed registers: a séance's interruptions and resumptions, its
notice to the minister (LU art. 26), who fixed the maximum (the director or his delegate,
LU art. 51 V), the director's acknowledgement of the replay's discrepancies, and the acts of
the authorised minimum with the officer's visa."""

from __future__ import annotations

import datetime as dt
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.core.files.storage import default_storage
from pypdf import PdfReader

from casino_ops import roles
from house_books.services.casino import update_casino_settings
from inspection.models import RegisterPart
from inspection.registers import get_register
from inspection.registers.base import Request
from inspection.registers.render import print_register, read_chunk
from inspection.registers.reports import produce_report, request_report
from tables import services
from tables.blackjack.simulator import simulate_shoe
from tables.models import Discrepancy
from tests.audit.conftest import pyhanko_validate
from tests.support import builders
from tests.support.builders import at_day

DAY = dt.date(2026, 11, 30)
D = Decimal


@pytest.fixture
def staff(users: dict[str, Any], casino: Any) -> dict[str, Any]:
    return {
        "director": users[roles.DIRECTOR],
        "committee": users[roles.COMMITTEE],
        "croupier": users[roles.CROUPIER],
        "cashier": users[roles.CASHIER],
        "officer": users[roles.OFFICER],
    }


def _printed(name: str, tmp_path: Path, ca: Path, table: int | None = None, start: dt.date = DAY) -> str:
    """The register printed over ``start``..DAY, checked by pyHanko, as text (see :func:`_flat`)."""
    printed = print_register(get_register(name), Request(start, DAY, table))
    pdf = tmp_path / f"{name}-{table}.pdf"
    pdf.write_bytes(printed.pdf)
    code, out = pyhanko_validate(pdf, ca)
    assert code == 0 and ":VALID" in out, out
    return _flat(printed.pdf)


def _flat(pdf: bytes) -> str:
    """The PDF's text in the order drawn (a cell's lines together), without any space: a cell
    wrapped over lines still reads as one string."""
    return "".join("".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages).split())


def _has(text: str, *needles: str) -> bool:
    return all("".join(n.split()) in text for n in needles)


def _delegation(staff: dict[str, Any]) -> Any:
    return services.grant_delegation(
        actor=staff["director"],
        delegate=staff["committee"],
        approval_reference="Agrément MJ 2026-14",
        approved_on=DAY - dt.timedelta(days=3),
        valid_from=DAY - dt.timedelta(days=1),
    )


@pytest.mark.django_db
def test_lu_advance_book_shows_interruptions_the_notice_and_the_delegate(
    staff: dict[str, Any], signing_configured: Any, tmp_path: Path
) -> None:
    update_casino_settings(actor=staff["director"], profile="LU")
    first = services.create_table(actor=staff["director"], number=3, code="BJ03")
    second = services.create_table(actor=staff["director"], number=4, code="BJ04")
    lu = {
        "guarantee_fund": D("100000.00"),
        "ministry_notice": builders.ministry_notice("10.00", DAY, reference="MF/2026/031"),
    }
    for t in (first, second):
        builders.shoe_for(t, DAY, staff["director"])  # LU art. 32 §3, 40
    with at_day(DAY, 14):
        _delegation(staff)
        opened = {
            t.number: services.open_session(
                actor=staff["committee"] if t is first else staff["director"],
                table=t,
                minimum=D("10.00"),
                maximum=D("1000.00"),
                advance_amount=D("20000.00"),
                croupier=staff["croupier"],
                **lu,
            )
            for t in (first, second)
        }
    with at_day(DAY, 16):
        services.interrupt_session(
            actor=staff["croupier"], session=opened[3], mode="locked", key_holder=staff["committee"]
        )
        services.interrupt_session(
            actor=staff["croupier"],
            session=opened[4],
            mode="counted",
            amount=D("19000.00"),
            signed_by=staff["director"],
            cashier=staff["cashier"],
        )
    with at_day(DAY, 17):
        services.resume_session(actor=staff["committee"], session=opened[3])

    text = _printed("advance-book", tmp_path, signing_configured.ca_pem, table=3)
    assert _has(text, "interruptions et reprises")
    assert _has(text, "encaisse sous clé", "30/11/2026 16:00")
    assert _has(text, "30/11/2026 17:00, u_comite_direction")  # reopened by the key holder
    # the day declared, beside the moment the system recorded the notice (LU art. 26)
    assert _has(
        text,
        "ministre informé le 21/11/2026 (information inscrite le 21/11/2026 12:00), 9 jours avant la séance",
    )
    assert _has(text, "référence MF/2026/031")  # the notice's reference, for the inspector
    assert _has(text, "minimum supérieur au minimum autorisé (5,00)")
    assert _has(text, "maximum fixé par délégation du directeur (Agrément MJ 2026-14")

    text = _printed("advance-book", tmp_path, signing_configured.ca_pem, table=4)
    assert _has(text, "encaisse comptée", "19 000,00")
    assert _has(text, "u_directeur / u_caissier")  # signed as at a closing, the cashier present
    assert _has(text, "non reprise")
    assert _has(text, "u_directeur (directeur)") and not _has(text, "Agrément MJ")


@pytest.mark.django_db
def test_fr_advance_book_shows_who_changed_the_maximum_and_no_notice(
    staff: dict[str, Any], signing_configured: Any, tmp_path: Path
) -> None:
    table = services.create_table(actor=staff["director"], number=3, code="BJ03")
    with at_day(DAY, 14):
        _delegation(staff)
        session = services.open_session(
            actor=staff["director"],
            table=table,
            minimum=D("10.00"),
            maximum=D("1000.00"),
            advance_amount=D("30000.00"),
            croupier=staff["croupier"],
        )
    with at_day(DAY, 15):
        services.change_maximum(
            actor=staff["committee"], session=session, maximum=D("2000.00"), display_changed=True
        )
    with at_day(DAY, 16):
        services.interrupt_session(
            actor=staff["croupier"], session=session, mode="locked", key_holder=staff["director"]
        )
    text = _printed("advance-book", tmp_path, signing_configured.ca_pem, table=3)
    assert _has(text, "Maximum fixé par : u_directeur (directeur)")
    assert _has(text, "1 000,00 → 2 000,00 (u_comite_direction — maximum fixé par délégation du directeur")
    assert _has(text, "Agrément MJ 2026-14")
    assert _has(text, "encaisse sous clé", "non reprise")
    assert not _has(text, "Information du ministre")  # FR: no notice
    assert not _has(text, "sans référence")


def _log(seed: int) -> bytes:
    shoe = simulate_shoe(
        seed, "FR", table="BJ03", limits=("10.00", "1000.00"), faults=["SETTLEMENT_MISMATCH"]
    )
    return json.dumps(shoe).encode()


@pytest.mark.django_db
def test_the_session_report_shows_the_directors_acknowledgement_and_its_part_is_made_again(
    staff: dict[str, Any], signing_configured: Any, tmp_path: Path, django_capture_on_commit_callbacks: Any
) -> None:
    table = services.create_table(actor=staff["director"], number=3, code="BJ03")
    with at_day(DAY, 14):
        session = services.open_session(
            actor=staff["director"],
            table=table,
            minimum=D("10.00"),
            maximum=D("1000.00"),
            advance_amount=D("30000.00"),
            croupier=staff["croupier"],
        )
    builders.shoe(session)  # the depot's decks in the séance's shoe
    with at_day(DAY, 22), django_capture_on_commit_callbacks(execute=True):
        services.upload_hand_log(actor=staff["croupier"], session=session, raw=_log(2), source="api")
    rows = list(Discrepancy.objects.all())
    assert rows
    register = get_register("session-report")
    request = Request(DAY, DAY, 3)

    def made() -> RegisterPart:
        report = request_report(
            actor=None, register="session-report", date_from=DAY, date_to=DAY, table=3, enqueue=False
        )
        produce_report(report.pk, inline_parts=True)
        return RegisterPart.objects.order_by("-id").first()

    before = read_chunk(register, request).content_hash
    part = made()
    assert part.content_hash == before
    with default_storage.open(part.file.name, "rb") as f:
        stored = _flat(f.read())
    assert _has(stored, "Pris en compte par le directeur : 0 /") and not _has(stored, "(Vu.)")

    with at_day(DAY + dt.timedelta(days=1), 10):
        services.acknowledge_discrepancies(actor=staff["director"], discrepancies=rows, note="Vu.")
    after = read_chunk(register, request).content_hash
    assert after != before
    again = made()
    assert again.pk != part.pk and again.content_hash == after

    text = _printed("session-report", tmp_path, signing_configured.ca_pem, table=3)
    assert _has(text, "u_directeur — 01/12/2026 10:00 (Vu.)")
    assert _has(text, f"Pris en compte par le directeur : {len(rows)} / {len(rows)}")


@pytest.mark.django_db
@pytest.mark.parametrize(("profile", "article"), [("FR", "FR art. 55-5"), ("LU", "LU art. 33")])
def test_the_authorised_minimums_register_shows_each_act_with_the_officers_visa(
    staff: dict[str, Any], signing_configured: Any, tmp_path: Path, profile: str, article: str
) -> None:
    update_casino_settings(actor=staff["director"], profile=profile)
    with at_day(DAY - dt.timedelta(days=2), 11):
        stamped = services.record_authorised_minimum(
            actor=staff["director"],
            minimum=D("2.00"),
            decree_reference="Arrêté ministériel du 20/11/2026, NOR INTD2631234A",
            decree_date=DAY - dt.timedelta(days=10),
            in_force_on=DAY - dt.timedelta(days=1),
        )
    with at_day(DAY, 9):
        services.stamp_authorised_minimum(actor=staff["officer"], act=stamped)
        services.record_authorised_minimum(
            actor=staff["director"],
            minimum=D("3.00"),
            decree_reference="Arrêté du 29/11/2026",
            decree_date=DAY - dt.timedelta(days=1),
            in_force_on=DAY + dt.timedelta(days=5),
        )
    text = _printed(
        "authorised-minimums", tmp_path, signing_configured.ca_pem, start=DAY - dt.timedelta(days=5)
    )
    assert _has(text, article)
    assert _has(text, "NOR INTD2631234A (20/11/2026)")
    assert _has(text, "28/11/2026 11:00, u_directeur")
    assert _has(text, "u_officier — 30/11/2026 09:00")
    assert _has(text, "non visé : sans effet")
    assert _has(text, "Actes de la période / en attente du visa 2 1")
