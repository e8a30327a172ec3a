"""The headless Chromium of the browser tests (Debian's, driven by Playwright, one for a module),
axe-core pinned, the officer's and the director's sign-in, and the pages the tours visit."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from casino_ops.django_internals import registered_admins
from tests.support.clients import totp_code

#: The project's apps whose every admin page the admin's screen test visits.
ADMIN_APPS = ("casino_ops", "audit", "cards_registry", "tables", "house_books", "inspection")

CHROMIUM = Path("/usr/bin/chromium")

#: A browser test's marks (a module's ``pytestmark``): selected by ``-m browser``, skipped where
#: Debian's Chromium is not installed.
BROWSER_TEST = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Chromium (156) loads the omnibox's popup, a page of its own, with every window, that is
    # with every browser context: a renderer's work the tests never use. Only the last
    # --disable-features counts, so Playwright's own list (1.65.2) is repeated here first.
    "--disable-features="
    + ",".join(
        (
            "AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades",
            "HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding",
            "ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,TcpPortRandomizationWin",
            "OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch",
            "msForceBrowserSignIn,msEdgeUpdateLaunchServicesPreferredVersion",
            "WebUIOmniboxPopup",
        )
    ),
]


ROOT = Path(__file__).resolve().parents[2]


OUTPUT = ROOT / "test-output" / "browser"


# axe-core from the npm registry, pinned; scripts/system-deps.sh installs it, and
# the test does too when it is missing (the same command).
AXE_VERSION = "4.14.1"


AXE_PREFIX = ROOT / "test-output" / "node-deps"


AXE_JS = AXE_PREFIX / "node_modules" / "axe-core" / "axe.min.js"


VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


LOCALES = {"fr": "fr-FR", "en": "en-GB"}


# Every violation of a WCAG 2.1 A or AA rule, whatever its impact; of axe's best practices, the
# serious and critical ones. axe gives each best practice one impact, that of all its violations
# (``rule.impact``, which axe-core 4 copies onto each of the rule's results: to be checked again
# when AXE_VERSION changes): a best practice whose impact is minor or moderate, whose every
# violation would be dropped here (the landmarks, the heading order, ``region``, which walks the
# whole page…), is not run. The same violations are reported, for a sixth less of axe's time.
# Colour contrast is computed for every text, a pseudo-element (``::before``, ``::after``) beside
# it or not (``ignorePseudo``): by default axe leaves a text under a large pseudo-element "to
# review" (incomplete, which no test reads) without computing its contrast, and looks for such
# pseudo-elements up every text's ancestors. Every violation found before is found, those texts
# are checked too, and the renderer spends a tenth less on the tours.
AXE_RUN_JS = """async () => {
  const wcag = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
  const dropped = axe._audit.rules.filter(rule => !rule.tags.some(t => wcag.includes(t))
    && ['minor', 'moderate'].includes(rule.impact));
  const result = await axe.run(document, {
    runOnly: {type: 'tag', values: [...wcag, 'best-practice']},
    rules: Object.fromEntries(dropped.map(rule => [rule.id, {enabled: false}])),
    checks: {'color-contrast': {options: {ignorePseudo: true}}},
    resultTypes: ['violations'],
  });
  return result.violations
    .filter(v => v.tags.some(t => wcag.includes(t)) || v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
}"""


def axe_script() -> Path:
    """axe-core's browser build, installed from the npm registry at the pinned version (once:
    test workers running side by side wait for the one installing it)."""
    import fcntl

    AXE_PREFIX.mkdir(parents=True, exist_ok=True)
    with (AXE_PREFIX / ".install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _install_axe()
    version = json.loads((AXE_JS.parent / "package.json").read_text())["version"]
    assert version == AXE_VERSION, f"axe-core {version} installed, {AXE_VERSION} pinned"
    return AXE_JS


def _install_axe() -> None:
    if not AXE_JS.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("npm is needed to install axe-core: run scripts/system-deps.sh test")
        subprocess.run(
            [
                npm,
                "install",
                "--no-audit",
                "--no-fund",
                "--prefix",
                str(AXE_PREFIX),
                f"axe-core@{AXE_VERSION}",
            ],
            check=True,
            capture_output=True,
        )


@pytest.fixture(scope="module")
def chromium() -> Any:
    playwright_sync = pytest.importorskip("playwright.sync_api")
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield browser
        browser.close()
    if before is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


def add_passkey(page: Any, rp_id: str = "localhost") -> str:
    """The officer's authenticator: Chromium's virtual authenticator (Chrome DevTools Protocol
    ``WebAuthn.addVirtualAuthenticator``) holding the demo software passkey the tests' officer
    is enrolled with, user verification given at each touch. Returns the authenticator's id."""
    import base64

    from casino_ops.passkeys import SoftwarePasskey, unb64url

    passkey = SoftwarePasskey.demo()
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    made = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    cdp.send(
        "WebAuthn.addCredential",
        {
            "authenticatorId": made["authenticatorId"],
            "credential": {
                "credentialId": base64.b64encode(unb64url(passkey.credential_id)).decode(),
                "isResidentCredential": False,
                "rpId": rp_id,
                "privateKey": passkey.pkcs8(),
                "signCount": 0,
            },
        },
    )
    page._officer_cdp = cdp  # kept alive with the page
    return str(made["authenticatorId"])


