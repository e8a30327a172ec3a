"""An officer in a real browser: headless Chromium (Debian's) driven by Playwright.

Logs in with a TOTP code, steps through a round with a discrepancy in the visual
replay (forward and back), stamps a receipt-book entry, checks a signed register
in the signature checker. Screenshots go to the test's output directory
(``test-output/browser/`` too, which git ignores, to look at them).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from casino_ops import roles

from .conftest import totp_code

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
OUTPUT = Path(__file__).resolve().parents[2] / "test-output" / "browser"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch, samples: Any) -> Any:
    samples.report  # noqa: B018 - sign the register before Playwright's event loop starts
    playwright_sync = pytest.importorskip("playwright.sync_api")
    # Playwright's sync API runs an event loop in this thread; the test's own
    # database calls stay synchronous.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
        page = context.new_page()
        page.set_default_timeout(15000)
        yield page
        context.close()
        browser.close()


@pytest.mark.django_db(transaction=True)
def test_officer_session_in_a_browser(page, live_server, samples, devices, tmp_path) -> None:
    from cards_registry.models import Visa

    shots: list[Path] = []

    def shot(name: str, **kwargs: Any) -> None:
        path = tmp_path / f"{len(shots) + 1:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=True, **kwargs)
        shots.append(path)

    officer = samples.users[roles.OFFICER]
    pdf_path = samples.report.file.path
    base = live_server.url

    # Login with password and the authenticator's code.
    page.goto(f"{base}/inspection/")
    assert "/inspection/connexion/" in page.url
    page.fill("#id_username", officer.username)
    page.fill("#id_password", "pw-officier")
    page.fill("#id_code", totp_code(devices[roles.OFFICER]))
    shot("login")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/inspection/")
    assert page.locator("h1").inner_text() == "Tableau de bord"
    shot("dashboard")

    # The hand log, then the visual replay of its round with a discrepancy.
    page.goto(f"{base}/inspection/journaux/{samples.hand_log.pk}/")
    shot("hand-log")
    page.click("text=manche 1 →")
    page.wait_for_selector("[data-counter]")
    counter = page.locator("[data-counter]")
    assert counter.inner_text() == "1 / 11"
    shot("replay-start")
    for _ in range(4):
        page.click("[data-next]")
    assert counter.inner_text() == "5 / 11"
    assert page.locator("section.step:visible h2").inner_text().endswith("Assurances")
    while not page.locator("section.step:visible .disc-badge").count():
        page.click("[data-next]")
    visible = page.locator("section.step:visible")
    assert "Paiements" in visible.locator("h2").inner_text()
    assert "SETTLEMENT_MISMATCH" in visible.locator(".disc-badge").inner_text()
    assert "FR art. 55-4 1°" in visible.inner_text()
    shot("replay-discrepancy")
    page.click("[data-prev]")
    assert counter.inner_text() == "10 / 11"
    assert page.locator("section.step:visible .disc-badge").count() == 0
    page.keyboard.press("ArrowRight")
    assert counter.inner_text() == "11 / 11"
    assert page.locator("[data-next]").is_disabled()

    # A tablet sees the same round.
    page.set_viewport_size({"width": 820, "height": 1180})
    shot("replay-tablet")
    page.set_viewport_size({"width": 1280, "height": 900})

    # Stamp the receipt-book entry.
    page.goto(f"{base}/inspection/visas/")
    form = page.locator(
        "form.visa-row",
        has_text=f"Prise en charge n° {samples.reception.book.number}/{samples.reception.number}",
    )
    form.locator("input[name=remark]").fill("Conforme au bordereau BL 4411")
    shot("visas")
    form.locator("button").click()
    page.wait_for_selector(".msg-success")
    assert "visa apposé" in page.locator(".messages").inner_text()
    shot("visa-done")
    visa = Visa.objects.get(reception=samples.reception)
    assert visa.officer == officer and visa.remark == "Conforme au bordereau BL 4411"

    # Check the signed register in the signature checker.
    page.goto(f"{base}/inspection/signatures/")
    page.set_input_files("#id_pdf", pdf_path)
    page.click("main button[type=submit]")
    page.wait_for_selector(".verdict")
    verdict = page.locator(".verdict").inner_text()
    assert "Registre authentique" in verdict
    assert samples.report.sha256 in verdict
    shot("signature-checker")

    # The other pages an officer reads, for the record.
    for name, url in (
        ("register", "/inspection/registres/receipt-book/?date_from=2026-11-01&date_to=2026-11-30"),
        ("session", f"/inspection/seances/{samples.session.pk}/"),
        ("deck", f"/inspection/jeux/{samples.deck.pk}/"),
        ("incidents", "/inspection/incidents/"),
        ("audit-trail", "/inspection/audit/"),
    ):
        page.goto(f"{base}{url}")
        assert page.locator("h1").count() == 1
        shot(name)

    OUTPUT.mkdir(parents=True, exist_ok=True)
    for path in shots:
        assert path.stat().st_size > 10_000
        shutil.copy(path, OUTPUT / path.name)
