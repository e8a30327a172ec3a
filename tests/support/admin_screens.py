"""The director's admin in a real browser, one language at a time (the admin's screen test,
``tests/inspection/portal/test_admin_screens.py``, tours both with the same samples): every changelist and
a change page of each model that has an entry, the acts' pages (a séance's acts, the decks'
actions, each on its own page), at 1366×900: no page wider than the window, the session's acts
under the title instead of over it, no raw discrepancy code or JSON
brace outside the code captions; at 1366×900 and on a phone (390×844): axe-core finds no
WCAG 2.1 A/AA violation. The page is laid out again for the phone without loading it again.
With ``--screenshots``, a screenshot of each page goes to ``test-output/admin/<language>/``."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

from tests.support.browser import AXE_RUN_JS, ROOT, VIEWPORTS, admin_acts_pages, axe_script, every_admin_page

OUTPUT = ROOT / "test-output" / "admin"

# Visible text (captions removed) must not show a discrepancy code or a JSON object.
RAW_CODE = re.compile(r"\b[A-Z]{3,}_[A-Z_]{3,}\b")


LOCALES = {"fr": "fr-FR", "en": "en-GB"}


#: The decks' actions, each asking for its own fields on a page of its own (opened from the list).
DECK_ACTIONS = ("issue", "check_at_table", "return_fit", "destroy")


def _axe(page: Any, name: str) -> list[str]:
    """axe-core at each size (the page laid out again for the phone, not loaded again)."""
    found = []
    for size, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        found += [
            f"{name} ({size}): axe {v['impact']} {v['id']} {v['nodes']}" for v in page.evaluate(AXE_RUN_JS)
        ]
    page.set_viewport_size(VIEWPORTS["desktop"])
    return found


def _check(page: Any, name: str, shots: list[Path] | None, tmp_path: Path) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    if shots is not None:
        shot = tmp_path / f"{name}.png"
        page.screenshot(path=str(shot), full_page=True)
        shots.append(shot)
    assert width <= 1366, (name, width)
    clipped = page.evaluate(
        """() => [...document.querySelectorAll('#changelist .results, .inline-group .tabular')]
        .filter(e => e.scrollWidth > e.clientWidth + 1).length"""
    )
    assert clipped == 0, (name, "a list wider than its box")
    text = page.evaluate(
        """() => { const c = document.body.cloneNode(true);
        c.querySelectorAll('.code-caption, script, style, select, .hash').forEach(e => e.remove());
        return c.innerText; }"""
    )
    assert not RAW_CODE.search(text), (name, RAW_CODE.search(text).group(0))
    assert '{"' not in text, name


def _open_deck_action(page: Any, base: str, action: str, serial: str) -> None:
    """The decks' list, one deck ticked, ``action`` chosen: its own page."""
    page.goto(f"{base}/admin/cards_registry/deck/?q={serial}")
    page.locator("#result_list tbody tr", has_text=serial).first.locator("input.action-select").check()
    page.select_option("select[name=action]", action)
    page.click("button[name=index]")
    page.wait_for_selector("form input[name=_act]", state="attached")


def tour_the_admin(
    language: str,
    *,
    chromium: Any,
    live_server: Any,
    samples: Any,
    settings: Any,
    screenshots: bool,
    tmp_path: Path,
) -> None:
    """Every admin page in ``language`` ("fr" or "en"), signed in as the director; fails with
    every problem found."""
    from tables.models import ControlDay

    settings.TWO_FACTOR_REQUIRED = False
    ControlDay.objects.get_or_create(day=samples.session.day)  # the day's page, with its closing rules
    session, log = samples.session, samples.hand_log
    named = {
        "session": f"/admin/tables/session/{session.pk}/change/",
        "sessions": "/admin/tables/session/",
        "handlog": f"/admin/tables/handlog/{log.pk}/change/",
        "discrepancies": "/admin/tables/discrepancy/",
        "decks": "/admin/cards_registry/deck/",
        "orders": "/admin/cards_registry/order/",
        "receptions": "/admin/cards_registry/reception/",
        "incidents": "/admin/cards_registry/incident/",
        "audit": "/admin/audit/auditevent/",
        "table": f"/admin/tables/table/{session.table_id}/change/",
        "advance_entries": "/admin/tables/advanceentry/",
    }
    # every list and change page and the acts' pages, each visited once
    pages = dict(named)
    for name, url in [*every_admin_page().items(), *admin_acts_pages(samples)]:
        if url not in pages.values():
            pages[name] = url
    axe = axe_script()
    base = live_server.url
    problems: list[str] = []
    checked: list[str] = []
    locale = LOCALES[language]
    context = chromium.new_context(viewport=VIEWPORTS["desktop"], locale=locale)
    context.add_init_script(path=str(axe))
    page = context.new_page()
    page.set_default_timeout(15000)
    shots: list[Path] = []
    try:
        page.goto(f"{base}/admin/login/")
        page.fill("#id_username", "u_directeur")
        page.fill("#id_password", "pw-directeur")
        page.click("input[type=submit]")
        page.wait_for_url(f"{base}/admin/")
        assert page.evaluate("() => document.documentElement.lang")[:2] == language
        for name, url in pages.items():
            response = page.goto(f"{base}{url}")
            assert response is not None and response.status == 200, (url, response and response.status)
            try:
                _check(page, f"{language}-{name}", shots if screenshots else None, tmp_path)
            except AssertionError as error:
                problems.append(f"{language} {url}: {error}")
            problems += _axe(page, f"{language} {url}")
            checked.append(f"{language}-{name}")
            if name == "session":
                title = page.locator("#content h1").first.bounding_box()
                tools = page.locator(".object-tools").first.bounding_box()
                assert tools["y"] >= title["y"] + title["height"] - 1, (title, tools)
        for action in DECK_ACTIONS:
            _open_deck_action(page, base, action, samples.deck.serial)
            name = f"{language}-deck-action-{action}"
            try:
                _check(page, name, shots if screenshots else None, tmp_path)
            except AssertionError as error:
                problems.append(f"{language} deck action {action}: {error}")
            problems += _axe(page, name)
            checked.append(name)
    finally:
        context.close()
        if shots:
            (OUTPUT / language).mkdir(parents=True, exist_ok=True)
        for shot in shots:
            shutil.copy(shot, OUTPUT / language / shot.name)
    assert len(checked) == len(pages) + len(DECK_ACTIONS)
    assert not problems, "\n".join(problems)
