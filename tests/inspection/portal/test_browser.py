"""An officer in a real browser: headless Chromium (Debian's) driven by Playwright.

Logs in with a TOTP code, steps through a round with a discrepancy in the visual
replay (forward and back), stamps a receipt-book entry, checks a signed register
in the signature checker. Screenshots go to the test's output directory
(``test-output/browser/`` too, which git ignores, to look at them).

Then the tour: every portal page in French and in English (the director's admin, its
acts' pages among them, is toured by test_admin_screens.py), at 1366×900 and on a phone (390×844), each checked by axe-core (no
serious or critical WCAG 2.1 AA violation), for horizontal overflow, and for raw
codes or JSON left on screen (a screenshot of each with ``--screenshots``, in
``test-output/browser/tour/``); and a keyboard-only walk through login, a register
and a replay. One browser for the module; one logged-in context per language.
"""

from __future__ import annotations

import concurrent.futures
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from casino_ops import roles
from tests.support.browser import (
    AXE_RUN_JS,
    BROWSER_TEST,
    LOCALES,
    OUTPUT,
    VIEWPORTS,
    add_passkey,
    axe_script,
    chromium,  # noqa: F401 - the fixture, one browser for the module
    login_officer,
    portal_pages,
)

pytestmark = BROWSER_TEST


def signed_register(samples: Any) -> str:
    """The samples' signed register (its file's path), signed outside Playwright's event loop,
    which runs in this thread (pyHanko runs its own): in a thread of its own."""

    def sign() -> str:
        from django.db import connections

        try:
            return str(samples.report.file.path)
        finally:
            connections.close_all()  # the thread's own: none left open on the test database

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(sign).result()


@pytest.fixture
def page(chromium: Any, samples: Any) -> Any:  # noqa: F811 - the fixture imported above
    """A page in a context of its own, in the module's browser."""
    signed_register(samples)
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


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

    # Login with password, then the passkey (Chromium's virtual authenticator).
    add_passkey(page)
    page.goto(f"{base}/inspection/")
    assert "/inspection/connexion/" in page.url
    page.fill("#id_username", officer.username)
    page.fill("#id_password", "pw-officier")
    shot("login")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r".*/inspection/verification/.*"))
    shot("passkey")
    page.click("main button.primary")
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
    assert page.get_attribute("[data-next]", "aria-disabled") == "true"
    page.click("[data-next]", force=True)  # at the last step: nothing more, nothing back
    assert counter.inner_text() == "11 / 11"

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


# -- the tour: every page, both languages, desktop and phone --------------------------------------

# Raw codes an officer must not read outside a code caption: SETTLEMENT_MISMATCH,
# hand_log.replayed, cards_registry.cabinetopening; and JSON braces.
RAW = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[a-z]+_[a-z_]+\.[a-z_]+\b|[{}]")