def login_officer(page: Any, base: str, officer: Any, device: Any = None) -> None:
    """Password, then the passkey (the virtual authenticator signs)."""
    add_passkey(page)
    page.goto(f"{base}/inspection/connexion/")
    page.fill("#id_username", officer.username)
    page.fill("#id_password", "pw-officier")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r".*/inspection/verification/.*"))
    page.click("main button.primary")
    page.wait_for_url(f"{base}/inspection/")


def login_director(page: Any, base: str, director: Any, device: Any) -> None:
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", director.username)
    page.fill("#id_password", "pw-directeur")
    page.click("input[type=submit], button[type=submit]")
    page.wait_for_url(re.compile(r".*/inspection/verification/.*"))
    page.fill("#id_code", totp_code(device))
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/admin/")


HOUSE_REGISTERS = ("orphans", "tips", "approvals", "hours", "bank-failures", "shoe-devices", "exclusions")


def portal_pages(samples: Any) -> list[tuple[str, str]]:
    from inspection.portal.views.registers import available

    period = "date_from=2026-11-01&date_to=2026-11-30"
    pages = [
        ("dashboard", "/inspection/"),
        ("registers", "/inspection/registres/"),
    ]
    registers = available()
    # the other books of the casino are visited like the depot's and the tables'
    assert set(HOUSE_REGISTERS) <= set(registers), sorted(set(HOUSE_REGISTERS) - set(registers))
    for name, register in registers.items():
        table = "&table=3" if register.needs_table else ""
        pages.append((f"register-{name}", f"/inspection/registres/{name}/?{period}{table}"))
    pages += [
        ("register-needs-table", "/inspection/registres/advance-book/"),
        ("sessions", "/inspection/seances/"),
        ("session", f"/inspection/seances/{samples.session.pk}/"),
        ("advance-book-page", f"/inspection/carnet-d-avances/?table=3&{period}"),
        ("control-register-page", "/inspection/registre-de-controle/?day=2026-11-30"),
        ("hand-log", f"/inspection/journaux/{samples.hand_log.pk}/"),
        ("replay", f"/inspection/journaux/{samples.hand_log.pk}/manches/1/"),
        ("replay-discrepancy", f"/inspection/journaux/{samples.hand_log.pk}/manches/1/?at=payments#etape-10"),
        ("decks", f"/inspection/jeux/?serie={samples.deck.serial}"),
        ("deck", f"/inspection/jeux/{samples.deck.pk}/"),
        ("visas", "/inspection/visas/"),
        ("incidents", "/inspection/incidents/"),
        ("audit-trail", "/inspection/audit/"),
        ("chain-check", "/inspection/audit/verification/"),
        ("checker", "/inspection/signatures/"),
        ("books-inspection", "/inspection/auto-inspection/"),
        ("proofs", "/inspection/preuves/"),
    ]
    return pages


def admin_acts_pages(samples: Any) -> list[tuple[str, str]]:
    session = samples.session.pk
    return [
        ("admin-index", "/admin/"),
        ("admin-sessions", "/admin/tables/session/"),
        ("admin-session", f"/admin/tables/session/{session}/change/"),
        ("admin-session-add", "/admin/tables/session/add/"),
        ("admin-act-advance", f"/admin/tables/session/{session}/act/advance/"),
        ("admin-act-close", f"/admin/tables/session/{session}/act/close/"),
        ("admin-act-shoe", f"/admin/tables/session/{session}/act/shoe/"),
        ("admin-shoe-devices", "/admin/house_books/shoedevice/"),
        ("admin-shoe-device-assign", "/admin/house_books/deviceassignment/add/"),
        ("admin-shoe-device-return", "/admin/house_books/devicereturnentry/add/"),
        ("admin-dealer-errors", "/admin/tables/session/dealer-errors/"),
    ]


def every_admin_page(apps: tuple[str, ...] = ADMIN_APPS) -> dict[str, str]:
    """The changelist of every model of ``apps`` (the project's, by default), and the change
    page of its first entry."""
    from django.contrib import admin
    from django.urls import reverse

    pages: dict[str, str] = {}
    for model in registered_admins(admin.site):
        meta = model._meta
        if meta.app_label not in apps:
            continue
        name = f"{meta.app_label}-{meta.model_name}"
        pages[f"{name}-list"] = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            pages[f"{name}-change"] = reverse(
                f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk]
            )
    return pages
