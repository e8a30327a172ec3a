"""The replay's labels on the felt (the dealer's, the boxes' numbers) reach 4.5:1 against every
colour of the felt's gradient (WCAG 1.4.3), read from the portal's stylesheet."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

CSS = Path(settings.BASE_DIR) / "inspection" / "static" / "portal" / "portal.css"


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _rule(css: str, selector: str) -> str:
    found = re.search(re.escape(selector) + r"[^{]*\{([^}]*)\}", css)
    assert found, selector
    return found.group(1)


def test_the_dealer_label_reaches_4_5_to_1_on_the_felt() -> None:
    css = CSS.read_text(encoding="utf-8")
    felt_var = re.search(r"--felt:\s*(#[0-9a-fA-F]{6})", css)
    assert felt_var
    background = re.search(r"background:([^;]*);", _rule(css, ".felt"))
    assert background
    felt = re.findall(r"#[0-9a-fA-F]{6}", background.group(1)) + [felt_var.group(1)]
    label = re.search(r"color:\s*(#[0-9a-fA-F]{6}|#fff)\b", _rule(css, ".dealer .label"))
    assert label
    colour = "#ffffff" if label.group(1).lower() == "#fff" else label.group(1)
    worst = min(_contrast(colour, background) for background in felt)
    assert worst >= 4.5, (felt, colour, round(worst, 2))
