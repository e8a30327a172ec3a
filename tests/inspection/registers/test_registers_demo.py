"""Every register: made from the demo data, signed, checked by outside tools, not blank."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from audit.actions import Action
from audit.chain import head
from audit.models import AuditEvent
from inspection.registers import get_register, register_names
from tests.audit.conftest import assert_signed_and_tamper_evident, non_white_pixels, pdf_text, render_page
from tests.support.builders import kept_for_module
from tests.support.demo_rows import loaded

TABLE_BOOKS = {"advance-book", "session-report"}


def _args(name: str, output: Path) -> list[str]:
    today = timezone.localdate()
    args = [
        name,
        "--from",
        (today - dt.timedelta(days=60)).isoformat(),
        "--to",
        (today + dt.timedelta(days=1)).isoformat(),
    ]
    if name in TABLE_BOOKS:
        args += ["--table", "1"]
    return [*args, "--output", str(output)]


@pytest.fixture(scope="module")
def demo(django_db_setup: None, django_db_blocker: Any) -> Any:
    """The demo data, made once for the module (seed_demo takes seconds)."""
    yield from kept_for_module(django_db_blocker, lambda: loaded("FR"))


@pytest.mark.django_db
@pytest.mark.parametrize("name", register_names())
def test_each_register_from_the_demo_data_is_signed_checkable_and_not_blank(
    name: str, demo: None, signing_configured: Any, nss_db: str, tmp_path: Path
) -> None:
    pdf = tmp_path / f"{name}.pdf"
    seq, _digest = head()
    call_command("register", *_args(name, pdf), verbosity=0)
    assert_signed_and_tamper_evident(pdf, tmp_path, signing_configured.ca_pem, nss_db)
    png = render_page(pdf, 1, tmp_path / f"{name}-p1")
    assert non_white_pixels(png) > 2000, f"page 1 of {name} looks blank"
    text = pdf_text(pdf)
    flat = " ".join(text.split())
    register = get_register(name)
    assert "Casino de la Côte" in text
    assert " ".join(str(register.model).split()[:3]) in flat
    assert " ".join(str(register.title).upper().split()[:3]) in flat.upper()
    assert "page 1 /" in text
    # the head the print is stamped with: its issuing event, sealed before the pages are laid
    # out (its own register.printed event follows)
    issued = AuditEvent.objects.filter(action=Action.REGISTER_ISSUED).order_by("-seq").first()
    assert issued is not None and issued.seq == seq + 1
    assert f"n° {issued.seq}" in text and issued.hash in text.replace("\n", "")
