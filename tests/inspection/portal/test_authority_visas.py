"""The officer's visa on the facts of an authority the director recorded (FR art. 39, LU art. 6):
a maker's approval and the LU sixain cap await him on the visas page and the dashboard; he stamps
each with his passkey, as his other acts; no one else can."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEvent
from cards_registry import services as depot
from cards_registry.models import AuthorityVisa, SixainCap
from casino_ops import officers, roles
from casino_ops.passkeys import SoftwarePasskey, unb64url

pytestmark = pytest.mark.django_db


@pytest.fixture
def samples(samples: Any, settings: Any) -> Any:
    """The portal's samples, then the officer signs as his browser does: no passkey on the server."""
    settings.OFFICER_DEMO_PASSKEY = False
    return samples


def _maker(samples: Any) -> Any:
    return depot.register_manufacturer(
        actor=samples.users[roles.DIRECTOR],
        code="CDC",
        name="Cartes du Centre",
        approval_reference="Arrêté INT-2026-88",
        ministry="Ministère de l'Intérieur",
        valid_from=dt.date(2026, 1, 1),
    )


def _sign_in_browser(client: Any, url: str, data: dict[str, str]) -> Any:
    """What passkey.js does: prepare, have the authenticator sign, post with the assertion."""
    prepared = client.post(url, {**data, "prepare": "1"})
    assert prepared.status_code == 200, prepared.content
    body = prepared.json()
    options = body["publicKey"]
    assertion = SoftwarePasskey.demo().assert_(
        unb64url(options["challenge"]), rp_id=options["rpId"], origin="http://localhost"
    )
    return client.post(
        url, {**data, "officer_statement": body["statement"], "officer_assertion": json.dumps(assertion)}
    )


def test_the_officer_stamps_a_makers_approval_from_the_visas_page(officer_client: Any, samples: Any) -> None:
    maker = _maker(samples)
    url = reverse("portal:stamp", args=["agrement-fabricant", maker.pk])
    page = officer_client.get(reverse("portal:visas")).content.decode()
    assert "Cartes du Centre" in page and "Arrêté INT-2026-88" in page and f'action="{url}"' in page
    assert "Agrément du fabricant CDC" in officer_client.get("/inspection/").content.decode()
    # without his passkey's signature, nothing is stamped
    refused = officer_client.post(url, {"remark": ""}, follow=True).content.decode()
    assert "clé d&#x27;accès" in refused and not AuthorityVisa.objects.filter(manufacturer=maker).exists()
    response = _sign_in_browser(officer_client, url, {"remark": "Arrêté vu"})
    assert response.status_code == 302
    visa = AuthorityVisa.objects.get(manufacturer=maker)
    assert visa.officer == samples.users[roles.OFFICER] and visa.remark == "Arrêté vu"
    event = AuditEvent.objects.get(action="depot.maker_approval_stamped", object_id=str(maker.pk))
    signed = json.loads(event.payload)[officers.SIGNATURE_KEY]
    assert signed["statement"]["target"] == f"cards_registry.manufacturer:{maker.pk}"
    assert signed["statement"]["fields"] == {"remark": "Arrêté vu"}
    assert f'action="{url}"' not in officer_client.get(reverse("portal:visas")).content.decode()


def test_the_officer_stamps_the_sixain_cap_from_the_visas_page(officer_client: Any, samples: Any) -> None:
    # the ministry's decision as the director recorded it under LU (the row the LU act writes)
    cap = SixainCap.objects.create(
        max_sixains=300,
        reference="Ministère des Finances, décision MF/2026/44",
        recorded_by=samples.users[roles.DIRECTOR],
        recorded_at=timezone.now(),
    )
    url = reverse("portal:stamp", args=["sixains", cap.pk])
    page = officer_client.get(reverse("portal:visas")).content.decode()
    assert "300 sixains" in page and "MF/2026/44" in page and f'action="{url}"' in page
    assert _sign_in_browser(officer_client, url, {"remark": ""}).status_code == 302
    assert AuthorityVisa.objects.get(sixain_cap=cap).officer == samples.users[roles.OFFICER]
    assert f'action="{url}"' not in officer_client.get(reverse("portal:visas")).content.decode()


def test_only_an_officer_stamps_an_authoritys_fact(clients: Any, samples: Any) -> None:
    maker = _maker(samples)
    url = reverse("portal:stamp", args=["agrement-fabricant", maker.pk])
    assert clients[roles.DIRECTOR].post(url, {"remark": ""}).status_code == 404
    assert not AuthorityVisa.objects.filter(manufacturer=maker).exists()
