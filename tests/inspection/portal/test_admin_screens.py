"""The director's admin in a real browser (headless Chromium via Playwright), in French and in
English (``tests/support/admin_screens.py``): every changelist and a change page of each model
that has an entry, the acts' pages (a séance's acts, the decks' actions, each on its own page), at
1366×900 and on a phone (390×844), checked for their width, raw codes and axe-core's WCAG 2.1
A/AA violations. One browser for the module (the portal's tour's), the samples made once for
both languages. With ``--screenshots``, a screenshot of each page goes to
``test-output/admin/<language>/`` (git ignores it) to look at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.admin_screens import LOCALES, tour_the_admin
from tests.support.browser import (
    BROWSER_TEST,
    chromium,  # noqa: F401 - the fixture, the tour's browser
)

pytestmark = BROWSER_TEST


@pytest.mark.django_db(transaction=True)
def test_the_directors_admin_fits_1366_pixels_and_passes_axe_on_a_phone(
    chromium: Any,  # noqa: F811 - the fixture imported above
    live_server: Any,
    samples: Any,
    settings: Any,
    screenshots: bool,
    tmp_path: Path,
) -> None:
    for language in LOCALES:
        tour_the_admin(
            language,
            chromium=chromium,
            live_server=live_server,
            samples=samples,
            settings=settings,
            screenshots=screenshots,
            tmp_path=tmp_path,
        )
