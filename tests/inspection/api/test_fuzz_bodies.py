"""Every field of every act's API body, given each of the absurd values the admin forms already
pass (tests/test_fuzz_forms.py's ABSURD): never a server error, always the refusal JSON (or the
act done), whichever view, field and value."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from casino_ops import roles
from casino_ops.api import ActView
from tests.support.absurd import ABSURD

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def _act_views(patterns: Any = None, prefix: str = "") -> Iterator[tuple[str, Any]]:
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            yield from _act_views(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            view = getattr(entry.callback, "view_class", None)
            if view is not None and issubclass(view, ActView) and getattr(view, "serializer_class", None):
                yield prefix + str(entry.pattern), view


def _url(pattern: str) -> str:
    """A path for the pattern, every parameter 1 (a row that may not exist: a 404 is fine)."""
    import re

    return "/" + re.sub(r"<(?:\w+:)?\w+>", "1", pattern).lstrip("^").rstrip("$")


ACT_VIEWS = sorted(_act_views(), key=lambda item: item[0])


def test_every_act_view_is_fuzzed() -> None:
    assert len(ACT_VIEWS) >= 9, ACT_VIEWS


@pytest.mark.parametrize(("pattern", "view"), ACT_VIEWS, ids=[p for p, _v in ACT_VIEWS])
def test_each_field_of_each_api_body_with_each_absurd_value_is_never_a_server_error(
    users: dict[str, Any], casino: Any, settings: Any, pattern: str, view: Any
) -> None:
    settings.TWO_FACTOR_REQUIRED = False
    client = Client(raise_request_exception=False)
    client.force_login(users[roles.DIRECTOR])
    url = _url(pattern)
    fields = [name for name, field in view.serializer_class().fields.items() if not field.read_only]
    failures = []
    statuses: dict[int, int] = {}
    for name in fields:
        for value in [*ABSURD, [ABSURD[3]], {"x": ABSURD[5]}, 2**70, -1, None, True]:
            response = client.post(url, json.dumps({name: value}), content_type="application/json")
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
            if response.status_code >= 500:
                failures.append(
                    (name, value if len(str(value)) < 40 else str(value)[:40], response.status_code)
                )
            elif response.status_code == 400:
                body = response.json()
                assert "code" in body and "field" in body, (name, value, body)
    assert failures == [], failures
    assert statuses or not fields, pattern
