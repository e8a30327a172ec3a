"""One deck from its order to its destruction, in a real browser (headless Chromium): the
director in the admin, the officer in the portal, every object chosen by what they see (the
maker's name, the order's maker, the deck's serial, table 3, the officer's name), never by a
database id typed or read from a URL. Each act is checked on the page that records it, and at
the end the deck's history lists every step with its audit number (the admin's page, the
portal's page and ``manage.py deck_history``)."""

from __future__ import annotations

import re
import shutil
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from casino_ops import roles
from tests.support.browser import ARGS, BROWSER_TEST, CHROMIUM, OUTPUT, login_director, login_officer

pytestmark = BROWSER_TEST

MAKER = "Cartes du Chemin"
SERIAL = "W1-1"


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Any:
    playwright_sync = pytest.importorskip("playwright.sync_api")
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with playwright_sync.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield chromium
        chromium.close()


class Walk:
    """The director's and the officer's pages; with ``--screenshots``, a screenshot after each step."""

    def __init__(self, browser: Any, base: str, folder: Path, screenshots: bool) -> None:
        self.base = base
        self.folder = folder
        self.screenshots = screenshots
        self.shots: list[Path] = []
        self.director = self._page(browser)
        self.officer = self._page(browser)

    @staticmethod
    def _page(browser: Any) -> Any:
        context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="fr-FR")
        page = context.new_page()
        page.set_default_timeout(15000)
        return page

    def shot(self, page: Any, name: str) -> None:
        if not self.screenshots:
            return
        path = self.folder / f"walk-{len(self.shots) + 1:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        self.shots.append(path)

    def add(self, model: str, fields: dict[str, str], selects: dict[str, str] | None = None) -> str:
        """Fill an admin add page (selects chosen by their visible label) and save; the message."""
        page = self.director
        page.goto(f"{self.base}/admin/cards_registry/{model}/add/")
        for name, label in (selects or {}).items():
            option = page.locator(f"#id_{name} option", has_text=label).first
            page.select_option(f"#id_{name}", label=option.inner_text())
        for name, value in fields.items():
            field = page.locator(f"#id_{name}")
            if field.get_attribute("type") == "checkbox":
                field.check()
            else:
                field.fill(value)
        page.click("input[name=_save]")
        errors = page.locator(".errornote, .errorlist")
        assert errors.count() == 0, (model, errors.all_inner_texts())
        self.shot(page, model)
        return str(page.locator(".messagelist").inner_text())

    def act_on_decks(self, action: str, serials: list[str], fields: dict[str, str]) -> str:
        """Tick the decks by serial on the decks' list, run ``action``, fill its own page's
        fields and save."""
        page = self.director
        page.goto(f"{self.base}/admin/cards_registry/deck/?q={serials[0].split('-')[0]}")
        for serial in serials:
            row = page.locator(
                "#result_list tbody tr", has=page.locator("th a", has_text=re.compile(f"^{serial}$"))
            )
            row.locator("input.action-select").check()
        page.select_option("select[name=action]", action)
        page.click("button[name=index]")
        page.wait_for_selector("form input[name=_act]", state="attached")
        for name, value in fields.items():
            if name == "officer":
                option = page.locator("select[name=officer] option", has_text=value).first
                page.select_option("select[name=officer]", label=option.inner_text())
            else:
                page.fill(f"input[name={name}]", value)
        self.shot(page, f"decks-{action}-page")
        page.click("#content form input[type=submit]")
        page.wait_for_load_state()
        self.shot(page, f"decks-{action}")
        return str(page.locator(".messagelist").inner_text())

    def stamp(self, has_text: str, remark: str) -> str:
        page = self.officer
        page.goto(f"{self.base}/inspection/visas/")
        form = page.locator("form.visa-row", has_text=has_text)
        assert form.count() == 1, page.locator("main").inner_text()
        form.locator("input[name=remark]").fill(remark)
        form.locator("button").click()
        page.wait_for_selector(".msg-success")
        self.shot(page, "visa")
        return str(page.locator(".messages").inner_text())


