"""A page's text as a reader sees it, from its HTML (no browser)."""

from __future__ import annotations

import lxml.html

# What the page does not show as text: the code captions, scripts, the hidden parts.
UNSEEN = (
    "//script | //style | //noscript | //template | //*[@hidden]"
    " | //*[contains(concat(' ', normalize-space(@class), ' '), ' code-caption ')]"
    " | //*[contains(concat(' ', normalize-space(@class), ' '), ' hash ')]"
)


def visible_text(page: str) -> str:
    """The text ``page`` shows: without its scripts, hidden parts and code captions."""
    tree = lxml.html.fromstring(page)
    for element in tree.xpath(UNSEEN):
        element.drop_tree()
    return " ".join(tree.text_content().split())
