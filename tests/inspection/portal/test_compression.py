"""HTML pages are sent compressed, with Django's BREACH mitigation (random bytes in each gzip
stream, the CSRF token masked anew in each response), except the page that shows a secret
the attacker could otherwise guess byte by byte (the second-factor key at enrolment); a
signed-in user's pages are marked ``Cache-Control: private`` (no shared cache keeps them)."""

from __future__ import annotations

from typing import Any

import pytest

from casino_ops import roles
from tests.support.samples import module_casino, module_clients, module_devices, module_samples, module_users  # noqa: F401 - made once for the module

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


@pytest.mark.django_db
def test_pages_are_compressed_and_a_signed_in_users_are_private(
    clients: dict[str, Any], samples: Any
) -> None:
    for client, url in (
        (clients[roles.OFFICER], "/inspection/"),
        (clients[roles.OFFICER], f"/inspection/seances/{samples.session.pk}/"),
        (clients[roles.DIRECTOR], "/admin/"),
        (clients["anonymous"], "/inspection/connexion/"),
    ):
        response = client.get(url, **GZIP)
        assert response.status_code == 200, url
        assert response.get("Content-Encoding") == "gzip", url
        assert "Accept-Encoding" in response.get("Vary", ""), url
        if client is not clients["anonymous"]:
            assert "private" in response.get("Cache-Control", ""), (url, response.get("Cache-Control"))


@pytest.mark.django_db
def test_the_page_showing_a_second_factor_key_is_not_compressed(
    clients: dict[str, Any], samples: Any
) -> None:
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from tests.support.clients import signed_in

    # a director signed in with his password only (an officer's second factor is his passkey)
    director = samples.users[roles.DIRECTOR]
    client: Any = signed_in(director)
    TOTPDevice.objects.filter(user=director).delete()  # no app yet: the key is shown
    response = client.get("/inspection/verification/", **GZIP)
    assert response.status_code == 200 and 'class="secret"' in response.content.decode()
    assert response.get("Content-Encoding") is None
    assert "private" in response.get("Cache-Control", "")
