"""The portal's messages: a live region around a valid list (WCAG 1.3.1: ``role="status"`` on the
``<ul>`` would take its list role away and orphan its items), and the focus brought to it after
the server's answer, so that a keyboard or screen-reader user hears the result first."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.storage.base import Message
from django.template.loader import render_to_string
from django.test import RequestFactory


@pytest.mark.django_db
def test_the_messages_are_a_list_inside_a_live_region_that_takes_the_focus() -> None:
    request = RequestFactory().get("/inspection/connexion/")
    request.user = AnonymousUser()
    page = render_to_string(
        "portal/base.html",
        {"messages": [Message(25, "Visa apposé."), Message(40, "Refusé.")]},
        request=request,
    )
    region = re.search(
        r"<div[^>]*role=\"status\"[^>]*>\s*<ul class=\"messages\">(.*?)</ul>\s*</div>", page, re.S
    )
    assert region, page
    opening = region.group(0).split(">", 1)[0]
    assert 'tabindex="-1"' in opening and "autofocus" in opening
    assert region.group(1).count("<li") == 2
    assert not re.search(r"<ul[^>]*role=", page)  # no list stripped of its role
