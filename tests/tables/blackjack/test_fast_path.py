"""The replay's fast path never changes a report or a rejection.

The engine replays a round on a fast path when it is well-formed and has
nothing to report, and falls back to the general replay otherwise. Here every
log is replayed twice, once as the engine does and once with the fast path
disabled (its card table emptied, so that every round falls back at its first
card), and the two results must be equal: same report, or same rejected field
and reason. Logs are simulated shoes, with injected faults, and then altered at
random (cards, actions, stakes, settlement rows, types of any field).
"""

from __future__ import annotations

import copy
import importlib
import json
import random
from typing import Any

import pytest

from tables.blackjack import Rejected, replay
from tables.blackjack.simulator import INJECTABLE, simulate

# the module (the package's name ``replay`` is the function)
ENGINE = importlib.import_module("tables.blackjack.replay")

JUNK: list[Any] = [
    True,
    False,
    0,
    1,
    2,
    -1,
    "",
    "x",
    "hit",
    "10.00",
    "AS",
    [],
    {},
    None,
    1.5,
    [1],
    {"a": 1},
    300,
]
CARDS = ["AS", "2H", "TD", "10C", "KD", "9S", "5H", "XX", "", "as", "1H", "7C"]
ACTS: list[Any] = [
    "hit",
    "stand",
    "double",
    "split",
    "surrender",
    {"act": "double", "declined": ["B1", "P2"]},
    {"act": "split", "declined": ["B2"]},
    {"act": "hit"},
    "foo",
]
AMOUNTS: list[Any] = ["10.00", "5", "12.55", "-10.00", "0", "1000.01", "25.5", "20", "abc", 10, "10.005"]


def _outcome(doc: Any) -> Any:
    try:
        return replay(doc)
    except Rejected as exc:
        return ("rejected", exc.field, exc.reason)


def _general_only(doc: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as m:
        m.setattr(ENGINE, "_VAL52", {})
        return _outcome(doc)


def _replace_node(rng: random.Random, node: Any) -> None:
    path: list[tuple[Any, Any]] = []
    cur = node
    for _ in range(rng.randint(1, 5)):
        if isinstance(cur, dict) and cur:
            key: Any = rng.choice(list(cur))
        elif isinstance(cur, list) and cur:
            key = rng.randrange(len(cur))
        else:
            break
        path.append((cur, key))
        cur = cur[key]
    if not path:
        return
    parent, key = path[-1]
    r = rng.random()
    if r < 0.15 and isinstance(parent, dict):
        del parent[key]
    elif r < 0.25 and isinstance(parent, dict):
        parent["extra"] = copy.deepcopy(rng.choice(JUNK))
    else:
        parent[key] = copy.deepcopy(rng.choice(JUNK))


def _whole_amounts(row: dict[str, Any]) -> None:
    for f in ("net", "insurance_net"):
        if f in row and row[f].endswith(".00"):
            row[f] = row[f][:-3]  # "20" equals "20.00"


def _with_declined(rng: random.Random, actions: dict[str, Any]) -> None:
    for acts in actions.values():
        for i, a in enumerate(acts):
            if isinstance(a, str) and rng.random() < 0.5:
                acts[i] = {"act": a, "declined": rng.choice([[], ["B1"], ["P1", "B2"]])}


def _alter(rng: random.Random, rd: dict[str, Any]) -> None:
    k = rng.randrange(12)
    if k == 0 and rd["cards"]:
        rd["cards"][rng.randrange(len(rd["cards"]))] = rng.choice(CARDS)
    elif k == 1 and rd["cards"]:
        del rd["cards"][rng.randrange(len(rd["cards"]))]
    elif k == 2 and rd["actions"]:
        acts = rd["actions"][rng.choice(list(rd["actions"]))]
        acts.insert(rng.randrange(len(acts) + 1), copy.deepcopy(rng.choice(ACTS)))
    elif k == 3 and rd["settlements"]:
        rng.shuffle(rd["settlements"])
    elif k == 4 and rd["settlements"]:
        _whole_amounts(rng.choice(rd["settlements"]))
    elif k == 5:
        stakes = rng.choice(rd["boxes"])["stakes"]
        if stakes:
            rng.choice(stakes)["amount"] = rng.choice(AMOUNTS)
    elif k == 6:
        rd["insurance"].append({"box": rng.randint(1, 7), "player": "P1", "amount": rng.choice(AMOUNTS)})
    elif k == 7:
        _with_declined(rng, rd["actions"])
    elif k == 8:
        rd["cards"] = ["10" + c[1] if isinstance(c, str) and c[:1] == "T" else c for c in rd["cards"]]
    elif k == 9:
        rd["boxes"].append({"box": rng.randint(1, 7), "stakes": []})
    else:
        _replace_node(rng, rd)


@pytest.mark.parametrize("seed", range(40))
def test_fast_path_matches_the_general_replay(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    codes = sorted(INJECTABLE)
    for i in range(10):
        profile = rng.choice(["FR", "LU"])
        hr: dict[str, Any] = {}
        keys = ["double_after_split", "split_identical_only", "resplit_aces"]
        if profile == "FR":
            keys += ["surrender", "hit_on_21_forbidden", "single_player_two_boxes"]
        for key in keys:
            if rng.random() < 0.4:
                hr[key] = rng.random() < 0.6
        if rng.random() < 0.3:
            hr["max_hands_after_split"] = rng.choice([None, 2, 3, 4])
        if profile == "FR" and rng.random() < 0.3:
            hr["max_boxes_per_player"] = rng.choice([1, 2, 3])  # holds only with another player
        limits = rng.choice([("10.00", "1000.00"), ("5.00", "500.00"), ("25.00", "5000.00")])
        faults = tuple(rng.sample(codes, rng.randint(0, 3))) if rng.random() < 0.5 else ()
        try:
            sim = simulate(seed * 1000 + i, profile, hr, limits, faults=faults, max_boxes=rng.randint(1, 7))
        except (ValueError, RuntimeError):  # a fault this shoe cannot carry
            continue
        log = json.loads(json.dumps(sim.log))
        if log["rounds"] and rng.random() < 0.6:
            for _ in range(rng.randint(1, 3)):
                _alter(rng, rng.choice(log["rounds"]))
        fast = _outcome(copy.deepcopy(log))
        general = _general_only(copy.deepcopy(log), monkeypatch)
        assert json.dumps(fast) == json.dumps(general), (seed, i)
