"""The replay's words in the active language (the view side of :mod:`inspection.portal.replay`).

The steps are built in French by the pure round-steps code; this module says
them again in the officer's language, from French msgids, without changing the
steps' structure.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

# The fixed titles and words of the steps, marked for the catalogue.
TITLES = (
    gettext_noop("Mises sur les cases"),
    gettext_noop("Première carte à chaque case"),
    gettext_noop("Carte du croupier"),
    gettext_noop("Seconde carte à chaque case"),
    gettext_noop("Assurances"),
    gettext_noop("Paiements"),
    gettext_noop("Le croupier ne joue pas"),
)
_ACTIONS = {
    "tire une carte": lambda: pgettext("blackjack decision", "tire une carte"),
    "reste": lambda: pgettext("blackjack decision", "reste"),
    "double": lambda: pgettext("blackjack decision", "double"),
    "sépare": lambda: pgettext("blackjack decision", "sépare"),
    "abandonne": lambda: pgettext("blackjack decision", "abandonne"),
}
_OUTCOMES = {
    "gagne": lambda: pgettext("blackjack outcome", "gagne"),
    "perd": lambda: pgettext("blackjack outcome", "perd"),
    "égalité": lambda: pgettext("blackjack outcome", "égalité"),
    "black-jack": lambda: pgettext("blackjack outcome", "black-jack"),
    "sauté": lambda: pgettext("blackjack outcome", "sauté"),
    "abandon": lambda: pgettext("blackjack outcome", "abandon"),
}
_BOX = re.compile(r"^Case (?P<box>\d+) : (?P<act>.+?)(?: \(sans (?P<declined>.+)\))?$")
_DRAWS = re.compile(r"^Le croupier tire (?P<card>.+)$")
_ENDS = re.compile(r"^Le croupier termine à (?P<total>.+)$")
_LEFT = " — cartes restées hors du jeu"


def title(text: str) -> str:
    suffix = ""
    if text.endswith(_LEFT):
        text, suffix = text[: -len(_LEFT)], _(" — cartes restées hors du jeu")
    if text in TITLES:
        return _(text) + suffix
    if m := _BOX.match(text):
        act = _ACTIONS.get(m["act"], lambda: m["act"])()
        said = _("Case %(box)s : %(act)s") % {"box": m["box"], "act": act}
        if m["declined"]:
            said += " " + _("(sans %(players)s)") % {"players": m["declined"]}
        return said + suffix
    if m := _DRAWS.match(text):
        return _("Le croupier tire %(card)s") % {"card": m["card"]} + suffix
    if m := _ENDS.match(text):
        return _("Le croupier termine à %(total)s") % {"total": m["total"]} + suffix
    return text + suffix


def outcome(text: Any) -> Any:
    said = _OUTCOMES.get(text) if isinstance(text, str) else None
    return said() if said else text


def translate_steps(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same steps, their titles and outcomes in the active language (in place)."""
    for step in steps:
        step["title"] = title(step["title"])
        for box in step["boxes"]:
            for hand in box["hands"]:
                hand["outcome"] = outcome(hand.get("outcome"))
    return steps
