"""The decks' list in the director's admin: it shows the table a deck is at;
each action opens a page of its own asking only for its own fields; a return or a check of
several decks asks a count per deck (never one count for all); several decks are checked at a
table in one form."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.urls import reverse

from cards_registry import services
from cards_registry.models import Deck, DeckStatus, Incident, TableCheck
from tests.support.builders import gaming_day
from tests.support.clients import signed_in

pytestmark = pytest.mark.django_db

URL = "/admin/cards_registry/deck/"


def fields_asked(page: str) -> set[str]:
    """The fields the action's page asks for (its hidden inputs aside)."""
    form = page[page.index('<form method="post" novalidate>') :]
    names = set(re.findall(r'<(?:input|select|textarea)[^>]*name="([^"]+)"', form))
    hidden = set(re.findall(r'<input type="hidden" name="([^"]+)"', form))
    return names - hidden


def test_the_list_shows_the_table_a_deck_is_at(director: Any, decks: list[Deck]) -> None:
    services.issue_decks(actor=director, table_number=4, day=gaming_day(), decks=decks[:6])
    page = signed_in(director).get(URL).content.decode()
    rows = {
        serial: row
        for row in re.findall(r"<tr>.*?</tr>", page, re.S)
        for serial in re.findall(r'<th class="field-serial"><a [^>]*>([^<]+)</a>', row)
    }
    assert "à la table" in page
    assert '<td class="field-at_table">table 4</td>' in rows[decks[0].serial]
    assert '<td class="field-at_table">—</td>' in rows[decks[6].serial]  # in the cabinet


@pytest.mark.parametrize(
    ("action", "asked"),
    [
        ("issue", lambda decks: {"table_number", "day"}),
        ("destroy", lambda decks: {"officer"}),
        ("return_fit", lambda decks: {"table_number", "day", *(f"cards_{d.pk}" for d in decks)}),
        (
            "check_at_table",
            lambda decks: {
                "table_number",
                "day",
                "witness",
                "video_reference",
                *(f"{what}_{d.pk}" for d in decks for what in ("cards", "band", "order")),
            },
        ),
    ],
)
def test_each_action_asks_only_for_its_own_fields(
    director: Any, decks: list[Deck], action: str, asked: Any
) -> None:
    client = signed_in(director)
    list_page = client.get(URL).content.decode()
    # above the list: the action alone, no field of any act
    assert not {"table_number", "day", "officer", "cards_counted"} & fields_asked(
        list_page.replace('id="changelist-form" method="post" novalidate', 'method="post" novalidate')
    )
    chosen = decks[:2]
    response = client.post(URL, {"action": action, "_selected_action": [d.pk for d in chosen]})
    assert response.status_code == 200
    page = response.content.decode()
    assert fields_asked(page) == asked(chosen)
    assert all(d.serial in page for d in chosen)  # the decks chosen, named on the page
    assert not Deck.objects.exclude(status=DeckStatus.IN_CABINET).exists()  # nothing done yet


def test_a_return_of_several_decks_asks_a_count_per_deck(director: Any, decks: list[Deck]) -> None:
    services.issue_decks(actor=director, table_number=4, day=gaming_day(), decks=decks[:6])
    client = signed_in(director)
    form = {
        "action": "return_fit",
        "_act": "1",
        "_selected_action": [d.pk for d in decks[:3]],
        "table_number": 4,
        "day": gaming_day().isoformat(),
        f"cards_{decks[0].pk}": 52,
        f"cards_{decks[2].pk}": 52,
    }
    missing = client.post(URL, form)
    assert missing.status_code == 200  # the page again, the deck without its count named
    assert f"Jeu {decks[1].serial} : comptez ses cartes" in html.unescape(missing.content.decode())
    assert Deck.objects.get(pk=decks[0].pk).status == DeckStatus.ISSUED

    response = client.post(URL, {**form, f"cards_{decks[1].pk}": 51}, follow=True)
    assert response.redirect_chain[-1][0].endswith(URL)
    incident = Incident.objects.get()
    assert [d.serial for d in incident.decks.all()] == [decks[1].serial]  # the short deck alone
    states = {d.serial: d.status for d in Deck.objects.filter(pk__in=[d.pk for d in decks[:3]])}
    assert states == {
        decks[0].serial: DeckStatus.IN_CABINET,
        decks[1].serial: DeckStatus.QUARANTINED,
        decks[2].serial: DeckStatus.IN_CABINET,
    }
    assert f"Incident n° {incident.number}" in html.unescape(response.content.decode())


def test_several_decks_are_checked_at_a_table_in_one_form(
    director: Any, croupier: Any, decks: list[Deck]
) -> None:
    services.issue_decks(actor=director, table_number=4, day=gaming_day(), decks=decks[:6])
    chosen = decks[:3]
    form = {
        "action": "check_at_table",
        "_act": "1",
        "_selected_action": [d.pk for d in chosen],
        "table_number": 4,
        "day": gaming_day().isoformat(),
        "witness": "Le chef de partie",
        "video_reference": "CAM4 14:02",
        **{f"cards_{d.pk}": 52 for d in chosen},
        **{f"band_{d.pk}": "on" for d in chosen},
        **{f"order_{d.pk}": "on" for d in chosen},
    }
    response = signed_in(croupier).post(URL, form, follow=True)
    text = html.unescape(response.content.decode())
    assert "Jeux contrôlés à la table 4" in text, text[-3000:]
    checked = TableCheck.objects.order_by("issue_line__deck__serial")
    assert [(c.issue_line.deck.serial, c.cards_counted) for c in checked] == [(d.serial, 52) for d in chosen]


def test_a_deck_short_in_a_check_of_several_is_named_with_its_incident(
    director: Any, croupier: Any, decks: list[Deck]
) -> None:
    services.issue_decks(actor=director, table_number=4, day=gaming_day(), decks=decks[:6])
    chosen = decks[:2]
    form = {
        "action": "check_at_table",
        "_act": "1",
        "_selected_action": [d.pk for d in chosen],
        "table_number": 4,
        "day": gaming_day().isoformat(),
        "witness": "Le chef de partie",
        "video_reference": "CAM4 14:02",
        f"cards_{chosen[0].pk}": 52,
        f"cards_{chosen[1].pk}": 51,
        **{f"band_{d.pk}": "on" for d in chosen},
        **{f"order_{d.pk}": "on" for d in chosen},
    }
    response = signed_in(croupier).post(URL, form)
    assert response.status_code == 200  # the page again, with the refusal
    text = html.unescape(response.content.decode())
    assert f"Jeu {chosen[1].serial}" in text and "FR art. 40" in text
    assert f"Jeux déjà contrôlés : {chosen[0].serial}" in text
    assert Deck.objects.get(pk=chosen[1].pk).status == DeckStatus.QUARANTINED
    assert TableCheck.objects.get().issue_line.deck == chosen[0]


def test_the_page_of_an_action_has_its_link_back_to_the_list(director: Any, decks: list[Deck]) -> None:
    page = signed_in(director).post(URL, {"action": "issue", "_selected_action": [decks[0].pk]})
    assert f'href="{reverse("admin:cards_registry_deck_changelist")}"' in page.content.decode()
