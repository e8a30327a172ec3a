"""The portal in French and in English: every page in one language, cached or not.

The cached parts (register sections, the dashboard, the round replay) are kept
per version of the books *and* per language, time zone and role: a page first
seen in English must not show English inside a French page afterwards.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.support.samples import module_casino, module_clients, module_devices, module_samples, module_users  # noqa: F401 - made once for the module

# Words of the portal's own text, one language each (never data: names, remarks…).
FRENCH = ("Tableau de bord", "Se déconnecter", "Registres", "Séances")
ENGLISH = ("Dashboard", "Sign out", "Registers", "Sessions")


def _get(client, url: str, language: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, (url, response.status_code)
    assert response["Content-Language"] == language
    return response.content.decode()


def _assert_language(page: str, language: str, *, fr: tuple[str, ...] = (), en: tuple[str, ...] = ()) -> None:
    assert re.search(rf'<html lang="{language}"', page), "the html lang follows the active language"
    mine, other = (FRENCH + fr, ENGLISH + en) if language == "fr" else (ENGLISH + en, FRENCH + fr)
    for word in mine:
        assert word in page, f"{word!r} missing from the {language} page"
    for word in other:
        assert word not in page, f"{word!r} in the {language} page"


@pytest.mark.django_db
@pytest.mark.parametrize("first", ["en", "fr"])
def test_cached_register_is_wholly_in_each_language(officer_client, samples, first) -> None:
    url = reverse("portal:register", args=["receipt-book"]) + "?date_from=2026-11-01&date_to=2026-11-30"
    fr = ("Date de réception", "Totaux de la période", "Dont détruits")
    en = ("Date received", "Totals for the period", "Of which destroyed")
    second = "fr" if first == "en" else "en"
    for language in (first, second, first):
        _assert_language(_get(officer_client, url, language), language, fr=fr, en=en)


@pytest.mark.django_db
@pytest.mark.parametrize("first", ["en", "fr"])
def test_cached_dashboard_is_wholly_in_each_language(officer_client, samples, first) -> None:
    fr = ("Dernier événement scellé", "Incidents ouverts", "Paiement différent du montant dû")
    en = ("Last sealed event", "Open incidents", "Payment differs from the amount due")
    second = "fr" if first == "en" else "en"
    for language in (first, second):
        _assert_language(_get(officer_client, "/inspection/", language), language, fr=fr, en=en)


@pytest.mark.django_db
@pytest.mark.parametrize("first", ["en", "fr"])
def test_cached_replay_is_wholly_in_each_language(officer_client, samples, first) -> None:
    url = reverse("portal:replay", args=[samples.hand_log.pk, 1])
    fr = ("Mises sur les cases", "Croupier", "◀ Reculer")
    en = ("Stakes on the boxes", "Dealer", "◀ Back")
    second = "fr" if first == "en" else "en"
    for language in (first, second):
        page = _get(officer_client, url, language)
        _assert_language(page, language, fr=fr, en=en)
        assert not re.search(r"\b\d+\.\d\d\b", page.split("<main", 1)[1]) or language == "en"


@pytest.mark.django_db
def test_cache_is_keyed_on_the_time_zone(officer_client, samples, settings) -> None:
    from inspection.portal import selectors

    class Officer:
        is_authenticated = False

    from django.utils import timezone

    paris = selectors.rendering_variant(Officer())
    with timezone.override("America/Cayenne"):
        assert selectors.rendering_variant(Officer()) != paris
