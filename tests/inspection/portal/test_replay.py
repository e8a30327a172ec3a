"""The visual replay's steps (pure: no database) and the replay pages."""

from __future__ import annotations

import json

import pytest

from inspection.portal.replay import card, round_steps, round_summaries
from tables.blackjack import replay
from tests.support import builders
from tests.support.samples import FIXTURES, WORKED_EXAMPLE_STEPS, worked_example


def _steps() -> list[dict]:
    doc = worked_example()
    report = json.loads((FIXTURES / "worked-example.report.json").read_text())
    return round_steps(doc["rounds"][0], report["rounds"][0], report["discrepancies"], box_count=7)


def test_cards_are_drawn_in_shoe_order_and_every_card_leaves_once() -> None:
    steps = _steps()
    drawn = [c["code"] for step in steps for c in step["drawn"]]
    assert drawn == worked_example()["rounds"][0]["cards"]  # 9H 7C AS KD 5S 4D 6H


def test_steps_follow_the_round() -> None:
    titles = [s["title"] for s in _steps()]
    assert titles == WORKED_EXAMPLE_STEPS


def test_table_state_at_each_step() -> None:
    steps = _steps()
    box5 = {b["number"]: b for b in steps[6]["boxes"]}[5]
    assert [c["code"] for c in box5["hands"][0]["cards"]] == ["7C", "5S", "4D"]
    assert steps[6]["focus"] == 5
    assert [c["code"] for c in steps[3]["dealer"]] == ["AS"]
    assert steps[-1]["dealer_total"] == 17
    assert len(steps[0]["boxes"]) == 7


def test_the_discrepancy_shows_at_the_payment_on_its_box() -> None:
    steps = _steps()
    with_disc = [s for s in steps if s["discrepancies"]]
    assert [s["title"] for s in with_disc] == ["Paiements"]
    (d,) = with_disc[0]["discrepancies"]
    assert d["code"] == "SETTLEMENT_MISMATCH" and d["box"] == 5 and d["article"] == "FR art. 55-4 1°"
    box5 = {b["number"]: b for b in with_disc[0]["boxes"]}[5]
    (net,) = box5["hands"][0]["nets"]
    assert net == {"player": "P2", "amount": "10.00", "net": "-10.00", "recorded": "10.00", "differs": True}
    box2 = {b["number"]: b for b in with_disc[0]["boxes"]}[2]
    assert not any(n["differs"] for n in box2["hands"][0]["nets"])
    assert box2["insurance"][0]["net"] == "-25.00" and not box2["insurance"][0]["differs"]


def test_split_hands_take_the_engines_cards() -> None:

    doc = _split_round()
    report = replay(doc)
    steps = round_steps(doc["rounds"][0], report["rounds"][0], report["discrepancies"])
    drawn = [c["code"] for step in steps for c in step["drawn"]]
    assert drawn == doc["rounds"][0]["cards"]
    final = {b["number"]: b for b in steps[-1]["boxes"]}[1]
    assert len(final["hands"]) == 2
    assert [s for s in steps if s["phase"] == "play"][0]["title"] == "Case 1 : sépare"


def test_round_summaries_count_discrepancies_per_round() -> None:
    report = json.loads((FIXTURES / "worked-example.report.json").read_text())
    assert round_summaries(report, report["discrepancies"]) == [
        {"position": 1, "number": 1, "replayed": True, "discrepancies": 1}
    ]


def test_cards_for_display() -> None:
    ten = card("TH")
    assert {k: ten[k] for k in ("code", "rank", "suit", "red", "invalid")} == {
        "code": "TH",
        "rank": "10",
        "suit": "♥",
        "red": True,
        "invalid": False,
    }
    assert ten["html"] == '<span class="pcard red" title="TH"><b>10</b><i>♥</i></span>'
    odd = card("<b>X")
    assert odd["invalid"] and "<b>X" not in odd["html"] and "&lt;b&gt;X" in odd["html"]


def _split_round() -> dict:
    """8-8 split against a dealer 6: each hand stands on its second card."""
    doc = worked_example()
    doc["insurance"] = []
    doc["rounds"] = [
        {
            "number": 1,
            "boxes": [{"box": 1, "stakes": [{"player": "P1", "amount": "20.00"}]}],
            "cards": ["8S", "6H", "8D", "TC", "9C", "TD"],
            "insurance": [],
            "actions": {"1": ["split", "stand", "stand"]},
            "settlements": [
                {"box": 1, "hand": 0, "player": "P1", "net": "20.00"},
                {"box": 1, "hand": 1, "player": "P1", "net": "20.00"},
            ],
        }
    ]
    return doc


