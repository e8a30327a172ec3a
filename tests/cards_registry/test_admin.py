"""The depot's admin: lists and detail pages, acts through forms and actions, refusals on the form."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from cards_registry import services
from cards_registry.models import Deck, DeckStatus, KeyHandover, Order, Reception

from .conftest import sixain_data

pytestmark = pytest.mark.django_db

MODELS = (
    "manufacturer",
    "order",
    "reception",
    "deck",
    "sixain",
    "keyhandover",
    "cabinetopening",
    "incident",
    "destruction",
    "correction",
)


def test_every_list_and_detail_page_opens(director_client: Any, decks: list[Deck]) -> None:
    for model in MODELS:
        response = director_client.get(reverse(f"admin:cards_registry_{model}_changelist"))
        assert response.status_code == 200, model
    deck = decks[0]
    page = director_client.get(reverse("admin:cards_registry_deck_change", args=[deck.pk]))
    assert page.status_code == 200
    assert "Pris en charge : n° 1" in page.content.decode() and "audit n°" in page.content.decode()
    reception = director_client.get(
        reverse("admin:cards_registry_reception_change", args=[deck.reception_id])
    )
    assert "A1-1" in reception.content.decode()


def test_registered_entries_cannot_be_edited_or_deleted(director_client: Any, decks: list[Deck]) -> None:
    reception = decks[0].reception
    url = reverse("admin:cards_registry_reception_change", args=[reception.pk])
    director_client.post(url, {"delivery_note": "changé"})
    assert Reception.objects.get(pk=reception.pk).delivery_note == "BL 4411"
    delete = director_client.post(
        reverse("admin:cards_registry_reception_delete", args=[reception.pk]), {"post": "yes"}
    )
    assert delete.status_code == 403
    assert Reception.objects.filter(pk=reception.pk).exists()


def test_reception_form_runs_the_act_and_shows_a_refusal_on_the_field(
    director_client: Any, sent_order: Order, key: Any, decks: list[Deck]
) -> None:
    url = reverse("admin:cards_registry_reception_add")
    lines = "\n".join(f"{d['serial']} {d['back_colour']} SX9" for d in sixain_data("B9")["decks"])
    response = director_client.post(
        url, {"order": sent_order.pk, "received_on": timezone.localdate().isoformat(), "decks": lines}
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Reception.objects.count() == 2
    assert Deck.objects.filter(serial="B9-1", sixain__serial="SX9").exists()
    # the same serials again: refused on the field with the article, nothing recorded
    response = director_client.post(
        url, {"order": sent_order.pk, "received_on": timezone.localdate().isoformat(), "decks": lines}
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "decks" in errors and "FR art. 39" in errors["decks"][0]
    assert Reception.objects.count() == 2
    # a sixain of another composition
    bad = "C1-1 bleu SXC\nC1-2 bleu SXC\nC1-3 bleu SXC\nC1-4 bleu SXC\nC1-5 rouge SXC\nC1-6 rouge SXC"
    response = director_client.post(
        url, {"order": sent_order.pk, "received_on": timezone.localdate().isoformat(), "decks": bad}
    )
    assert "FR art. 55-4" in response.context["adminform"].form.errors["decks"][0]


def test_order_form_and_send_action(director_client: Any, officer: Any, maker: Any) -> None:
    response = director_client.post(
        reverse("admin:cards_registry_order_add"),
        {
            "manufacturer": maker.pk,
            "ordered_on": timezone.localdate().isoformat(),
            "lines": "24 jeux bleu\n4 sixains rouge",
        },
    )
    assert response.status_code == 302
    order = Order.objects.get()
    assert [line.decks for line in order.lines.all()] == [24, 24]
    changelist = reverse("admin:cards_registry_order_changelist")
    response = director_client.post(
        changelist, {"action": "send", "_selected_action": [order.pk]}, follow=True
    )
    assert "FR art. 39" in response.content.decode()  # not stamped yet
    assert Order.objects.get().sent_at is None
    services.stamp_order(actor=officer, order=order)
    sent = director_client.post(
        changelist, {"action": "send", "_selected_action": [order.pk]}, follow=True, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert Order.objects.get().sent_at is not None
    assert f"Purchase order no. {order.number} sent." in sent.content.decode()  # said in the page's language
    old = director_client.post(
        reverse("admin:cards_registry_order_add"),
        {"manufacturer": maker.pk, "ordered_on": "2001-01-01", "lines": "1 jeux bleu"},
    )
    assert "FR art. 39" in old.context["adminform"].form.errors["manufacturer"][0]


def test_deck_actions_issue_return_destroy(director_client: Any, officer: Any, decks: list[Deck]) -> None:
    url = reverse("admin:cards_registry_deck_changelist")
    today = timezone.localdate().isoformat()
    ids = [d.pk for d in decks[:6]]
    director_client.post(
        url, {"action": "issue", "_act": "1", "_selected_action": ids, "table_number": 4, "day": today}
    )
    assert set(Deck.objects.filter(pk__in=ids).values_list("status", flat=True)) == {DeckStatus.ISSUED}
    director_client.post(
        url,
        {
            "action": "return_worn",
            "_act": "1",
            "_selected_action": ids[:1],
            "table_number": 4,
            "day": today,
            f"cards_{ids[0]}": 52,
        },
    )
    director_client.post(
        url,
        {
            "action": "return_fit",
            "_act": "1",
            "_selected_action": ids[1:],
            "table_number": 4,
            "day": today,
            **{f"cards_{pk}": 52 for pk in ids[1:]},
        },
    )
    assert Deck.objects.get(pk=ids[0]).status == DeckStatus.OUT_OF_USE
    response = director_client.post(
        url,
        {"action": "destroy", "_act": "1", "_selected_action": ids[:2], "officer": officer.pk},
        follow=True,
    )
    assert "FR art. 39" in response.content.decode()  # the second deck is fit: refused, nothing destroyed
    assert not Deck.objects.filter(status=DeckStatus.DESTROYED).exists()
    director_client.post(
        url, {"action": "destroy", "_act": "1", "_selected_action": ids[:1], "officer": officer.pk}
    )
    assert Deck.objects.get(pk=ids[0]).status == DeckStatus.DESTROYED


def test_key_handover_form_refuses_a_croupier(director_client: Any, users: dict[str, Any], key: Any) -> None:
    response = director_client.post(
        reverse("admin:cards_registry_keyhandover_add"),
        {"receiver": users["chef_de_table"].pk, "reason": "x"},
    )
    assert response.status_code == 200  # the croupier is not even offered
    assert "receiver" in response.context["adminform"].form.errors
    assert KeyHandover.objects.count() == 1


def test_croupier_cannot_add_depot_entries(client: Any, users: dict[str, Any], casino: Any) -> None:
    client.force_login(users["chef_de_table"])
    assert client.get(reverse("admin:cards_registry_reception_add")).status_code == 403
    assert client.get(reverse("admin:cards_registry_deck_changelist")).status_code == 200


def test_deck_and_reception_lists_do_not_grow_in_queries(
    director_client: Any, director: Any, sent_order: Order, key: Any, decks: list[Deck]
) -> None:
    def count(model: str) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert director_client.get(reverse(f"admin:cards_registry_{model}_changelist")).status_code == 200
        return len(ctx.captured_queries)

    before = {model: count(model) for model in ("deck", "reception", "order")}
    for n in range(4):
        services.receive(
            actor=director, order=sent_order, received_on=timezone.localdate(), sixains=[sixain_data(f"Q{n}")]
        )
    assert {model: count(model) for model in ("deck", "reception", "order")} == before


def test_incident_form_without_the_officer_is_refused_on_its_field(
    director_client: Any, maker: Any, officer: Any, decks: list[Deck]
) -> None:
    now = timezone.localtime()
    data = {
        "kind": "missing",
        "occurred_at": now.strftime("%Y-%m-%d %H:%M:%S"),
        "day": now.date().isoformat(),
        "table_number": 2,
        "manufacturer": maker.pk,
        "serials": "A1-1 A1-2",
        "circumstances": "Une carte manque au comptage.",
    }
    url = reverse("admin:cards_registry_incident_add")
    response = director_client.post(url, data)
    assert "FR art. 40" in response.context["adminform"].form.errors["officer_informed"][0]
    response = director_client.post(url, {**data, "serials": "A1-1 NOPE"})
    assert "NOPE" in response.context["adminform"].form.errors["serials"][0]
    response = director_client.post(
        url,
        {**data, "officer_informed": officer.pk, "officer_informed_at": now.strftime("%Y-%m-%d %H:%M:%S")},
    )
    assert response.status_code == 302
    assert set(Deck.objects.filter(serial__in=["A1-1", "A1-2"]).values_list("status", flat=True)) == {
        "quarantined"
    }


def test_director_sets_the_ministry_limit(director_client: Any, client: Any, users: dict[str, Any]) -> None:
    from cards_registry.models import DepotSettings

    url = reverse("admin:cards_registry_depotsettings_add")
    assert director_client.post(url, {"max_sixains": 40}).status_code == 302
    assert director_client.post(url, {"max_sixains": 50}).status_code == 302
    assert DepotSettings.objects.get().max_sixains == 50
    client.force_login(users["comite_direction"])
    assert client.get(url).status_code == 403
