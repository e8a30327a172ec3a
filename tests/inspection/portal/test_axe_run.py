"""The browser tests' axe-core run (``tests.support.browser.AXE_RUN_JS``) on pages made for it:
it names a text whose contrast is too low, whether or not a pseudo-element (``::before``,
``::after``) lies beside it, and passes a page whose contrast is sufficient."""

from __future__ import annotations

from typing import Any

from tests.support.browser import (
    AXE_RUN_JS,
    BROWSER_TEST,
    axe_script,
    chromium,  # noqa: F401 - the fixture, one browser for the module
)

pytestmark = BROWSER_TEST

PAGE = """<!doctype html><html lang="fr"><head><title>Essai</title><style>{style}</style></head>
<body><main><h1>Essai</h1>{body}</main></body></html>"""

#: A large absolutely positioned pseudo-element over the paragraph: axe's default leaves such a
#: text "to review" (incomplete, never a violation) without computing its contrast.
PSEUDO = """.covered { position: relative; }
.covered::before { content: ""; position: absolute; inset: 0; background: rgba(255, 255, 255, 0.05); }"""


def _violations(chromium: Any, style: str, body: str) -> list[dict[str, Any]]:  # noqa: F811
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.set_content(PAGE.format(style=style, body=body))
        page.add_script_tag(path=str(axe_script()))
        return list(page.evaluate(AXE_RUN_JS))
    finally:
        context.close()


def test_a_text_of_too_low_a_contrast_is_a_violation(chromium: Any) -> None:  # noqa: F811
    found = _violations(chromium, "", '<p style="color:#777;background:#888">Gris sur gris</p>')
    assert [v["id"] for v in found] == ["color-contrast"]


def test_a_pseudo_element_beside_a_text_does_not_hide_its_low_contrast(chromium: Any) -> None:  # noqa: F811
    found = _violations(
        chromium, PSEUDO, '<p class="covered" style="color:#777;background:#888">Gris sur gris</p>'
    )
    assert [v["id"] for v in found] == ["color-contrast"]


def test_a_text_of_sufficient_contrast_beside_a_pseudo_element_passes(chromium: Any) -> None:  # noqa: F811
    assert (
        _violations(chromium, PSEUDO, '<p class="covered" style="color:#222;background:#fff">Noir</p>') == []
    )
