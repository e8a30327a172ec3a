"""The whole officer's flow in Chromium, in both languages: the authority enrols him
(``enrol_officer``, then ``record_enrolment``), he signs in with his password and his passkey
(Chromium's virtual authenticator, CDP ``WebAuthn.addVirtualAuthenticator``), stamps an order
and closes an incident, each act signed by his passkey; every page axe-clean."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command

from audit.models import AuditEvent
from casino_ops import officers
from tests.support.browser import (
    AXE_RUN_JS,
    BROWSER_TEST,
    LOCALES,
    VIEWPORTS,
    add_passkey,
    axe_script,
    chromium,  # noqa: F401 - the fixture, one browser for the module
)

pytestmark = BROWSER_TEST


def _enrol(username: str, tmp_path: Path) -> None:
    document = tmp_path / f"{username}.json"
    call_command(
        "enrol_officer",
        "--key",
        settings.OFFICER_AUTHORITY_DEMO_KEY,
        "--casino",
        officers.casino_id(),
        "--username",
        username,
        "--name",
        "Anne Martin",
        "--demo-passkey",
        "--out",
        str(document),
    )
    call_command("record_enrolment", str(document))
    user = get_user_model().objects.get(username=username)
    user.set_password("pw-inspecteur")  # given him by the casino's administrator
    user.save()


def _axe_clean(page: Any, label: str, problems: list[str]) -> None:
    for violation in page.evaluate(AXE_RUN_JS):
        problems.append(f"{label}: axe {violation['impact']} {violation['id']} {violation['nodes']}")


def test_the_officers_flow_in_both_languages(
    chromium,  # noqa: F811 - the fixture imported above
    live_server,
    samples,
    settings,
    tmp_path,
) -> None:
    settings.OFFICER_DEMO_PASSKEY = False  # the browser's authenticator signs, nothing on the server
    base = live_server.url
    axe = axe_script()
    problems: list[str] = []
    for language, locale in LOCALES.items():
        username = f"inspecteur-{language}"
        _enrol(username, tmp_path)
        context = chromium.new_context(locale=locale, viewport=VIEWPORTS["desktop"])
        context.add_init_script(path=str(axe))
        page = context.new_page()
        page.set_default_timeout(15000)
        add_passkey(page)
        page.goto(f"{base}/inspection/connexion/")
        _axe_clean(page, f"{language} login", problems)
        page.fill("#id_username", username)
        page.fill("#id_password", "pw-inspecteur")
        page.click("main button[type=submit]")
        page.wait_for_url(re.compile(r".*/inspection/verification/.*"))
        _axe_clean(page, f"{language} passkey", problems)
        page.click("main button.primary")
        page.wait_for_url(f"{base}/inspection/")

        if language == "fr":  # the order and the incident are stamped and closed once
            page.goto(f"{base}/inspection/visas/")
            _axe_clean(page, f"{language} visas", problems)
            page.locator(f"form[action$='/commande/{samples.order.pk}/'] button").click()
            page.wait_for_selector(".messages .msg-success")
            page.goto(f"{base}/inspection/incidents/")
            _axe_clean(page, f"{language} incidents", problems)
            form = page.locator(f"form[action$='/incidents/{samples.incident.pk}/cloture/']")
            form.locator("textarea").fill("Carte marquée : jeu détruit.")
            form.locator("button[type=submit]").click()
            page.wait_for_selector(".messages .msg-success")
        else:
            _axe_clean(page, f"{language} dashboard", problems)
            page.fill("#demand-reason", "Contrôle")
            page.locator("#cabinet-demand button[type=submit]").click()
            page.wait_for_selector(".messages .msg-success")
        context.close()
    assert problems == []
    for action, who in (
        ("depot.order_stamped", "inspecteur-fr"),
        ("depot.incident_closed", "inspecteur-fr"),
        ("depot.opening_demanded", "inspecteur-en"),
    ):
        event = AuditEvent.objects.filter(action=action, actor_name=who).get()
        signed = json.loads(event.payload)[officers.SIGNATURE_KEY]
        assert signed["assertion"]["response"]["signature"] and signed["statement"]["officer"] == who
