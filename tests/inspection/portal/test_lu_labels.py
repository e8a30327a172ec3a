"""Under LU the portal and the registers show no French model number and cite no French
article (the LU books' models are fixed by the Minister of Finances; LU art. 10 for books
without erasure); under FR the model numbers stay."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from audit import signing
from casino_ops import roles
from inspection.registers import get_register
from inspection.registers.base import Request
from inspection.registers.render import read_chunk, render_html

pytestmark = pytest.mark.django_db

PAGES = ("dashboard", "visas", "advance_book", "control_register", "registers", "sessions", "proofs")


def _pages(client: Client, session: Any) -> str:
    texts = []
    for name in PAGES:
        response = client.get(reverse(f"portal:{name}"), {"table": session.table.number})
        assert response.status_code == 200, name
        texts.append(response.content.decode())
    response = client.get(reverse("portal:session", args=[session.pk]))
    assert response.status_code == 200
    return "\n".join([*texts, response.content.decode()])


def _register(name: str, session: Any) -> str:
    request = Request(session.day, session.day, session.table.number)
    return render_html(get_register(name), [read_chunk(get_register(name), request)])


def test_lu_portal_and_registers_show_no_french_model_nor_article(
    samples: Any, officer_client: Client
) -> None:
    from tests.support.builders import books_read_under

    books_read_under("LU")  # the samples' books were kept under FR
    session = samples.session
    shown = (
        _pages(officer_client, session)
        + _register("advance-book", session)
        + _register("control-register", session)
    )
    assert "modèle n°" not in shown.lower() and "model no." not in shown.lower()
    # the samples' hand logs were replayed under FR and keep the articles cited then; what the
    # pages and registers say of themselves cites LU
    assert "FR art. 68" not in shown and "(FR art." not in shown
    assert "LU art. 10" in _register("advance-book", session)
    assert signing.no_erasure_article() == "LU art. 10"


def test_fr_portal_keeps_the_model_numbers(samples: Any, officer_client: Client) -> None:
    session = samples.session
    shown = _pages(officer_client, session)
    assert "modèle n° 10" in shown and "modèle n° 12" in shown and "modèle n° 19" in shown
    assert "FR art. 68" in _register("advance-book", session)
    assert signing.no_erasure_article() == "FR art. 68"


def test_lu_admin_index_shows_no_french_model_number(clients: dict[str, Client], users: Any) -> None:
    """The admin names the tables' books without the French model numbers (they belong to the
    FR printed registers and portal only)."""
    from house_books.services.casino import update_casino_settings

    update_casino_settings(
        actor=users[roles.DIRECTOR], name="Casino LU", profile="LU", authorised_min_stake=Decimal("5.00")
    )
    response = clients[roles.DIRECTOR].get(reverse("admin:index"))
    assert response.status_code == 200
    shown = response.content.decode()
    assert "registre de contrôle" in shown.lower() or "control register" in shown.lower()
    assert "modèle n°" not in shown.lower() and "form no." not in shown.lower()