VISIBLE_TEXT_JS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!el || el.closest('.code-caption, script, style, noscript')) continue;
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    if (node.textContent.trim()) out.push(node.textContent.trim());
  }
  return out;
}"""


class Tour:
    """Visits pages, runs axe and the on-screen checks; with ``--screenshots``, keeps a
    screenshot of each."""

    def __init__(self, folder: Path, screenshots: bool) -> None:
        self.folder = folder
        self.screenshots = screenshots
        self.problems: list[str] = []
        self.checked: list[str] = []
        self.shots: list[Path] = []
        folder.mkdir(parents=True, exist_ok=True)

    def at_each_size(self, page: Any, label: str, *, raw_text: bool = True) -> None:
        """The page as loaded, checked on the desktop, then on the phone (``{size}`` in the
        label): the portal's and the admin's layouts follow the window through CSS alone (no
        script reads its size), so the page is laid out again for the phone without loading it
        again."""
        for size, viewport in VIEWPORTS.items():
            page.set_viewport_size(viewport)
            self.check(page, label.format(size=size), raw_text=raw_text)
        page.set_viewport_size(VIEWPORTS["desktop"])

    def check(self, page: Any, label: str, *, raw_text: bool = True) -> None:
        width = page.evaluate("() => document.documentElement.scrollWidth")
        viewport = page.viewport_size["width"]
        if width > viewport:
            self.problems.append(f"{label}: page {width} px wide in a {viewport} px viewport")
        lang = page.evaluate("() => document.documentElement.lang")
        if label.split("-", 1)[0] != lang[:2]:
            self.problems.append(f"{label}: <html lang={lang!r}>")
        for violation in page.evaluate(AXE_RUN_JS):
            self.problems.append(f"{label}: axe {violation['impact']} {violation['id']} {violation['nodes']}")
        if raw_text:
            for text in page.evaluate(VISIBLE_TEXT_JS):
                if RAW.search(text):
                    self.problems.append(f"{label}: raw code or JSON on screen: {text[:80]!r}")
        self.checked.append(label)
        if self.screenshots:
            path = self.folder / f"{label}.png"
            page.screenshot(path=str(path), full_page=True)
            self.shots.append(path)


@pytest.mark.django_db(transaction=True)
def test_tour_of_every_page_in_both_languages_on_desktop_and_phone(
    chromium,  # noqa: F811 - the fixture imported above
    live_server,
    samples,
    devices,
    screenshots,
    tmp_path,
) -> None:
    officer = samples.users[roles.OFFICER]
    base = live_server.url
    axe = axe_script()
    tour = Tour(tmp_path / "tour", screenshots)

    report_path = signed_register(samples)

    contexts = {}
    first = chromium.new_context(locale=LOCALES["fr"], viewport=VIEWPORTS["desktop"])
    login_officer(first.new_page(), base, officer, devices[roles.OFFICER])
    officer_state = first.storage_state()
    first.close()

    # The director's admin pages (its acts' pages among them) are toured by
    # tests/inspection/portal/test_admin_screens.py, at both sizes in both languages: not twice.
    portal = portal_pages(samples)
    for language, locale in LOCALES.items():
        for who, state, pages in (("officer", officer_state, portal),):
            contexts[(language, who)] = context = chromium.new_context(
                locale=locale, viewport=VIEWPORTS["desktop"], storage_state=state
            )
            context.add_init_script(path=str(axe))
            page = context.new_page()
            page.set_default_timeout(15000)

            for name, url in pages:
                response = page.goto(f"{base}{url}")
                assert response is not None and response.status == 200, (url, response and response.status)
                # The admin is polished by its own issue: here, its accessibility only.
                tour.at_each_size(page, f"{language}-{{size}}-{name}", raw_text=who == "officer")
            if who == "officer":
                page.goto(f"{base}/inspection/signatures/")
                page.set_input_files("#id_pdf", report_path)
                page.click("main button[type=submit]")
                page.wait_for_selector(".verdict")
                # the verdict takes the focus: a screen reader reads it at once (the browser
                # applies autofocus at its next rendering step, not when the element appears)
                page.wait_for_function(
                    "() => document.activeElement && document.activeElement.id === 'verdict-card'"
                )
                assert page.evaluate("() => document.activeElement.id") == "verdict-card"
                tour.at_each_size(page, f"{language}-{{size}}-checker-result")
                page.goto(f"{base}/inspection/audit/")
                page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
                tour.at_each_size(page, f"{language}-{{size}}-audit-trail-payloads")
            context.close()

    if tour.shots:
        (OUTPUT / "tour").mkdir(parents=True, exist_ok=True)
    for path in tour.shots:
        shutil.copy(path, OUTPUT / "tour" / path.name)
    assert len(set(tour.checked)) >= 2 * 2 * len(portal)
    assert not tour.problems, "\n".join(tour.problems)


# -- the keyboard alone ------------------------------------------------------------------------------


def _focused(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => { const el = document.activeElement;
          return {tag: el.tagName.toLowerCase(), text: (el.innerText || el.value || '').trim(),
                  disabled: !!el.disabled, id: el.id, name: el.getAttribute('name') || ''}; }"""
    )


def _tab_to(page: Any, predicate: Any, limit: int = 60) -> dict[str, Any]:
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = _focused(page)
        if predicate(focused):
            return focused
    raise AssertionError(f"not reached by Tab in {limit} presses; focus on {_focused(page)}")


