"""Every officer's act carries his passkey's signature over exactly what he stamps
(casino_ops.officers.seal): the portal has his authenticator sign the statement's digest, the
service checks it against his enrolment before recording, and the act's event keeps it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from cards_registry import services as depot
from cards_registry.models import Visa
from casino_ops import officers
from casino_ops.officers import OfficerSignature
from casino_ops.passkeys import SoftwarePasskey, unb64url
from tests.support.builders import assert_refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def samples(samples: Any, settings: Any) -> Any:
    """The portal's samples (their visas signed by the demo passkey on the server), then the
    officer signs as his browser does: no passkey on the server."""
    settings.OFFICER_DEMO_PASSKEY = False
    return samples


def _sign_in_browser(client: Any, url: str, data: dict[str, str], key: SoftwarePasskey | None = None) -> Any:
    """What passkey.js does: prepare, have the authenticator sign, post with the assertion."""
    prepared = client.post(url, {**data, "prepare": "1"})
    assert prepared.status_code == 200, prepared.content
    body = prepared.json()
    options = body["publicKey"]
    assertion = (key or SoftwarePasskey.demo()).assert_(
        unb64url(options["challenge"]), rp_id=options["rpId"], origin="http://localhost"
    )
    return client.post(
        url, {**data, "officer_statement": body["statement"], "officer_assertion": json.dumps(assertion)}
    )


def test_a_visa_without_the_officers_signature_is_refused(officer_client: Any, samples: Any) -> None:
    url = reverse("portal:stamp", args=["commande", samples.order.pk])
    response = officer_client.post(url, {"remark": ""}, follow=True)
    assert (
        "OFFICER_SIGNATURE_REQUIRED" in response.content.decode()
        or "clé d&#x27;accès" in response.content.decode()
    )
    assert not Visa.objects.filter(order=samples.order).exists()
    assert not AuditEvent.objects.filter(
        action="depot.order_stamped", object_id=str(samples.order.pk)
    ).exists()


def test_a_visa_signed_by_the_passkey_is_recorded_with_its_signature(
    officer_client: Any, samples: Any
) -> None:
    url = reverse("portal:stamp", args=["commande", samples.order.pk])
    response = _sign_in_browser(officer_client, url, {"remark": "vu au dépôt"})
    assert response.status_code == 302
    visa = Visa.objects.get(order=samples.order)
    assert visa.remark == "vu au dépôt"
    payload = json.loads(
        AuditEvent.objects.get(action="depot.order_stamped", object_id=str(samples.order.pk)).payload
    )
    signed = payload[officers.SIGNATURE_KEY]
    assert signed["statement"]["target"] == f"cards_registry.order:{samples.order.pk}"
    assert signed["statement"]["fields"] == {"remark": "vu au dépôt"}
    assert signed["statement"]["officer"] == "u_officier"
    assert signed["assertion"]["response"]["signature"]


def test_an_incident_closure_and_a_demand_are_signed(officer_client: Any, samples: Any) -> None:
    incident = samples.incident
    url = reverse("portal:close_incident", args=[incident.pk])
    prefix = f"incident-{incident.pk}"
    response = _sign_in_browser(officer_client, url, {f"{prefix}-finding": "Carte marquée : jeu détruit."})
    assert response.status_code == 302
    payload = json.loads(AuditEvent.objects.get(action="depot.incident_closed").payload)
    assert payload[officers.SIGNATURE_KEY]["statement"]["fields"]["finding"] == "Carte marquée : jeu détruit."
    response = _sign_in_browser(officer_client, reverse("portal:demand_opening"), {"reason": "contrôle"})
    assert response.status_code == 302
    assert AuditEvent.objects.filter(action="depot.opening_demanded").count() == 1


def test_another_key_cannot_sign_for_the_officer(officer_client: Any, samples: Any) -> None:
    from tests.support.builders import other_passkey_pem

    url = reverse("portal:stamp", args=["commande", samples.order.pk])
    _sign_in_browser(officer_client, url, {"remark": ""}, key=SoftwarePasskey.from_pem(other_passkey_pem()))
    assert not Visa.objects.filter(order=samples.order).exists()


def _signature_for(officer: Any, target: Any, act: str, remark: str = "") -> OfficerSignature:
    said = officers.prepare(officer=officer, act=act, target=target, fields={"remark": remark})
    options_rp = officers.enrolment_in_force(officer).rp_id
    assertion = SoftwarePasskey.demo().assert_(
        officers.challenge_of(said), rp_id=options_rp, origin="https://localhost"
    )
    return OfficerSignature(said, assertion)


def test_a_signature_holds_for_its_entry_and_its_remark_only_and_once(samples: Any, director: Any) -> None:
    officer, order, reception = samples.users["officier"], samples.order, samples.reception
    signature = _signature_for(officer, order, "depot.order_stamped", remark="rien à signaler")
    with assert_refused("OFFICER_SIGNATURE_INVALID", article="FR art. 68", field="officer_signature"):
        depot.stamp_reception(
            actor=officer, reception=reception, remark="rien à signaler", signature=signature
        )
    with assert_refused("OFFICER_SIGNATURE_INVALID", nothing_recorded=True):
        depot.stamp_order(actor=officer, order=order, remark="autre chose", signature=signature)
    depot.stamp_order(actor=officer, order=order, remark="rien à signaler", signature=signature)
    second = depot.create_order(
        actor=director,
        manufacturer=order.manufacturer,
        ordered_on=order.ordered_on,
        lines=[{"quantity": 6, "unit": "deck", "back_colour": "bleu"}],
    )
    replayed = OfficerSignature(
        {**signature.statement, "target": f"cards_registry.order:{second.pk}"}, signature.assertion
    )
    with assert_refused("OFFICER_SIGNATURE_INVALID"):
        depot.stamp_order(actor=officer, order=second, remark="rien à signaler", signature=replayed)