@pytest.mark.django_db(transaction=True)
def test_one_deck_from_order_to_destruction(
    browser: Any,
    live_server: Any,
    users: dict[str, Any],
    casino: Any,
    devices: dict[str, Any],
    screenshots: bool,
    tmp_path: Path,
) -> None:
    from cards_registry.models import Deck, DeckStatus
    from tables import services as tables

    director, officer = users[roles.DIRECTOR], users[roles.OFFICER]
    tables.create_table(actor=director, number=3, code="BJ03")  # the floor, set up at installation
    today = timezone.localdate()
    walk = Walk(browser, live_server.url, tmp_path, screenshots)
    login_director(walk.director, live_server.url, director, devices[roles.DIRECTOR])
    login_officer(walk.officer, live_server.url, officer, devices[roles.OFFICER])
    try:
        # The maker, approved by the ministry; the key of the cabinet.
        done = walk.add(
            "manufacturer",
            {
                "code": "CHEM",
                "name": MAKER,
                "approval_reference": "Agrément 2026-17",
                "valid_from": "2026-01-01",
            },
        )
        assert MAKER in done
        done = walk.add("keyhandover", {"reason": "Prise de la clé"}, {"receiver": director.username})
        assert "ajouté" in done
        # The order, stamped by the officer, then sent.
        done = walk.add(
            "order",
            {"lines": "3 jeux bleu\n3 jeux rouge", "note": "Commande du chemin"},
            {"manufacturer": MAKER},
        )
        assert "Bon de commande n° 1/1" in done, done
        # the visas page lists the order and the maker's approval (both name the maker): the order's
        # row by its note, then the approval's by its reference, so that nothing is left to visa
        assert "visa apposé" in walk.stamp("Commande du chemin", "Bon conforme")
        assert "visa apposé" in walk.stamp("Agrément 2026-17", "Agrément vu")
        page = walk.director
        page.goto(f"{live_server.url}/admin/cards_registry/order/")
        page.locator("#result_list tbody tr", has_text=MAKER).locator("input.action-select").check()
        page.select_option("select[name=action]", "send")
        page.click("button[name=index]")
        page.wait_for_load_state()
        assert "envoyé" in page.locator(".messagelist").inner_text()
        walk.shot(page, "order-sent")

        # The delivery: one sixain, its six decks by serial; the officer stamps the receipt book.
        received = "\n".join(f"W1-{i} {'bleu' if i <= 3 else 'rouge'} SW1" for i in range(1, 7))
        done = walk.add(
            "reception",
            {"received_on": today.isoformat(), "delivery_note": "BL CHEMIN 1", "decks": received},
            {"order": "— CHEM"},
        )
        assert "Prise en charge n° 1" in done, done
        assert "visa apposé" in walk.stamp("BL CHEMIN 1", "Conforme au bordereau")

        # To table 3, unsealed there on video, back counted, declared out of use, destroyed.
        day = today.isoformat()
        done = walk.act_on_decks("issue", [SERIAL], {"table_number": "3", "day": day})
        assert "remis à la table" in done, done
        done = walk.add(
            "tablecheck",
            {
                "serial": SERIAL,
                "table_number": "3",
                "day": day,
                "witness": "Le chef de partie",
                "band_intact": "on",
                "order_checked": "on",
                "cards_counted": "52",
                "video_reference": "CAM3 14:02",
            },
        )
        assert "ajouté" in done
        done = walk.add(
            "deckreturn",
            {"table_number": "3", "day": day, "deck_1": SERIAL, "cards_1": "52"},
            selects={"result_1": "apte, remis au dépôt"},
        )
        assert "rendus, comptés et examinés" in done, done
        done = walk.add("outofusedeclaration", {"serials": SERIAL, "reason": "Fin de vie"})
        assert "ajouté" in done
        done = walk.act_on_decks("destroy", [SERIAL], {"officer": officer.username})
        assert "Destruction enregistrée" in done, done
        assert "visa apposé" in walk.stamp("Destruction n°", "Détruit devant moi")

        # The deck's history: every step, each with its audit number.
        deck = Deck.objects.get(serial=SERIAL)
        assert deck.status == DeckStatus.DESTROYED
        steps = [
            "Commandé",
            "visé par",
            "envoyé au fabricant",
            "Pris en charge",
            "Prise en charge n°",
            "Remis à la table 3",
            "Descellé à la table 3",
            "Rendu par la table 3",
            "Déclaré hors d'usage au dépôt : Fin de vie",
            "Détruit",
            "Destruction n°",
        ]
        page = walk.director
        page.goto(f"{live_server.url}/admin/cards_registry/deck/?q={SERIAL}")
        page.locator("#result_list th a", has_text=SERIAL).click()
        page.wait_for_selector(".field-history_display li")
        items = page.locator(".field-history_display li").all_inner_texts()
        walk.shot(page, "deck-history-admin")
        for step in steps:
            found = [item for item in items if step in item]
            assert found, (step, items)
            assert re.search(r"audit n° \d+", found[0]), found[0]
        walk.officer.goto(f"{live_server.url}/inspection/jeux/?serie={SERIAL}")
        walk.officer.locator("main a", has_text=SERIAL).first.click()
        walk.officer.wait_for_selector("ol.history li")
        portal = walk.officer.locator("main").inner_text()
        walk.shot(walk.officer, "deck-history-portal")
        for step in steps:
            assert step in portal, (step, portal)
        out = StringIO()
        call_command("deck_history", SERIAL, stdout=out)
        lines = out.getvalue().splitlines()[1:]
        assert len(lines) >= len(steps)
        assert all(re.match(r"\s+#\d+\s", line) for line in lines), lines
    finally:
        if walk.shots:
            (OUTPUT / "walk").mkdir(parents=True, exist_ok=True)
        for path in walk.shots:
            shutil.copy(path, OUTPUT / "walk" / path.name)
