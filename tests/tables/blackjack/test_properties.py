"""Property tests over simulated shoes (hypothesis chooses seeds, rules and faults)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.blackjack import replay
from tables.blackjack.parse import cents
from tables.blackjack.simulator import INJECTABLE, simulate

FR_ONLY = ("surrender", "hit_on_21_forbidden", "single_player_two_boxes", "max_boxes_per_player")


@st.composite
def shoes(draw: Any) -> dict[str, Any]:
    profile = draw(st.sampled_from(["FR", "LU"]))
    hr: dict[str, Any] = {}
    for key in (
        "double_after_split",
        "split_identical_only",
        "resplit_aces",
        "surrender",
        "hit_on_21_forbidden",
        "single_player_two_boxes",
    ):
        if (profile == "FR" or key not in FR_ONLY) and draw(st.booleans()):
            hr[key] = draw(st.booleans())
    if draw(st.booleans()):
        hr["max_hands_after_split"] = draw(st.sampled_from([None, 2, 3, 4]))
    if profile == "FR" and draw(st.booleans()):
        hr["max_boxes_per_player"] = draw(st.sampled_from([None, 1, 2, 3]))
    limits = draw(
        st.sampled_from(
            [("10.00", "1000.00"), ("5.00", "500.00"), ("25.00", "5000.00"), ("50.00", "2500.00")]
        )
    )
    return {
        "seed": draw(st.integers(0, 2**32)),
        "profile": profile,
        "house_rules": hr,
        "limits": limits,
        "max_boxes": draw(st.integers(1, 7)),
    }


def run(shoe: dict[str, Any], faults: tuple[str, ...] = ()) -> tuple[Any, dict[str, Any]]:
    sim = simulate(
        shoe["seed"],
        shoe["profile"],
        shoe["house_rules"],
        shoe["limits"],
        faults=faults,
        max_boxes=shoe["max_boxes"],
    )
    log = json.loads(json.dumps(sim.log))  # what the command would read
    return sim, replay(log)


COMMON = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@COMMON
@given(shoes())
def test_fault_free_shoe_replays_ok(shoe: dict[str, Any]) -> None:
    sim, rep = run(shoe)
    assert rep["ok"], rep["discrepancies"][:3]
    assert all(r["replayed"] for r in rep["rounds"])


@COMMON
@given(shoes())
def test_computed_nets_equal_what_the_table_paid(shoe: dict[str, Any]) -> None:
    sim, rep = run(shoe)
    paid = sum(
        cents(row.get("net", row.get("insurance_net"))) or 0
        for rd in sim.log["rounds"]
        for row in rd["settlements"]
    )
    computed = sum(cents(s["net"]) or 0 for rd in rep["rounds"] for h in rd["hands"] for s in h["stakes"])
    computed += sum(cents(i["net"]) or 0 for rd in rep["rounds"] for i in rd["insurance"])
    assert computed == paid


@COMMON
@given(shoes())
def test_every_card_of_a_round_is_assigned_once(shoe: dict[str, Any]) -> None:
    sim, rep = run(shoe)
    for rd, rr in zip(sim.log["rounds"], rep["rounds"], strict=True):
        dealt = list(rr["dealer"]["cards"])
        for h in rr["hands"]:
            dealt += h["cards"]
        # same multiset of codes, and as many as the round's cards: none twice, none left
        assert Counter(dealt) == Counter(rd["cards"])


@st.composite
def faulty(draw: Any) -> tuple[dict[str, Any], tuple[str, ...]]:
    shoe = draw(shoes())
    shoe["max_boxes"] = 7
    codes = sorted(INJECTABLE)
    if shoe["profile"] == "LU":
        codes = [c for c in codes if c not in ("TOO_MANY_BOXES", "SINGLE_PLAYER_ONE_BOX")]
    faults = tuple(draw(st.lists(st.sampled_from(codes), min_size=1, max_size=4, unique=True)))
    if "TOO_MANY_BOXES" in faults and shoe["house_rules"].get("max_boxes_per_player"):
        shoe["house_rules"]["max_boxes_per_player"] = None
    return shoe, faults


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(faulty())
def test_each_injected_fault_is_found_where_it_was_put(case: Any) -> None:
    shoe, faults = case
    sim, rep = run(shoe, faults)
    found = {(d["code"], d["round"], d["box"], d["hand"]) for d in rep["discrepancies"]}
    assert {i["code"] for i in sim.injected} == set(faults)
    for inj in sim.injected:
        assert (inj["code"], inj["round"], inj["box"], inj["hand"]) in found, (inj, found)


def test_every_code_is_injectable_alone() -> None:
    for i, code in enumerate(sorted(INJECTABLE)):
        sim, rep = run(
            {
                "seed": 1000 + i,
                "profile": "FR",
                "house_rules": {},
                "limits": ("10.00", "1000.00"),
                "max_boxes": 7,
            },
            (code,),
        )
        got = [(d["code"], d["round"], d["box"], d["hand"], d["player"]) for d in rep["discrepancies"]]
        (inj,) = sim.injected
        assert (inj["code"], inj["round"], inj["box"], inj["hand"], inj["player"]) in got
        assert {g[0] for g in got} == {code}, got
