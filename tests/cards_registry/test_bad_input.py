"""Absurd input in the depot's admin forms: refused on the field, never a 500, nothing written."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from cards_registry.models import Deck, DepotSettings, Incident, Order, Reception, Sixain
from tests.support.builders import gaming_day
from tests.support.refusals import assert_refused

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("lines", "ordered_on"),
    [
        (f"{2**31} jeux bleu", None),
        (f"{10**30} jeux bleu", None),
        ("24 jeux " + "b" * 33, None),
        ("24 jeux bl\x00eu", None),
        ("24 jeux bleu", "9999-12-31"),
        ("24 jeux bleu", "0001-01-01"),
        ("٢٤ jeux bleu", None),
    ],
)
def test_an_absurd_order_is_refused_on_its_field(
    director_client: Any, maker: Any, lines: str, ordered_on: str | None
) -> None:
    response = director_client.post(
        reverse("admin:cards_registry_order_add"),
        {
            "manufacturer": maker.pk,
            "ordered_on": ordered_on or timezone.localdate().isoformat(),
            "lines": lines,
        },
    )
    assert_refused(None, field="ordered_on" if ordered_on else "lines", response=response)
    assert not Order.objects.exists()


SIX = "\n".join(f"Z1-{i} {'bleu' if i <= 3 else 'rouge'} SZ1" for i in range(1, 7))


@pytest.mark.parametrize(
    ("first_line", "received_on"),
    [
        ("X" * 65 + " bleu SZ1", None),
        ("Z1-1 bleu " + "S" * 65, None),
        ("Z1-1 " + "b" * 33 + " SZ1", None),
        ("Z1-1\x00 bleu SZ1", None),
        ("Z1-1 bleu SZ1", "9999-01-01"),
        ("Z1-1 bleu SZ1", "1900-01-01"),
    ],
)
def test_an_absurd_reception_is_refused_on_its_field(
    director_client: Any, sent_order: Order, key: Any, first_line: str, received_on: str | None
) -> None:
    before = (Reception.objects.count(), Deck.objects.count(), Sixain.objects.count())
    lines = SIX.replace("Z1-1 bleu SZ1", first_line, 1)
    if "S" * 65 in first_line:
        lines = lines.replace("SZ1", "S" * 65)
    response = director_client.post(
        reverse("admin:cards_registry_reception_add"),
        {
            "order": sent_order.pk,
            "received_on": received_on or timezone.localdate().isoformat(),
            "decks": lines,
        },
    )
    assert_refused(None, field="received_on" if received_on else "decks", response=response)
    assert (Reception.objects.count(), Deck.objects.count(), Sixain.objects.count()) == before


def test_the_reception_baseline_is_accepted(director_client: Any, sent_order: Order, key: Any) -> None:
    response = director_client.post(
        reverse("admin:cards_registry_reception_add"),
        {"order": sent_order.pk, "received_on": timezone.localdate().isoformat(), "decks": SIX},
    )
    assert response.status_code == 302, response.context["adminform"].form.errors


@pytest.mark.parametrize("value", [str(2**63), str(2**31), "٣"])
def test_an_absurd_sixain_limit_is_refused(director_client: Any, casino: Any, value: str) -> None:
    response = director_client.post(reverse("admin:cards_registry_depotsettings_add"), {"max_sixains": value})
    assert_refused(None, field="max_sixains", response=response)
    assert not DepotSettings.objects.exclude(max_sixains=None).exists()


def _incident(maker: Any, officer: Any, **extra: str) -> dict[str, Any]:
    now = timezone.localtime().strftime("%Y-%m-%d %H:%M")
    return {
        "kind": "missing",
        "occurred_at": now,
        "day": gaming_day().isoformat(),
        "table_number": "2",
        "manufacturer": maker.pk,
        "serials": "A1-1 A1-2",
        "officer_informed": officer.pk,
        "officer_informed_at": now,
        "circumstances": "Une carte manque au comptage.",
        **extra,
    }


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("occurred_at", "0001-01-01 00:00"),
        ("occurred_at", "9999-12-31 23:59"),
        ("officer_informed_at", "0001-01-01 00:00"),
        ("day", "9999-12-31"),
        ("circumstances", "carte\x00manquante"),
        ("table_number", str(2**40)),
        ("table_number", "٢"),
        ("shoe_reference", "S" * 65),
        ("serials", "A1-1\x00"),
    ],
)
def test_an_absurd_incident_is_refused_and_the_pages_stay_up(
    director_client: Any, decks: list[Deck], maker: Any, officer: Any, field: str, value: str
) -> None:
    url = reverse("admin:cards_registry_incident_add")
    assert_refused(
        None, field=field, response=director_client.post(url, _incident(maker, officer, **{field: value}))
    )
    assert not Incident.objects.exists()
    assert director_client.get(reverse("admin:cards_registry_incident_changelist")).status_code == 200
    # the same form with sane values is accepted
    assert director_client.post(url, _incident(maker, officer)).status_code == 302


def test_a_control_character_in_a_choice_is_no_500(director_client: Any, decks: list[Deck]) -> None:
    response = director_client.post(
        reverse("admin:cards_registry_keyhandover_add"), {"receiver": "1\x00", "reason": "x"}
    )
    assert_refused(None, field="receiver", response=response)


@pytest.mark.parametrize(("field", "value"), [("day", "9999-12-31"), ("table_number", str(2**40))])
def test_a_deck_action_with_an_absurd_table_or_day_is_refused(
    director_client: Any, decks: list[Deck], field: str, value: str
) -> None:
    data = {
        "action": "issue",
        "_act": "1",
        "_selected_action": [d.pk for d in decks[:6]],
        "table_number": "4",
        "day": gaming_day().isoformat(),
        field: value,
    }
    response = director_client.post(reverse("admin:cards_registry_deck_changelist"), data, follow=True)
    assert response.status_code == 200
    assert not Deck.objects.exclude(status="in_cabinet").exists()
