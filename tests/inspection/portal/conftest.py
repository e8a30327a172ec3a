"""Fixtures of the portal and the officers' API: two-factor login switched on, and the
portal's samples. The TOTP devices and the clients signed in per role are the support
package's (``tests/support/fixtures.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.samples import dev_cert, samples, shared_samples, signing  # noqa: F401


@pytest.fixture(scope="session")
def screenshots(pytestconfig: pytest.Config) -> bool:
    """Whether the browser tests keep a full-page screenshot of each page they check
    (``--screenshots``), for people to look at. No check reads them; taking them costs a tenth
    to half a second a page, over a minute for the hundreds of pages of the tour and the admin."""
    return bool(pytestconfig.getoption("--screenshots"))


@pytest.fixture(autouse=True)
def two_factor_required(settings: Any) -> None:
    """The production default: directors and officers need a TOTP code."""
    settings.TWO_FACTOR_REQUIRED = True
