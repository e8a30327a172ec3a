"""The back colour of a deck in the page's language.

The colour is the casino's own writing (typed on the order and at the reception, kept as typed
in the books and the audit record); the usual colours of a deck's back are shown in the page's
language, "bleu" as "blue" on an English page, any other writing as it was typed."""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

COLOURS = {
    "bleu": pgettext_lazy("dos d'un jeu", "bleu"),
    "rouge": pgettext_lazy("dos d'un jeu", "rouge"),
    "vert": pgettext_lazy("dos d'un jeu", "vert"),
    "noir": pgettext_lazy("dos d'un jeu", "noir"),
    "blanc": pgettext_lazy("dos d'un jeu", "blanc"),
    "jaune": pgettext_lazy("dos d'un jeu", "jaune"),
    "gris": pgettext_lazy("dos d'un jeu", "gris"),
    "orange": pgettext_lazy("dos d'un jeu", "orange"),
    "violet": pgettext_lazy("dos d'un jeu", "violet"),
    "rose": pgettext_lazy("dos d'un jeu", "rose"),
    "marron": pgettext_lazy("dos d'un jeu", "marron"),
    "bordeaux": pgettext_lazy("dos d'un jeu", "bordeaux"),
    "beige": pgettext_lazy("dos d'un jeu", "beige"),
    "doré": pgettext_lazy("dos d'un jeu", "doré"),
    "argenté": pgettext_lazy("dos d'un jeu", "argenté"),
}


def colour(value: str | None) -> str:
    """``bleu`` -> "blue" in English; in French, or a colour not listed, as it was typed."""
    if not value:
        return value or ""
    label = COLOURS.get(value.strip().lower())
    if label is None or str(label) == value.strip().lower():
        return value
    return str(label)
