"""One language at a time: every page of the portal, every admin page the director uses and every
register, rendered in French and in English, shows no word of the other language.

The words are kept below, one list per language: words of the product's own text that only one
of the two languages writes (a French page saying "pending", an English page saying "en cours").
A word both languages write ("Blackjack", "incident", "table"…) is not listed; the few words of a
list a page may still show are allowed with their reason. The casino's own writing (its name,
people's names, the remarks typed into the books, the demo's data) is not the product's text:
the samples' free texts are taken out of a page before it is read."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.urls import reverse

from casino_ops import roles
from tests.support.browser import every_admin_page
from tests.support.permission_matrix import ADMIN_ACTS, ADMIN_READS, EXPECTATIONS, Read, admin_url
from tests.support.samples import (  # noqa: F401 - made once for the module
    Samples,
    module_casino,
    module_clients,
    module_devices,
    module_samples,
    module_users,
)

#: Words only French writes: none of them on an English page or register.
FRENCH_ONLY = (
    "oui",
    "non",
    "en cours",
    "rectifiée",
    "rectifié",
    "sabot",
    "sabots",
    "séance",
    "séances",
    "manche",
    "manches",
    "donne",
    "registre",
    "registres",
    "officier",
    "journée",
    "jeu",
    "jeux",
    "carnet",
    "bleu",
    "rouge",
    "vert",
    "noir",
    "visé",
    "visée",
    "aucun",
    "aucune",
    "montant",
    "avance",
    "croupier",
    "dépôt",
    "armoire",
    "fabricant",
    "état",
    "le",
    "la",
    "les",
    "du",
    "des",
    "et",
    "ou",
    "est",
    "pour",
    "par",
    "sur",
    "avec",
    "dans",
    "une",
)

#: Words only English writes: none of them on a French page or register.
ENGLISH_ONLY = (
    "yes",
    "no",
    "pending",
    "open",
    "opened",
    "closed",
    "status",
    "serial",
    "back colour",
    "colour",
    "before",
    "after",
    "quarantine",
    "round",
    "rounds",
    "hand log",
    "shoe",
    "deck",
    "decks",
    "session",
    "sessions",
    "register",
    "registers",
    "officer",
    "amount",
    "the",
    "and",
    "of",
    "with",
    "for",
    "none",
    "by",
)

#: Words of a list a page may show, and why (checked on every page of the language).
ALLOWED: dict[str, dict[str, str]] = {
    "fr": {},
    "en": {
        "règlement intérieur du casino": "the article a house book cites under FR, as the law map and the "
        "refusal table write it (casino_ops/regulations.py, docs/refusals.md)",
    },
}


def _pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w\-'’]){'(?:' + alternatives + ')'}(?![\w\-'’])", re.IGNORECASE)


OTHER_LANGUAGE = {"fr": _pattern(ENGLISH_ONLY), "en": _pattern(FRENCH_ONLY)}

_DROP = re.compile(
    r"<(script|style|svg|template|code|textarea)\b.*?</\1>|<!--.*?-->"
    r"|<(\w+)\b[^>]*\bclass=\"[^\"]*\b(?:code-caption|hash)\b[^\"]*\"[^>]*>.*?</\2>",
    re.S | re.I,
)
_DROP_OTHER_LANGUAGE = re.compile(r"<(\w+)\b[^>]*\blang=\"(?:fr|en)\"[^>]*>.*?</\1>", re.S)
_SHOWN_ATTRIBUTES = re.compile(r'\b(?:title|aria-label|placeholder|alt|data-label)="([^"]*)"')
_TAG = re.compile(r"<[^>]+>")


def read_out_text(page: str) -> str:
    """The text a reader sees or hears: the page's text and the attributes read out (titles,
    labels, placeholders, a cell's label on a phone), without scripts and styles, the codes
    (an act's or a discrepancy's code under its label, a hash), a form's text area (what the
    user will write into the book), nor a part marked as written in another language
    (lang="…": the switch to the other language)."""
    page = _DROP.sub(" ", page)
    body = page.split("<body", 1)[-1]
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    body = _DROP_OTHER_LANGUAGE.sub(" ", body)
    shown = " ".join(_SHOWN_ATTRIBUTES.findall(body))
    text = _TAG.sub(" ", body)
    return html.unescape(" ".join([title.group(1) if title else "", text, shown]))


def data_texts(samples: Samples) -> list[str]:
    """The casino's own writing in the samples (typed into the books, not the product's text),
    and the subject of the certificate that signs its checkpoints: written by whoever issued
    the certificate (a trust service provider, or the demo's stand-in), shown as issued."""
    from audit.models import Checkpoint
    from cards_registry.models import KeyHandover, Manufacturer, Reception
    from casino_ops.models import CasinoSettings

    texts = [CasinoSettings.objects.get(pk=1).name, samples.order.note, samples.incident.circumstances]
    for maker in Manufacturer.objects.all():
        texts += [maker.name, maker.code]
    texts += [r.delivery_note for r in Reception.objects.all()]
    texts += [k.reason for k in KeyHandover.objects.all()]
    texts += Checkpoint.objects.values_list("signer", flat=True)
    for user in samples.users.values():
        texts += [user.get_full_name(), user.get_username()]
    texts += _labels_of_the_tests_apps()
    return sorted({t for t in texts if t}, key=len, reverse=True)


def _labels_of_the_tests_apps() -> list[str]:
    """The labels of the events an app the tests alone install declares (tests/recipe_example):
    its texts are in no catalogue (makemessages reads the product only), so they stay French in
    the admin's list of every act."""
    from audit.actions import DECLARED_LABELS
    from casino_ops.acts import REGISTRY

    return [
        str(DECLARED_LABELS[action])
        for declared in REGISTRY.values()
        if declared.name.startswith("tests.")
        for action in declared.actions
        if action in DECLARED_LABELS
    ]


def _read(page: str, language: str, data: list[str]) -> str:
    text = read_out_text(page)
    for written in [*data, *ALLOWED[language]]:
        text = text.replace(written, " ")
    return " ".join(text.split())


def other_language_words(page: str, language: str, data: list[str]) -> list[str]:
    text = _read(page, language, data)
    return sorted({m.group(0) for m in OTHER_LANGUAGE[language].finditer(text)}, key=str.lower)


def _where(page: str, language: str, data: list[str]) -> str:
    """Each word of the other language found, in its words around it."""
    text = _read(page, language, data)
    seen: dict[str, str] = {}
    for m in OTHER_LANGUAGE[language].finditer(text):
        seen.setdefault(m.group(0).lower(), f"{m.group(0)} («{text[max(0, m.start() - 40) : m.end() + 40]}»)")
    return "; ".join(seen[w] for w in sorted(seen))


def _get(client: Any, url: str, language: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, (url, response.status_code)
    assert response["Content-Type"].startswith("text/html"), url
    return response.content.decode()


def _check(pages: dict[str, str], client: Any, language: str, samples: Samples) -> list[str]:
    data = data_texts(samples)
    problems = []
    for name, url in pages.items():
        page = _get(client, url, language)
        if other_language_words(page, language, data):
            problems.append(f"{name} ({url}): {_where(page, language, data)}")
    return problems


DOWNLOADS = ("portal:report_download", "portal:proof_verifier", "portal:proof_ca", "portal:proof_checkpoint")


def every_portal_page(samples: Samples) -> dict[str, str]:
    pages = {
        "portal:login": reverse("portal:login"),
        "portal:audit_trail, every act": reverse("portal:audit_trail"),
    }
    for name, expectation in EXPECTATIONS.items():
        if not isinstance(expectation, Read) or expectation.api or name in DOWNLOADS:
            continue
        variants = expectation.kwargs(samples)
        for kwargs in variants if isinstance(variants, list) else [variants]:
            key = f"{name} {kwargs.get('name', '')}".strip()
            pages[key] = reverse(name, kwargs=kwargs) + expectation.query
    return pages


def admin_pages(samples: Samples) -> dict[str, str]:
    pages = {"admin:index": reverse("admin:index")}
    pages.update(every_admin_page())
    for name, allowed in {**ADMIN_ACTS, **ADMIN_READS}.items():
        if "D" in allowed and name not in (
            "admin:tables_controlline_correct",
            "admin:inspection_report_download",
        ):
            pages[name] = admin_url(name, samples)
    return pages


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_portal_page_is_in_one_language(
    clients: dict[str, Any], samples: Samples, language: str
) -> None:
    problems = _check(every_portal_page(samples), clients[roles.OFFICER], language, samples)
    anonymous = other_language_words(
        _get(clients["anonymous"], reverse("portal:login"), language), language, []
    )
    if anonymous:
        problems.append(f"the login page, signed out: {', '.join(anonymous)}")
    assert problems == [], "\n".join(problems)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_admin_page_of_the_director_is_in_one_language(
    clients: dict[str, Any], samples: Samples, language: str
) -> None:
    problems = _check(admin_pages(samples), clients[roles.DIRECTOR], language, samples)
    assert problems == [], "\n".join(problems)


@pytest.mark.django_db
def test_every_printed_register_is_in_french(samples: Samples) -> None:
    """The registers are printed in French whatever the reader's language (FR art. 68): the
    document each PDF is made of holds no English word."""
    from inspection.registers import REGISTERS
    from inspection.registers.base import Request
    from inspection.registers.render import read_chunk, render_html

    data = data_texts(samples)
    problems = []
    for name, register in sorted(REGISTERS.items()):
        request = Request(
            samples.session.day.replace(day=1), samples.session.day, 3 if register.needs_table else None
        )
        page = render_html(register, [read_chunk(register, request)])
        if other_language_words(page, "fr", data):
            problems.append(f"{name}: {_where(page, 'fr', data)}")
    assert problems == [], "\n".join(problems)


def test_the_word_lists_catch_a_word_of_the_other_language() -> None:
    assert other_language_words("<body><td>oui</td><td>Sabot n° 3</td></body>", "en", []) == ["oui", "Sabot"]
    assert other_language_words("<body><p>back  colour: bleu</p></body>", "fr", []) == ["back colour"]
    assert other_language_words('<body><td data-label="Status">before quarantine</td></body>', "fr", []) == [
        "before",
        "quarantine",
        "Status",
    ]
    # a word inside another is not that word; a part marked lang="fr" is the switch to French
    assert other_language_words('<body><p>Nonetheless <a lang="fr">Français</a></p></body>', "en", []) == []
    assert other_language_words("<body><p>Registered</p></body>", "en", []) == []