def _type_date(page: Any, selector: str, iso: str) -> None:
    """Type a date into the focused date input, in the order the browser shows its fields."""
    year, month, day = iso.split("-")
    page.keyboard.type(f"{day}{month}{year}")
    if page.input_value(selector) != iso:  # the browser shows month / day / year
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        page.keyboard.type(f"{month}{day}{year}")
    assert page.input_value(selector) == iso


@pytest.mark.django_db(transaction=True)
def test_keyboard_only_login_register_and_replay(
    chromium,  # noqa: F811 - the fixture imported above
    live_server,
    samples,
    devices,
) -> None:
    officer = samples.users[roles.OFFICER]
    base = live_server.url
    context = chromium.new_context(locale=LOCALES["fr"], viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    page.set_default_timeout(15000)
    add_passkey(page)

    # Login: the first Tab reaches the skip link, then the fields, in order.
    page.goto(f"{base}/inspection/")
    page.keyboard.press("Tab")
    assert _focused(page)["text"] == "Aller au contenu"
    _tab_to(page, lambda f: f["id"] == "id_username")
    page.keyboard.type(officer.username)
    page.keyboard.press("Tab")
    page.keyboard.type("pw-officier")
    page.keyboard.press("Tab")
    assert _focused(page)["id"] == "id_code"  # the director's code: an officer leaves it empty
    page.keyboard.press("Enter")
    # then his passkey: its one button, by keyboard
    page.wait_for_url(re.compile(r".*/inspection/verification/.*"))
    focused = _tab_to(page, lambda f: f["tag"] == "button" and "clé d'accès" in f["text"])
    assert focused
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/inspection/")

    # The skip link takes the focus past the header, to the content.
    page.keyboard.press("Tab")
    assert _focused(page)["text"] == "Aller au contenu"
    page.keyboard.press("Enter")
    assert _focused(page)["id"] == "contenu"

    # A register for a chosen period: the date inputs are typed into, then "Afficher".
    page.goto(f"{base}/inspection/registres/receipt-book/")
    assert page.input_value("#id_date_from") == timezone_today().replace(day=1).isoformat()
    _tab_to(page, lambda f: f["id"] == "id_date_from")
    _type_date(page, "#id_date_from", "2026-11-01")
    _tab_to(page, lambda f: f["id"] == "id_date_to")
    _type_date(page, "#id_date_to", "2026-11-30")
    focused = _tab_to(page, lambda f: f["tag"] == "button")
    assert focused["text"] == "Afficher"
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r".*date_from=2026-11-01&date_to=2026-11-30.*"))
    assert page.input_value("#id_date_from") == "2026-11-01"
    assert "Prise en charge" in page.locator("main").inner_text() or page.locator(".register-section").count()

    # The replay, to its last step and back, the focus always on a usable control.
    page.goto(f"{base}/inspection/journaux/{samples.hand_log.pk}/manches/1/")
    counter = page.locator("[data-counter]")
    live = page.locator("[data-live]")
    assert live.get_attribute("aria-live") == "polite"
    focused = _tab_to(page, lambda f: f["text"] == "Avancer ▶")
    total = int(counter.inner_text().split("/")[1])
    for step in range(2, total + 1):
        page.keyboard.press("Enter")
        assert counter.inner_text() == f"{step} / {total}"
        assert live.inner_text().startswith(f"Étape {step} sur {total} :")
        focused = _focused(page)
        assert focused["tag"] == "button" and not focused["disabled"], (step, focused)
    assert page.get_attribute("[data-next]", "aria-disabled") == "true"
    assert focused["text"] == "Avancer ▶"  # the focus stays: one Enter too many changes nothing
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    assert counter.inner_text() == f"{total} / {total}"
    page.keyboard.press("Shift+Tab")
    assert _focused(page)["text"] == "◀ Reculer"
    for step in range(total - 1, 0, -1):
        page.keyboard.press("Enter")
        assert counter.inner_text() == f"{step} / {total}"
    assert page.get_attribute("[data-prev]", "aria-disabled") == "true"
    page.keyboard.press("Enter")
    assert counter.inner_text() == f"1 / {total}" and _focused(page)["text"] == "◀ Reculer"
    context.close()


def timezone_today() -> Any:
    from django.utils import timezone

    return timezone.localdate()
