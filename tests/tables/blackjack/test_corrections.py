"""The two corrections of the spec (hand-log.md §3.3, §3.7, §6), hand-derived rounds.

* FR art. 55-4 1°: surrender "après distribution des deux premières cartes et
  avant tout tirage supplémentaire à la table". Once an earlier box has drawn
  (a hit, a double, a split), a surrender is ``ILLEGAL_SURRENDER`` with reason
  ``"after a draw at the table"``, replayed as a surrender.
* FR art. 55-4 1°: the number of boxes a player holds is limited "dès lors que
  d'autres joueurs souhaitent participer au jeu": ``TOO_MANY_BOXES`` only when
  another player takes part in the round (holds a box or bets behind).

Every round is replayed twice, by the engine as it runs (fast path first) and
with the fast path disabled (the general path alone): both give the same report.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest

from tables.blackjack import Rejected, replay
from tables.blackjack.simulator import simulate

from .conftest import late_surrender_round, make_log, make_round, only

ENGINE = importlib.import_module("tables.blackjack.replay")

SURRENDER = {"surrender": True}
LATE = "after a draw at the table"


def both(log: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], int]:
    """The report (equal on both paths) and how many rounds the fast path left to the general one."""
    general_calls = 0
    real = ENGINE._round_general

    def counting(*args: Any, **kw: Any) -> Any:
        nonlocal general_calls
        general_calls += 1
        return real(*args, **kw)

    with monkeypatch.context() as m:
        m.setattr(ENGINE, "_round_general", counting)
        fast = replay(log)
    with monkeypatch.context() as m:
        m.setattr(ENGINE, "_VAL52", {})  # every round falls back at its first card
        general = replay(log)
    assert fast == general
    return fast, general_calls


def hands(report: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    return {(h["box"], h["hand"]): h for h in report["rounds"][0]["hands"]}


# -- surrender only before any draw at the table ---------------------------------------------


def test_surrender_after_an_earlier_box_hit_is_illegal_and_replayed_as_a_surrender(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # box 2: 6H 5D, box 5: TC 6C, dealer TD; box 2 hits 9S (20) and stands, box 5
    # surrenders (a card was drawn at the table), dealer draws 7S: 17.
    rd = make_round(
        {2: [("P1", "10.00")], 5: [("P2", "20.00"), ("B1", "10.00")]},
        ["6H", "TC", "TD", "5D", "6C", "9S", "7S"],
        {2: ["hit", "stand"], 5: ["surrender"]},
        settlements=[
            {"box": 2, "hand": 0, "player": "P1", "net": "10.00"},
            {"box": 5, "hand": 0, "player": "P2", "net": "-10.00"},
            {"box": 5, "hand": 0, "player": "B1", "net": "-5.00"},
        ],
    )
    rep, general = both(make_log([rd], house_rules=SURRENDER), monkeypatch)
    assert rep["discrepancies"] == [
        {
            "code": "ILLEGAL_SURRENDER",
            "round": 1,
            "box": 5,
            "hand": 0,
            "player": "P2",
            "reason": LATE,
            "article": "FR art. 55-4 (house rules)",
        }
    ]
    h = hands(rep)
    assert h[(5, 0)]["outcome"] == "surrender" and h[(5, 0)]["cards"] == ["TC", "6C"]
    assert h[(2, 0)]["outcome"] == "win"
    assert rep["rounds"][0]["dealer"]["cards"] == ["TD", "7S"]
    assert general == 1


def test_surrender_before_any_draw_is_legal_on_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # box 1 surrenders first (nothing drawn yet), then box 3 hits: no discrepancy.
    rd = make_round(
        {1: [("P1", "10.00")], 3: [("P2", "10.00")]},
        ["TS", "5D", "9C", "6S", "7H", "8D", "8C"],
        {1: ["surrender"], 3: ["hit", "stand"]},
        settlements=[
            {"box": 1, "hand": 0, "player": "P1", "net": "-5.00"},
            {"box": 3, "hand": 0, "player": "P2", "net": "10.00"},
        ],
    )
    rep, general = both(make_log([rd], house_rules=SURRENDER), monkeypatch)
    assert rep["ok"], rep["discrepancies"]
    assert hands(rep)[(1, 0)]["outcome"] == "surrender"
    assert general == 0  # the fast path replayed it


def test_a_stand_or_a_blackjack_before_is_not_a_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    # box 1 stands on 19, box 2 has a blackjack (no decision), box 4 surrenders 16: legal.
    rd = make_round(
        {1: [("P1", "10.00")], 2: [("P2", "10.00")], 4: [("P3", "10.00")]},
        ["9S", "AH", "TC", "7D", "KC", "KH", "6D", "TS"],
        {1: ["stand"], 4: ["surrender"]},
        settlements=[
            {"box": 1, "hand": 0, "player": "P1", "net": "10.00"},
            {"box": 2, "hand": 0, "player": "P2", "net": "15.00"},
            {"box": 4, "hand": 0, "player": "P3", "net": "-5.00"},
        ],
    )
    rep, general = both(make_log([rd], house_rules=SURRENDER), monkeypatch)
    assert rep["ok"], rep["discrepancies"]
    assert hands(rep)[(4, 0)]["outcome"] == "surrender"
    assert rep["rounds"][0]["dealer"]["cards"] == ["7D", "TS"]
    assert general == 0


def test_surrender_after_an_earlier_double_or_split(monkeypatch: pytest.MonkeyPatch) -> None:
    # a double draws a card: box 1 5S 6H doubles (TD, 21), box 2 TH 6D surrenders
    dbl = make_round(
        {1: [("P1", "10.00")], 2: [("P2", "10.00")]},
        ["5S", "TH", "9C", "6H", "6D", "TD", "8C"],
        {1: ["double"], 2: ["surrender"]},
        settlements=[
            {"box": 1, "hand": 0, "player": "P1", "net": "20.00"},
            {"box": 2, "hand": 0, "player": "P2", "net": "-5.00"},
        ],
    )
    rep, _ = both(make_log([dbl], house_rules=SURRENDER), monkeypatch)
    assert [(d["code"], d["box"], d["reason"]) for d in rep["discrepancies"]] == [
        ("ILLEGAL_SURRENDER", 2, LATE)
    ]
    # a split draws a card: box 1 8S 8H splits (8S TC, 8H 9C, stands twice), box 3 TD 6C surrenders
    spl = make_round(
        {1: [("P1", "10.00")], 3: [("P2", "10.00")]},
        ["8S", "TD", "7D", "8H", "6C", "TC", "KC", "QS"],
        {1: ["split", "stand", "stand"], 3: ["surrender"]},
        settlements=[
            {"box": 1, "hand": 0, "player": "P1", "net": "10.00"},
            {"box": 1, "hand": 1, "player": "P1", "net": "10.00"},
            {"box": 3, "hand": 0, "player": "P2", "net": "-5.00"},
        ],
    )
    rep, _ = both(make_log([spl], house_rules=SURRENDER), monkeypatch)
    assert [(d["code"], d["box"], d["hand"], d["reason"]) for d in rep["discrepancies"]] == [
        ("ILLEGAL_SURRENDER", 3, 0, LATE)
    ]
    assert hands(rep)[(3, 0)]["outcome"] == "surrender"
    assert rep["rounds"][0]["dealer"]["cards"] == ["7D", "QS"]


def test_every_late_surrender_is_reported_and_a_bust_counts_as_a_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # box 1 TS 6H hits KD (bust), boxes 2 and 3 surrender: both late. Nothing left
    # on the layout, so the dealer draws nothing.
    rd = make_round(
        {1: [("P1", "10.00")], 2: [("P2", "10.00")], 3: [("P3", "30.00")]},
        ["TS", "9D", "TC", "9S", "6H", "7C", "6S", "KD"],
        {1: ["hit"], 2: ["surrender"], 3: ["surrender"]},
        settlements=[
            {"box": 1, "hand": 0, "player": "P1", "net": "-10.00"},
            {"box": 2, "hand": 0, "player": "P2", "net": "-5.00"},
            {"box": 3, "hand": 0, "player": "P3", "net": "-15.00"},
        ],
    )
    rep, _ = both(make_log([rd], house_rules=SURRENDER), monkeypatch)
    assert [(d["box"], d["player"], d["reason"]) for d in only(rep, "ILLEGAL_SURRENDER")] == [
        (2, "P2", LATE),
        (3, "P3", LATE),
    ]
    assert rep["rounds"][0]["dealer"]["cards"] == ["9S"]
    assert not only(rep, "SETTLEMENT_MISMATCH")


def test_late_surrender_where_surrender_is_not_offered_is_reported_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rd = late_surrender_round()
    for profile, article in (("FR", "FR art. 55-4 (house rules)"), ("LU", "LU art. 32 1.")):
        rep, _ = both(make_log([rd], profile=profile), monkeypatch)
        assert rep["discrepancies"] == [
            {
                "code": "ILLEGAL_SURRENDER",
                "round": 1,
                "box": 2,
                "hand": 0,
                "player": "P2",
                "reason": "not offered",
                "article": article,
            }
        ]
        assert hands(rep)[(2, 0)]["outcome"] == "surrender"


def test_an_impossible_surrender_keeps_its_own_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    # box 1 hits; box 2 hits then surrenders: "after a hit" (replayed as a stand), not a late one
    rd = make_round(
        {1: [("P1", "10.00")], 2: [("P2", "10.00")]},
        ["5S", "4D", "9C", "7H", "6S", "8D", "2C", "8C"],
        {1: ["hit", "stand"], 2: ["hit", "surrender"]},
    )
    rep, _ = both(make_log([rd], house_rules=SURRENDER), monkeypatch)
    (d,) = only(rep, "ILLEGAL_SURRENDER")
    assert (d["box"], d["reason"], d["replayed_as"]) == (2, "after a hit", "stand")


def test_a_late_surrender_is_judged_round_by_round(monkeypatch: pytest.MonkeyPatch) -> None:
    # round 1: a draw, then a late surrender; round 2: a surrender first, legal
    r1 = late_surrender_round()
    r2 = make_round(
        {1: [("P1", "10.00")], 2: [("P2", "10.00")]},
        ["TD", "5S", "9C", "6S", "7H", "8D", "8C"],
        {1: ["surrender"], 2: ["hit", "stand"]},
        number=2,
        settlements=[
            {"box": 1, "hand": 0, "player": "P1", "net": "-5.00"},
            {"box": 2, "hand": 0, "player": "P2", "net": "10.00"},
        ],
    )
    rep, general = both(make_log([r1, r2], house_rules=SURRENDER), monkeypatch)
    assert [(d["round"], d["box"], d["reason"]) for d in rep["discrepancies"]] == [(1, 2, LATE)]
    assert rep["rounds"][0]["hands"][1]["outcome"] == "surrender"
    assert rep["rounds"][1]["hands"][0]["outcome"] == "surrender"
    assert general == 1


# -- boxes per player only when another player takes part ----------------------------------


def _three_boxes(extra: dict[int, list[tuple[str, str]]] | None = None) -> dict[str, Any]:
    boxes: dict[int, list[tuple[str, str]]] = {
        1: [("P1", "10.00")],
        2: [("P1", "10.00")],
        3: [("P1", "10.00")],
    }
    boxes = dict(sorted({**boxes, **(extra or {})}.items()))
    n = len(boxes)
    # every box: a ten then a nine (19); dealer 7D then TS (17): every stake wins
    cards = ["TC", "TD", "TH", "KC", "KD", "KH", "QC"][:n] + ["7D"]
    cards += ["9S", "9H", "9D", "9C", "9S", "9H", "9D"][:n] + ["TS"]
    settlements = [
        {"box": b, "hand": 0, "player": p, "net": a} for b, stakes in sorted(boxes.items()) for p, a in stakes
    ]
    return make_round(boxes, cards, {b: ["stand"] for b in boxes}, settlements=settlements)


def test_a_lone_player_may_hold_any_number_of_boxes(monkeypatch: pytest.MonkeyPatch) -> None:
    for mx in (1, 2):
        rep, general = both(make_log([_three_boxes()], house_rules={"max_boxes_per_player": mx}), monkeypatch)
        assert rep["ok"], rep["discrepancies"]
        assert general == 0  # the fast path replayed it
    # with single_player_two_boxes too: a lone player on three boxes is fine
    hr = {"max_boxes_per_player": 1, "single_player_two_boxes": True}
    rep, _ = both(make_log([_three_boxes()], house_rules=hr), monkeypatch)
    assert rep["ok"], rep["discrepancies"]


def test_another_box_holder_brings_the_limit_into_force(monkeypatch: pytest.MonkeyPatch) -> None:
    rd = _three_boxes({5: [("P2", "10.00")]})
    rep, general = both(make_log([rd], house_rules={"max_boxes_per_player": 2}), monkeypatch)
    assert rep["discrepancies"] == [
        {
            "code": "TOO_MANY_BOXES",
            "round": 1,
            "box": None,
            "hand": None,
            "player": "P1",
            "boxes": [1, 2, 3],
            "max_boxes": 2,
            "article": "FR art. 55-4 (house rules)",
        }
    ]
    assert general == 1
    # at the limit, with another player: fine
    rep, _ = both(make_log([rd], house_rules={"max_boxes_per_player": 3}), monkeypatch)
    assert rep["ok"], rep["discrepancies"]


def test_a_player_betting_behind_brings_the_limit_into_force(monkeypatch: pytest.MonkeyPatch) -> None:
    rd = _three_boxes({2: [("P1", "10.00"), ("B7", "20.00")]})
    rep, _ = both(make_log([rd], house_rules={"max_boxes_per_player": 2}), monkeypatch)
    assert [(d["code"], d["player"], d["boxes"]) for d in rep["discrepancies"]] == [
        ("TOO_MANY_BOXES", "P1", [1, 2, 3])
    ]


def test_each_player_over_the_limit_is_reported_once(monkeypatch: pytest.MonkeyPatch) -> None:
    rd = _three_boxes({4: [("P2", "10.00")], 6: [("P2", "10.00")], 7: [("P3", "10.00")]})
    rep, _ = both(make_log([rd], house_rules={"max_boxes_per_player": 1}), monkeypatch)
    assert [(d["player"], d["boxes"], d["max_boxes"]) for d in only(rep, "TOO_MANY_BOXES")] == [
        ("P1", [1, 2, 3], 1),
        ("P2", [4, 6], 1),
    ]


def test_the_limit_is_judged_round_by_round(monkeypatch: pytest.MonkeyPatch) -> None:
    # as in the house-rules example: alone on two boxes (fine), then with P2 at the table
    alone = _three_boxes()
    alone["boxes"] = alone["boxes"][:2]
    alone["cards"] = ["TS", "TH", "7C", "9S", "9H", "TC"]
    alone["actions"] = {"1": ["stand"], "2": ["stand"]}
    alone["settlements"] = alone["settlements"][:2]
    shared = _three_boxes({5: [("P2", "10.00")]})
    shared["number"] = 2
    rep, _ = both(make_log([alone, shared], house_rules={"max_boxes_per_player": 1}), monkeypatch)
    assert [(d["round"], d["player"], d["boxes"]) for d in rep["discrepancies"]] == [(2, "P1", [1, 2, 3])]


def test_the_box_limit_is_a_french_house_rule_only() -> None:
    with pytest.raises(Rejected) as exc:
        replay(
            make_log(
                [_three_boxes({5: [("P2", "10.00")]})], profile="LU", house_rules={"max_boxes_per_player": 1}
            )
        )
    assert exc.value.field == "house_rules.max_boxes_per_player"
    # LU without the key: any number of boxes, with or without other players
    rep = replay(make_log([_three_boxes({5: [("P2", "10.00")]})], profile="LU"))
    assert rep["ok"], rep["discrepancies"]


# -- the simulator obeys both rules and injects both new cases -------------------------------


def test_fault_free_simulated_shoes_obey_both_rules() -> None:
    lone_over = surrenders = 0
    for seed in range(30):
        mx = 1 + seed % 2
        hr = {"surrender": True, "max_boxes_per_player": mx}
        sim = simulate(500 + seed, "FR", hr, ("10.00", "1000.00"))
        rep = replay(json.loads(json.dumps(sim.log)))
        assert rep["ok"], (seed, rep["discrepancies"][:3])
        for rd in sim.log["rounds"]:
            players = {s["player"] for b in rd["boxes"] for s in b["stakes"]}
            if len(players) == 1 and len(rd["boxes"]) > mx:
                lone_over += 1
        for rd in rep["rounds"]:
            surrenders += sum(1 for h in rd["hands"] if h["outcome"] == "surrender")
    # the shoes did carry both cases: lone players over the limit, and (early) surrenders
    assert lone_over > 0 and surrenders > 0


@pytest.mark.parametrize(
    ("profile", "hr", "reason"),
    [
        ("FR", {"surrender": True}, LATE),
        ("FR", {}, "not offered"),
        ("LU", {}, "not offered"),
    ],
)
def test_simulator_injects_a_surrender_after_a_draw(profile: str, hr: dict[str, Any], reason: str) -> None:
    for seed in range(5):
        sim = simulate(seed, profile, hr, faults=["ILLEGAL_SURRENDER"], forms={"ILLEGAL_SURRENDER": LATE})
        (inj,) = sim.injected
        assert inj["form"] == LATE
        rep = replay(json.loads(json.dumps(sim.log)))
        found = [
            (d["code"], d["round"], d["box"], d["hand"], d["player"], d["reason"])
            for d in rep["discrepancies"]
        ]
        assert found == [("ILLEGAL_SURRENDER", inj["round"], inj["box"], 0, inj["player"], reason)]
        rd = rep["rounds"][inj["round"] - 1]
        assert [h["outcome"] for h in rd["hands"] if h["box"] == inj["box"]] == ["surrender"]


@pytest.mark.parametrize("form", ["another box holder", "a player behind"])
@pytest.mark.parametrize("mx", [None, 2, 5])
def test_simulator_injects_too_many_boxes_with_another_player(form: str, mx: int | None) -> None:
    hr = {} if mx is None else {"max_boxes_per_player": mx}
    for seed in range(3):
        sim = simulate(seed, "FR", hr, faults=["TOO_MANY_BOXES"], forms={"TOO_MANY_BOXES": form})
        (inj,) = sim.injected
        rep = replay(json.loads(json.dumps(sim.log)))
        (d,) = rep["discrepancies"]
        assert (d["code"], d["round"], d["player"], d["max_boxes"]) == (
            "TOO_MANY_BOXES",
            inj["round"],
            "P1",
            mx or 1,
        )
        rd = sim.log["rounds"][inj["round"] - 1]
        assert d["boxes"] == [b["box"] for b in rd["boxes"] if b["stakes"][0]["player"] == "P1"]
        others = {s["player"] for b in rd["boxes"] for s in b["stakes"]} - {"P1"}
        assert others == ({"P2"} if form == "another box holder" else {"B1"})


def test_simulator_refuses_a_form_it_cannot_carry() -> None:
    with pytest.raises(ValueError):
        simulate(
            1,
            "FR",
            {"max_boxes_per_player": 6},
            faults=["TOO_MANY_BOXES"],
            forms={"TOO_MANY_BOXES": "another box holder"},
        )
    with pytest.raises(ValueError):
        simulate(1, "FR", {}, faults=["ILLEGAL_SURRENDER"], forms={"ILLEGAL_SURRENDER": "late"})
