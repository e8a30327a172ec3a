"""A test that leaves English active (a request made in English does: LocaleMiddleware never
puts the language back) does not change the language of the next test in the same worker
(the root conftest's ``_language_of_the_site``). The tests of this file run in order."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation


def test_a_test_leaves_english_active() -> None:
    translation.activate("en")
    assert translation.get_language() == "en"


def test_the_next_test_starts_in_the_sites_language() -> None:
    assert translation.get_language() == settings.LANGUAGE_CODE
