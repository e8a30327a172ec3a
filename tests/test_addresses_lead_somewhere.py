"""No address the product shows or a newcomer types answers 404: the site's root sends each
person where he works, the officers' API has a root listing its endpoints, and the admin shows
no "Voir le site" link to a page that does not exist."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from casino_ops import roles
from tests.support.clients import signed_in


@pytest.mark.django_db
def test_the_root_sends_a_visitor_to_a_login_and_a_director_to_the_admin(
    make_user: Callable[..., Any],
) -> None:
    anonymous = Client().get("/")
    assert anonymous.status_code == 302 and anonymous["Location"] == "/inspection/"
    client = signed_in(make_user("dir", password="x"))
    assert client.get("/")["Location"] == "/admin/"


@pytest.mark.django_db
def test_the_admin_shows_no_link_to_a_missing_page(admin_client: Client) -> None:
    page = admin_client.get("/admin/").content.decode()
    assert "Voir le site" not in page and "View site" not in page


@pytest.mark.django_db
def test_the_officers_api_has_a_root_listing_its_endpoints(make_user: Callable[..., Any]) -> None:
    client = signed_in(make_user("off", roles.OFFICER, password="x", is_staff=False))
    response = client.get("/api/inspection/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200, response.status_code
    listed = response.json()
    assert listed["sessions"].endswith("/api/inspection/sessions/")
    assert listed["hand-logs"].endswith("/api/inspection/hand-logs/")
    assert {"proofs/inclusion", "proofs/consistency", "proofs/checkpoint", "proofs/verifier"} <= set(listed)
    for name, url in listed.items():  # the proofs answer for a given event or checkpoint
        if not name.startswith("proofs/"):
            assert client.get(url, HTTP_ACCEPT="application/json").status_code == 200, url
    other = signed_in(make_user("nobody", password="x", is_staff=False))
    assert other.get("/api/inspection/", HTTP_ACCEPT="application/json").status_code == 404