@pytest.mark.django_db
def test_replay_page_shows_the_round_with_its_discrepancy(
    officer_client, samples, django_assert_num_queries
) -> None:
    url = f"/inspection/journaux/{samples.hand_log.pk}/manches/1/"
    with django_assert_num_queries(6):
        response = officer_client.get(url)
    page = response.content.decode()
    assert response.status_code == 200
    assert page.count('class="step ') == 11
    assert "SETTLEMENT_MISMATCH" in page and "FR art. 55-4 1°" in page
    assert "portal/replay.js" in page
    assert officer_client.get(f"/inspection/journaux/{samples.hand_log.pk}/manches/2/").status_code == 404


@pytest.mark.django_db
def test_every_discrepancy_links_to_its_round(officer_client, samples) -> None:
    page = officer_client.get(f"/inspection/journaux/{samples.hand_log.pk}/").content.decode()
    assert f'href="/inspection/journaux/{samples.hand_log.pk}/manches/1/">manche 1 →' in page
    dashboard = officer_client.get("/inspection/").content.decode()
    assert f"/inspection/journaux/{samples.hand_log.pk}/manches/1/" in dashboard


@pytest.mark.django_db
def test_a_round_viewed_before_its_replay_shows_the_discrepancy_once_replayed(
    officer_client, users, casino
) -> None:
    import datetime as dt
    from decimal import Decimal

    from tables import services

    table = services.create_table(actor=users["directeur"], number=3, code="BJ03")
    from tables.clock import history_at

    with history_at(dt.datetime(2026, 11, 30, 14)):  # a session opens on its gaming day
        session = services.open_session(
            actor=users["directeur"],
            table=table,
            day=dt.date(2026, 11, 30),
            minimum=Decimal("10.00"),
            maximum=Decimal("1000.00"),
            advance_amount=Decimal("30000.00"),
            croupier=users["chef_de_table"],
        )
    doc = worked_example()
    doc["shoe_id"] = "BJ03-PENDING"  # a log of its own (its own SHA-256)
    builders.shoe(session, label=doc["shoe_id"])  # the depot's decks in the séance's shoe
    log = services.upload_hand_log(
        actor=users["chef_de_table"], session=session, raw=json.dumps(doc).encode(), source="api"
    )
    url = f"/inspection/journaux/{log.pk}/manches/1/"
    assert "SETTLEMENT_MISMATCH" not in officer_client.get(url).content.decode()
    services.replay_hand_log(hand_log_id=log.pk)
    assert "SETTLEMENT_MISMATCH" in officer_client.get(url).content.decode()


@pytest.mark.django_db
def test_links_follow_the_position_when_rounds_are_misnumbered(officer_client, users, casino) -> None:
    import copy
    import datetime as dt
    from decimal import Decimal

    from tables import services

    table = services.create_table(actor=users["directeur"], number=3, code="BJ03")
    from tables.clock import history_at

    with history_at(dt.datetime(2026, 11, 30, 14)):  # a session opens on its gaming day
        session = services.open_session(
            actor=users["directeur"],
            table=table,
            day=dt.date(2026, 11, 30),
            minimum=Decimal("10.00"),
            maximum=Decimal("1000.00"),
            advance_amount=Decimal("30000.00"),
            croupier=users["chef_de_table"],
        )
    doc = worked_example()
    doc["shoe_id"] = "BJ03-MISNUMBERED"
    builders.shoe(session, label=doc["shoe_id"])  # the depot's decks in the séance's shoe
    second = copy.deepcopy(doc["rounds"][0])
    second["number"] = 7  # the second round, numbered 7
    doc["rounds"].append(second)
    log = services.upload_hand_log(
        actor=users["chef_de_table"], session=session, raw=json.dumps(doc).encode(), source="api"
    )
    services.replay_hand_log(hand_log_id=log.pk)
    dashboard = officer_client.get("/inspection/").content.decode()
    assert f"/inspection/journaux/{log.pk}/manches/2/" in dashboard  # round 7 is the second
    assert "manche 7" in dashboard
    page = officer_client.get(f"/inspection/journaux/{log.pk}/manches/2/").content.decode()
    assert "Manche 7" in page and "SETTLEMENT_MISMATCH" in page
