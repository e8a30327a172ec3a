"""The parts of the portal's pages read from the other apps, through their selectors."""

from __future__ import annotations

from typing import Any


def dashboard_parts() -> dict[str, Any]:
    return {}
