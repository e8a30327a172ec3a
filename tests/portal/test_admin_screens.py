"""The director's admin in a real browser (headless Chromium via Playwright), in French
(``tests/support/admin_screens.py``; the other language in its own file, so that the two run side by
side): every changelist and a change page of each model that has an entry, and the acts' pages, at
1366×900 and on a phone, checked for their width, raw codes and axe-core's WCAG 2.1 A/AA
violations. One browser for the module (the portal's tour's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.admin_screens import tour_the_admin
from tests.support.browser import (
    CHROMIUM,
    chromium,  # noqa: F401 - the fixture, the tour's browser
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.django_db(transaction=True)
def test_the_directors_admin_in_french_fits_1366_pixels_and_passes_axe_on_a_phone(
    chromium: Any,  # noqa: F811 - the fixture imported above
    live_server: Any,
    samples: Any,
    settings: Any,
    screenshots: bool,
    tmp_path: Path,
) -> None:
    tour_the_admin(
        "fr",
        chromium=chromium,
        live_server=live_server,
        samples=samples,
        settings=settings,
        screenshots=screenshots,
        tmp_path=tmp_path,
    )
