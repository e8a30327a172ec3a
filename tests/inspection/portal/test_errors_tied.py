"""Each error of a portal form is tied to its field and takes the focus when the page comes back
(WCAG 1.3.1, 3.3.1): a wrong second-factor code is said on the code's field, which the page
focuses."""

from __future__ import annotations

import re
from typing import Any

import pytest


@pytest.mark.django_db
def test_a_wrong_code_is_tied_to_its_field_and_focused(
    users: dict[str, Any], devices: dict[str, Any]
) -> None:
    from casino_ops import roles
    from tests.support.clients import signed_in

    # a director signed in with his password only, who has an app (an officer's second factor
    # is his passkey, not a code)
    assert devices[roles.DIRECTOR]
    client = signed_in(users[roles.DIRECTOR])
    page = client.post("/inspection/verification/", {"code": "000000"}).content.decode()
    field = re.search(r"<input[^>]*name=\"code\"[^>]*>", page)
    assert field, page
    tag = field.group(0)
    assert 'aria-invalid="true"' in tag and "autofocus" in tag
    described = re.search(r'aria-describedby="([^"]+)"', tag)
    assert described and "id_code_error" in described.group(1).split()
    assert 'id="id_code_error"' in page
