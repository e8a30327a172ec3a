"""Nobody but the officer can forge or move a visa (audit.officer_acts): whoever holds the
casino's keys writes events with a valid MAC and a valid chain, never the officer's passkey
signature; verify_audit names a visa written so as forged, a visa moved to another entry as
forged, and a signature copied onto a second act as replayed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

import audit
from audit.actions import Action
from audit.models import AuditEvent
from audit.verification import verify
from cards_registry import services as depot
from cards_registry.models import Visa
from casino_ops import officers, roles
from casino_ops.passkeys import short_fingerprint
from tests.support import builders

pytestmark = pytest.mark.django_db(transaction=False)

LINES = [{"quantity": 6, "unit": "deck", "back_colour": "bleu"}]


@pytest.fixture
def two_orders(users: dict[str, Any], casino: Any) -> tuple[Any, Any, Any]:
    director, officer = users[roles.DIRECTOR], users[roles.OFFICER]
    maker = builders.approved_maker(director)
    first = depot.create_order(
        actor=director, manufacturer=maker, ordered_on=timezone.localdate(), lines=LINES
    )
    second = depot.create_order(
        actor=director, manufacturer=maker, ordered_on=timezone.localdate(), lines=LINES
    )
    depot.stamp_order(actor=officer, order=first, remark="vu")  # signed by his passkey
    return officer, first, second


def _written_with_the_casinos_keys(officer: Any, order: Any, payload: dict[str, Any]) -> None:
    """What the casino's server can write by itself: a visa row and its event (valid MAC, chained)."""
    with transaction.atomic():
        Visa.objects.create(order=order, officer=officer, at=timezone.now(), remark=payload.get("remark", ""))
        audit.record(actor=officer, action=Action.DEPOT_ORDER_STAMPED, obj=order, payload=payload)


def test_signed_visas_verify(two_orders: Any, capsys: Any) -> None:
    outcome = verify()
    assert outcome.ok, outcome.officer_problems
    # the maker's approval and the order, each stamped by the officer's passkey
    assert outcome.officer_acts is not None and outcome.officer_acts.checked == 2
    for _seq, officer, fingerprint in outcome.officer_acts.verified:
        assert officer == "u_officier" and len(fingerprint) == 19
    call_command("verify_audit", "--no-witness")
    assert "2 officers' acts signed by their enrolled passkeys" in capsys.readouterr().out


def test_a_visa_written_with_the_casinos_keys_is_named_as_forged(two_orders: Any, capsys: Any) -> None:
    officer, _first, second = two_orders
    _written_with_the_casinos_keys(
        officer, second, {"number": second.number, "officer": "u_officier", "remark": ""}
    )
    outcome = verify()
    assert outcome.chain.ok and not outcome.book_problems  # the MAC, the chain and the rows hold
    (problem,) = outcome.officer_problems
    assert f"cards_registry.order:{second.pk}" in problem and "forged officer's act: no signature" in problem
    with pytest.raises(SystemExit):
        call_command("verify_audit", "--no-witness")
    assert "OFFICER:" in capsys.readouterr().err


def test_a_visa_moved_to_another_entry_is_named_as_forged(two_orders: Any) -> None:
    officer, first, second = two_orders
    genuine = json.loads(AuditEvent.objects.get(action=Action.DEPOT_ORDER_STAMPED).payload)
    moved = {key: genuine[key] for key in ("number", "officer", "remark", officers.SIGNATURE_KEY)}
    _written_with_the_casinos_keys(officer, second, moved)
    (problem,) = verify().officer_problems
    assert (
        f"the officer signed 'cards_registry.order:{first.pk}', not 'cards_registry.order:{second.pk}'"
        in problem
    )


def test_a_visa_replayed_on_the_same_entry_is_named(two_orders: Any) -> None:
    officer, first, _second = two_orders
    genuine = json.loads(AuditEvent.objects.get(action=Action.DEPOT_ORDER_STAMPED).payload)
    again = {key: genuine[key] for key in ("number", "officer", "remark", officers.SIGNATURE_KEY)}
    with transaction.atomic():
        audit.record(actor=officer, action=Action.DEPOT_ORDER_STAMPED, obj=first, payload=again)
    (problem,) = verify().officer_problems
    assert "replayed officer's signature" in problem


def _offline(event: Any, tmp_path: Any, capsys: Any) -> tuple[int, str]:
    """``verifier.py visa``: the event, the officer's enrolment and the authority's certificate."""
    from django.conf import settings

    from casino_ops.models import OfficerEnrolment
    from inspection import verifier

    fields = ("recorded_at", "actor_name", "action", "object_type", "object_id", "payload")
    (tmp_path / "event.json").write_text(json.dumps({key: str(getattr(event, key)) for key in fields}))
    (tmp_path / "enrolment.json").write_text(
        OfficerEnrolment.objects.get(user__username="u_officier").document
    )
    code = verifier.main(
        [
            "visa",
            str(tmp_path / "event.json"),
            "--enrolment",
            str(tmp_path / "enrolment.json"),
            "--authority",
            settings.OFFICER_AUTHORITY_CERTIFICATE,
        ]
    )
    out = capsys.readouterr()
    return code, out.out + out.err


def test_the_offline_verifier_checks_a_visa(two_orders: Any, tmp_path: Any, capsys: Any) -> None:
    officer, first, second = two_orders
    genuine = AuditEvent.objects.get(action=Action.DEPOT_ORDER_STAMPED)
    code, said = _offline(genuine, tmp_path, capsys)
    assert code == 0 and "visa de l'officier" in said and "vérifié" in said
    # the act, its time and the fingerprint the registers print beside the visa
    signed = json.loads(genuine.payload)[officers.SIGNATURE_KEY]
    fingerprint = short_fingerprint(signed["assertion"])
    act = (
        f"depot.order_stamped cards_registry.order:{first.pk}, {genuine.recorded_at}, empreinte {fingerprint}"
    )
    assert f"vérifié ({act})" in said, said
    payload = json.loads(genuine.payload)
    moved = {key: payload[key] for key in ("number", "officer", "remark", officers.SIGNATURE_KEY)}
    _written_with_the_casinos_keys(officer, second, moved)
    code, said = _offline(
        AuditEvent.objects.filter(action=Action.DEPOT_ORDER_STAMPED).last(), tmp_path, capsys
    )
    assert code == 1 and "not this act" in said
    forged = AuditEvent.objects.filter(action=Action.DEPOT_ORDER_STAMPED).last()
    forged.payload = json.dumps({"number": second.number, "officer": "u_officier", "remark": ""})
    code, said = _offline(forged, tmp_path, capsys)
    assert code == 1 and "forged" in said
