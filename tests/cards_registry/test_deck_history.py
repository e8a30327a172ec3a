"""``manage.py deck_history``: the demo deck's life in order with audit numbers; unknown serial → exit 1."""

from __future__ import annotations

import re
import subprocess
import sys
from io import StringIO
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from cards_registry import services
from cards_registry.demo import MAKER_CODE, destroyed_demo_deck
from cards_registry.models import Deck
from cards_registry.selectors import deck_history
from casino_ops import clock
from tests.support import builders

pytestmark = pytest.mark.django_db


def _destroyed_demo_deck() -> str:
    return destroyed_demo_deck(clock.demo_today())


def test_demo_deck_life_in_order(demo: Any) -> None:
    out = StringIO()
    call_command("deck_history", _destroyed_demo_deck(), "--manufacturer", MAKER_CODE, stdout=out)
    lines = out.getvalue().splitlines()
    assert "état : détruit" in lines[0]
    steps = lines[1:]
    expected = ["Commandé", "Pris en charge", "Remis à la table 1", "Rendu", "Mis hors d'usage", "Détruit"]
    positions = []
    for word in expected:
        found = [i for i, line in enumerate(steps) if word in line]
        assert found, (word, steps)
        positions.append(found[0])
    assert positions == sorted(positions)
    seqs = [int(m.group(1)) for line in steps if (m := re.match(r"\s+#(\d+)\s", line))]
    assert len(seqs) == len(steps)  # every step has its audit number
    assert seqs == sorted(seqs)


def test_unknown_serial_says_so_and_exits_1(demo: Any) -> None:
    with pytest.raises(CommandError, match="Jeu inconnu"):
        call_command("deck_history", "NO-SUCH-DECK", stdout=StringIO())
    with pytest.raises(CommandError, match="fabricant ZZZ"):
        call_command("deck_history", _destroyed_demo_deck(), "--manufacturer", "ZZZ", stdout=StringIO())


def test_exit_status_through_manage_py(django_db_setup: Any) -> None:
    """The command in a process of its own on the test database (created by ``django_db_setup``):
    this test reads and writes nothing itself, so it has no transaction to flush."""
    env = {
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": _test_db_url(),
        "PATH": "/usr/bin:/bin",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "deck_history", "NO-SUCH-DECK"],
        capture_output=True,
        text=True,
        env=env,
        cwd=settings.BASE_DIR,
        check=False,
    )
    assert result.returncode == 1
    assert "Jeu inconnu" in result.stderr


def _test_db_url() -> str:
    db = settings.DATABASES["default"]
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
    )


def test_every_step_of_the_depot_is_in_the_history(director: Any, officer: Any, casino: Any) -> None:
    """The order's visa and its sending, a declaration out of use in the cabinet: each a step of
    the deck's life with its audit number."""
    stock = builders.depot_with_decks(director, officer, prefixes=("H1",))
    deck = Deck.objects.get(serial="H1-1")
    services.declare_out_of_use(actor=director, decks=[deck], reason="Dos décoloré")
    lines = deck_history(deck)
    texts = [line.what for line in lines]
    order = stock.order
    for expected in (
        f"Bon n° {order.number} visé par",
        f"Bon n° {order.number} envoyé au fabricant",
        "Déclaré hors d'usage au dépôt : Dos décoloré",
    ):
        matching = [line for line in lines if expected in line.what]
        assert matching, (expected, texts)
        assert matching[0].audit_seq is not None, expected


def test_the_history_reads_in_the_active_language(demo: Any) -> None:
    from django.utils import translation

    deck = Deck.objects.get(serial=_destroyed_demo_deck(), manufacturer__code=MAKER_CODE)
    french = [line.what for line in deck_history(deck)]
    with translation.override("en"):
        english = [line.what for line in deck_history(deck)]
    assert len(english) == len(french)
    assert english[0].startswith("Ordered: order no."), english
    assert any(w.startswith("Destroyed: report no.") for w in english), english
    assert not any("Commandé" in w or "Détruit" in w or " à la " in w for w in english), english
    assert french[0].startswith("Commandé : bon n°")


def test_an_incident_at_the_depot_reads_au_depot(director: Any, officer: Any, decks: list[Deck]) -> None:
    import datetime as dt

    from django.utils import timezone, translation

    deck = decks[0]
    now = timezone.now()
    services.report_incident(
        actor=director,
        kind="marked",
        occurred_at=now - dt.timedelta(minutes=5),
        day=builders.gaming_day(),
        decks=[deck],
        officer_informed=officer,
        officer_informed_at=now - dt.timedelta(minutes=4),
        circumstances="Une carte marquée trouvée à l'inventaire du dépôt.",
    )
    lines = [line.what for line in deck_history(deck)]
    assert any("au dépôt" in line for line in lines) and not any("à la dépôt" in line for line in lines)
    with translation.override("en"):
        assert any("at the depot" in line.what for line in deck_history(deck))
