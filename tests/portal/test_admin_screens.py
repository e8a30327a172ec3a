"""The director's admin in a real browser at 1366×900 (headless Chromium via Playwright), in
French and in English: every changelist and a change page of each model that has an entry,
no page wider than the window, the session's acts under the title instead of over it,
no raw discrepancy code or JSON brace outside the code captions. With ``--screenshots``,
a screenshot of each page goes to ``test-output/admin/<language>/`` (git ignores it) to look at."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from .test_browser import ARGS, CHROMIUM

OUTPUT = Path(__file__).resolve().parents[2] / "test-output" / "admin"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

# Visible text (captions removed) must not show a discrepancy code or a JSON object.
RAW_CODE = re.compile(r"\b[A-Z]{3,}_[A-Z_]{3,}\b")


LOCALES = {"fr": "fr-FR", "en": "en-GB"}
ADMIN_APPS = ("casino_ops", "audit", "cards_registry", "tables", "house_books")


@pytest.fixture(params=sorted(LOCALES))
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def admin_page(monkeypatch: pytest.MonkeyPatch, samples: Any, language: str) -> Any:
    playwright_sync = pytest.importorskip("playwright.sync_api")
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1366, "height": 900}, locale=LOCALES[language])
        page = context.new_page()
        page.set_default_timeout(15000)
        yield page
        context.close()
        browser.close()


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


def every_admin_page() -> dict[str, str]:
    """The changelist of every model of the project's apps, and the change page of its first entry."""
    from django.contrib import admin
    from django.urls import reverse

    pages: dict[str, str] = {}
    for model in admin.site._registry:
        meta = model._meta
        if meta.app_label not in ADMIN_APPS:
            continue
        name = f"{meta.app_label}-{meta.model_name}"
        pages[f"{name}-list"] = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            pages[f"{name}-change"] = reverse(
                f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk]
            )
    return pages


@pytest.mark.django_db(transaction=True)
def test_the_directors_admin_fits_1366_pixels(
    admin_page, language, live_server, samples, settings, screenshots, tmp_path
) -> None:
    settings.TWO_FACTOR_REQUIRED = False
    page = admin_page
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "u_directeur")
    page.fill("#id_password", "pw-directeur")
    page.click("input[type=submit]")
    page.wait_for_url(f"{live_server.url}/admin/")
    assert page.evaluate("() => document.documentElement.lang")[:2] == language
    session, log = samples.session, samples.hand_log
    pages = {
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
    # every list and change page, each visited once (the ones named above are among them)
    for name, url in every_admin_page().items():
        if url not in pages.values():
            pages[name] = url
    shots: list[Path] = []
    problems: list[str] = []
    checked: list[str] = []
    try:
        for name, url in pages.items():
            response = page.goto(f"{live_server.url}{url}")
            assert response is not None and response.status == 200, (url, response and response.status)
            try:
                _check(page, name, shots if screenshots else None, tmp_path)
            except AssertionError as error:
                problems.append(f"{url}: {error}")
            checked.append(name)
            if name == "session":
                title = page.locator("#content h1").first.bounding_box()
                tools = page.locator(".object-tools").first.bounding_box()
                assert tools["y"] >= title["y"] + title["height"] - 1, (title, tools)
    finally:
        if shots:
            (OUTPUT / language).mkdir(parents=True, exist_ok=True)
        for shot in shots:
            shutil.copy(shot, OUTPUT / language / shot.name)
    assert checked == list(pages)
    assert not problems, "\n".join(problems)
