"""The admin's raw hand log ("journal tel que reçu") read on a phone, 375 px wide: opened, it
wraps inside the page (no line wider than the window, no nested entry squeezed off screen)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.browser import ARGS, BROWSER_TEST, CHROMIUM

pytestmark = BROWSER_TEST


def test_the_raw_hand_log_is_readable_at_375_pixels(monkeypatch, live_server, samples, settings) -> None:
    playwright_sync = pytest.importorskip("playwright.sync_api")
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    settings.TWO_FACTOR_REQUIRED = False
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        context = browser.new_context(viewport={"width": 375, "height": 740}, locale="fr-FR")
        page: Any = context.new_page()
        page.set_default_timeout(15000)
        try:
            page.goto(f"{live_server.url}/admin/login/")
            page.fill("#id_username", "u_directeur")
            page.fill("#id_password", "pw-directeur")
            page.click("input[type=submit]")
            page.wait_for_url(f"{live_server.url}/admin/")
            page.goto(f"{live_server.url}/admin/tables/handlog/{samples.hand_log.pk}/change/")
            page.click("details summary")
            raw = page.locator("details")
            box = raw.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375 + 1, box
            overflowing = page.evaluate(
                """() => [...document.querySelectorAll('details dl.kv dd, details dl.kv dt')]
                .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.right > 376 || r.width < 40); })
                .length"""
            )
            assert overflowing == 0, "entries of the raw log off screen or squeezed under 40 px"
            assert page.evaluate("document.documentElement.scrollWidth") <= 375
        finally:
            context.close()
            browser.close()
