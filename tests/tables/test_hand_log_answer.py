"""The answer to a hand log sent through the API says what the caller can know of its replay
(docs/hand-log.md, section 7): the replay's address and state; once the replay has run (in the
same process, or already finished by the worker), its discrepancies and the card incidents it
opened, with their numbers, the decks quarantined and the article (FR art. 40, LU art. 7)."""

from __future__ import annotations

import json

import pytest

from cards_registry.models import DeckStatus, Incident
from tables.blackjack.simulator import simulate_shoe
from tests.support.depot_helpers import shoe_with_a_foreign_card


def _post(client, session, log):
    return client.post(
        f"/api/tables/sessions/{session.pk}/hand-logs/", data=json.dumps(log), content_type="application/json"
    )


@pytest.mark.django_db
def test_while_the_replay_is_pending_the_answer_says_where_to_read_it(client, staff, open_session) -> None:
    """Inside the request's transaction the replay waits for the commit: the answer cannot know
    its outcome and says so (pending, no incidents yet), with the address to read it later."""
    client.force_login(staff["croupier"])
    log = simulate_shoe(3, "FR", table="BJ03", limits=("10.00", "1000.00"))
    response = _post(client, open_session, log)
    assert response.status_code == 201, response.content
    answer = response.json()
    assert answer["replay"] == {
        "url": f"http://testserver/api/tables/hand-logs/{answer['id']}/",
        "state": "pending",
        "ok": None,
        "discrepancies": None,
    }
    assert answer["incidents"] is None and answer["notice"] == ""
    assert client.get(answer["replay"]["url"]).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_replay_that_ran_says_the_incident_it_opened(client, staff, depot_decks, today_session) -> None:
    """The log committed, the replay runs at once (no worker: in-process): a card that is no card
    opens an incident on the shoe's decks, and the answer names it."""
    a1, shoe, log = shoe_with_a_foreign_card(staff, depot_decks, today_session)
    client.force_login(staff["croupier"])
    response = _post(client, today_session, log)
    assert response.status_code == 201, response.content
    answer = response.json()
    incident = Incident.objects.get()
    assert answer["replay"]["state"] == "done" and answer["replay"]["ok"] is False
    assert answer["replay"]["discrepancies"] >= 1
    assert answer["incidents"] == [
        {
            "number": incident.number,
            "kind": "foreign",
            "kind_label": str(incident.get_kind_display()),
            "decks": sorted(d.serial for d in a1),
            "article": "FR art. 40",
        }
    ]
    assert f"Incident n° {incident.number} ouvert" in answer["notice"]
    assert {d.status for d in incident.decks.all()} == {DeckStatus.QUARANTINED}


@pytest.mark.django_db(transaction=True)
def test_a_replay_without_incident_says_none(client, staff, open_session) -> None:
    client.force_login(staff["croupier"])
    log = simulate_shoe(4, "FR", table="BJ03", limits=("10.00", "1000.00"))
    answer = _post(client, open_session, log).json()
    assert answer["replay"]["state"] == "done"
    assert answer["incidents"] == [] and answer["notice"] == ""
