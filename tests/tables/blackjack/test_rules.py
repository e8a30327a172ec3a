"""Hand-checked rounds for each rule of hand-log.md §3 and §4."""

from __future__ import annotations

from tables.blackjack import replay

from .conftest import codes, make_log, make_round, only


def one(rd, **top):
    return replay(make_log([rd], **top))


def hands(report):
    return {(h["box"], h["hand"]): h for h in report["rounds"][0]["hands"]}


def test_dealing_order_and_blackjack_pays_3_to_2() -> None:
    # box 1: AS, box 3: 9H; dealer 9C; box 1: KH (blackjack), box 3: 9D
    rd = make_round(
        {1: [("P1", "10.00")], 3: [("P2", "20.00")]},
        ["AS", "9H", "9C", "KH", "9D", "8D"],
        {3: ["stand"]},
        settlements=[
            {"box": 1, "hand": 0, "player": "P1", "net": "15.00"},
            {"box": 3, "hand": 0, "player": "P2", "net": "20.00"},
        ],
    )
    rep = one(rd)
    assert rep["ok"], rep["discrepancies"]
    h = hands(rep)
    assert h[(1, 0)]["cards"] == ["AS", "KH"] and h[(1, 0)]["outcome"] == "blackjack"
    assert h[(3, 0)]["cards"] == ["9H", "9D"] and h[(3, 0)]["outcome"] == "win"
    assert rep["rounds"][0]["dealer"] == {
        "cards": ["9C", "8D"],
        "total": 17,
        "soft": False,
        "blackjack": False,
    }


def test_blackjack_against_dealer_blackjack_is_a_push() -> None:
    rd = make_round(
        {1: [("P1", "10.00")]},
        ["AS", "AH", "KH", "KD"],
        settlements=[{"box": 1, "hand": 0, "player": "P1", "net": "0"}],
    )
    rep = one(rd)
    assert rep["ok"], rep["discrepancies"]
    h = hands(rep)[(1, 0)]
    assert h["outcome"] == "push" and h["blackjack"] is True
    assert rep["rounds"][0]["dealer"]["blackjack"] is True


def test_doubled_stake_lost_in_full_against_dealer_blackjack() -> None:
    rd = make_round(
        {1: [("P1", "10.00")]},
        ["5S", "AS", "6H", "TC", "KD"],
        {1: ["double"]},
        settlements=[{"box": 1, "hand": 0, "player": "P1", "net": "-20.00"}],
    )
    rep = one(rd)
    assert rep["ok"], rep["discrepancies"]
    h = hands(rep)[(1, 0)]
    assert h["total"] == 21 and h["doubled"] and h["outcome"] == "lose"
    assert h["stakes"] == [{"player": "P1", "amount": "20.00", "net": "-20.00"}]


def test_resplit_play_order_is_0_2_1() -> None:
    rd = make_round(
        {1: [("P1", "10.00")]},
        ["8S", "6H", "8D", "8C", "3D", "TS", "9H", "7C", "5D"],
        {1: ["split", "split", "stand", "stand", "stand"]},
    )
    rep = one(rd)
    h = hands(rep)
    assert h[(1, 0)]["cards"] == ["8S", "3D"]
    assert h[(1, 2)]["cards"] == ["8C", "TS"]
    assert h[(1, 1)]["cards"] == ["8D", "9H"]
    assert rep["rounds"][0]["dealer"]["cards"] == ["6H", "7C", "5D"]
    assert [x["outcome"] for x in rep["rounds"][0]["hands"]] == ["lose", "lose", "push"]
    assert codes(rep) == ["SETTLEMENT_MISSING"] * 3


def test_players_behind_follow_or_decline_a_split_and_a_double() -> None:
    rd = make_round(
        {2: [("P1", "10.00"), ("B1", "20.00"), ("B2", "30.00")]},
        ["8S", "6H", "8D", "3C", "TS", "2H", "TD", "9C"],
        {2: [{"act": "split", "declined": ["B2", "nobody"]}, {"act": "double", "declined": ["B1"]}, "stand"]},
    )
    rep = one(rd)
    h = hands(rep)
    assert h[(2, 0)]["stakes"] == [
        {"player": "P1", "amount": "20.00", "net": "20.00"},
        {"player": "B1", "amount": "20.00", "net": "20.00"},
        {"player": "B2", "amount": "60.00", "net": "60.00"},  # declined the split only
    ]
    assert [s["player"] for s in h[(2, 1)]["stakes"]] == ["P1", "B1"]
    assert h[(2, 0)]["cards"] == ["8S", "3C", "TS"] and h[(2, 0)]["doubled"]


def test_split_aces_take_one_card_and_21_is_even_money() -> None:
    rd = make_round(
        {1: [("P1", "10.00")]},
        ["AS", "7H", "AD", "KC", "9S", "TD"],
        {1: ["split", "stand"]},
        settlements=[
            {"box": 1, "hand": 0, "player": "P1", "net": "10.00"},
            {"box": 1, "hand": 1, "player": "P1", "net": "10.00"},
        ],
    )
    rep = one(rd)
    h = hands(rep)
    assert h[(1, 0)]["total"] == 21 and h[(1, 0)]["blackjack"] is False
    assert h[(1, 0)]["outcome"] == "win"
    extra = only(rep, "EXTRA_DECISION")
    assert extra == [
        {
            "code": "EXTRA_DECISION",
            "round": 1,
            "box": 1,
            "hand": None,
            "player": "P1",
            "count": 1,
            "article": "FR art. 55-4 1°",
        }
    ]


def test_resplit_aces_decision_point() -> None:
    cards = ["AS", "7H", "AD", "AC", "9S", "TD"]
    rep = one(
        make_round({1: [("P1", "10.00")]}, cards, {1: ["split", "hit"]}), house_rules={"resplit_aces": True}
    )
    d = only(rep, "ILLEGAL_HIT")
    assert d and d[0]["hand"] == 0 and d[0]["article"] == "FR art. 55-4 3°"
    assert hands(rep)[(1, 0)]["cards"] == ["AS", "AC"]  # drew no card
    assert hands(rep)[(1, 1)]["cards"] == ["AD", "9S"]
    # stand at the decision point: no discrepancy
    rep = one(
        make_round({1: [("P1", "10.00")]}, cards, {1: ["split", "stand"]}), house_rules={"resplit_aces": True}
    )
    assert only(rep, "ILLEGAL_HIT") == [] and only(rep, "EXTRA_DECISION") == []
    # without resplit_aces the ace ends the hand and no action is read
    rep = one(make_round({1: [("P1", "10.00")]}, cards, {1: ["split"]}))
    assert not only(rep, "MISSING_DECISION") and not only(rep, "EXTRA_DECISION")


def test_insurance_legal_and_illegal() -> None:
    rd = make_round(
        {2: [("P1", "50.00"), ("B7", "20.00")]},
        ["9H", "AS", "KD", "KH"],
        {2: ["stand"]},
        insurance=[
            {"box": 2, "player": "P1", "amount": "25.00"},
            {"box": 2, "player": "B7", "amount": "5.00"},
            {"box": 2, "player": "P1", "amount": "25.00"},
            {"box": 4, "player": "P9", "amount": "5.00"},
        ],
        settlements=[
            {"box": 2, "hand": 0, "player": "P1", "net": "-50.00"},
            {"box": 2, "hand": 0, "player": "B7", "net": "-20.00"},
            {"box": 2, "player": "P1", "insurance_net": "50.00"},
            {"box": 2, "player": "B7", "insurance_net": "10.00"},
        ],
    )
    rep = one(rd)
    ill = only(rep, "ILLEGAL_INSURANCE")
    assert [(d["player"], d["reason"]) for d in ill] == [
        ("B7", "not half the stake"),
        ("P1", "stake already insured"),
        ("P9", "no such stake"),
    ]
    assert all(d["hand"] is None and d["article"] == "FR art. 55-4 2°" for d in ill)
    assert rep["rounds"][0]["insurance"] == [{"box": 2, "player": "P1", "amount": "25.00", "net": "50.00"}]
    unknown = only(rep, "SETTLEMENT_UNKNOWN")
    assert [(d["player"], d["hand"]) for d in unknown] == [("B7", None)]


def test_insurance_without_dealer_ace_is_illegal_and_does_not_make_him_draw() -> None:
    rd = make_round(
        {1: [("P1", "10.00")]},
        ["TS", "9H", "QS", "5C"],
        {1: ["hit"]},
        insurance=[{"box": 1, "player": "P1", "amount": "5.00"}],
    )
    rep = one(rd)
    assert only(rep, "ILLEGAL_INSURANCE")[0]["reason"] == "dealer's first card is not an ace"
    assert only(rep, "ILLEGAL_INSURANCE")[0]["amount"] == "5.00"
    assert rep["rounds"][0]["dealer"] == {"cards": ["9H"], "total": 9, "soft": False, "blackjack": False}
    assert hands(rep)[(1, 0)]["outcome"] == "bust"


def test_surrender_offered_not_offered_and_impossible() -> None:
    # a surrendered hand leaves nothing on the layout: the dealer draws nothing
    rd = make_round(
        {1: [("P1", "10.00")]},
        ["TS", "9H", "6C"],
        {1: ["surrender"]},
        settlements=[{"box": 1, "hand": 0, "player": "P1", "net": "-5.00"}],
    )
    rep = one(rd, house_rules={"surrender": True})
    assert rep["ok"], rep["discrepancies"]
    assert hands(rep)[(1, 0)]["outcome"] == "surrender"
    rep = one(rd, profile="LU")
    d = only(rep, "ILLEGAL_SURRENDER")[0]
    assert d["reason"] == "not offered" and d["article"] == "LU art. 32 1."
    assert hands(rep)[(1, 0)]["outcome"] == "surrender"
    rd2 = make_round({1: [("P1", "10.00")]}, ["5S", "9H", "6C", "2D", "TD"], {1: ["hit", "surrender"]})
    rep = one(rd2, house_rules={"surrender": True})
    d = only(rep, "ILLEGAL_SURRENDER")[0]
    assert d["reason"] == "after a hit" and d["replayed_as"] == "stand"
    assert d["article"] == "FR art. 55-4 (house rules)"
    assert hands(rep)[(1, 0)]["outcome"] == "lose"  # 13 against 19
    rd3 = make_round(
        {1: [("P1", "10.00")]}, ["8S", "9H", "8C", "3D", "TH", "TD"], {1: ["split", "surrender", "stand"]}
    )
    rep = one(rd3, house_rules={"surrender": True})
    assert only(rep, "ILLEGAL_SURRENDER")[0]["reason"] == "after a split"


def test_double_rules_lu_totals_and_soft_hands() -> None:
    rd = make_round({1: [("P1", "10.00")]}, ["7S", "9H", "5C", "TD", "TH"], {1: ["double"]})
    rep = one(rd, profile="LU")
    d = only(rep, "ILLEGAL_DOUBLE")[0]
    assert d["reason"] == "double_totals" and d["article"] == "LU art. 32 4."
    assert hands(rep)[(1, 0)]["doubled"] is True  # replayed as a double
    soft = make_round({1: [("P1", "10.00")]}, ["AS", "9H", "8C", "2D", "TH"], {1: ["double"]})
    assert only(one(soft, profile="LU"), "ILLEGAL_DOUBLE")
    assert not only(one(soft), "ILLEGAL_DOUBLE")  # FR: any two cards
    hard10 = make_round({1: [("P1", "10.00")]}, ["4S", "9H", "6C", "2D", "TH"], {1: ["double"]})
    assert not only(one(hard10, profile="LU"), "ILLEGAL_DOUBLE")


def test_double_after_split_off_and_both_faults_give_one_discrepancy() -> None:
    rd = make_round(
        {1: [("P1", "10.00")]},
        ["8S", "9H", "8C", "3D", "TH", "2C", "7S", "TD"],
        {1: ["split", "double", "stand"]},
    )
    rep = one(rd, profile="LU", house_rules={"double_after_split": False})
    d = only(rep, "ILLEGAL_DOUBLE")
    assert len(d) == 1 and d[0]["reason"] == "double_after_split" and d[0]["hand"] == 0


def test_double_of_impossible_form_is_a_hit_and_never_an_illegal_hit() -> None:
    rd = make_round(
        {1: [("P1", "10.00")]}, ["5S", "9H", "6C", "TD", "4H", "9D"], {1: ["hit", "double", "stand"]}
    )
    rep = one(rd, house_rules={"hit_on_21_forbidden": True})
    d = only(rep, "ILLEGAL_DOUBLE")
    assert d[0]["reason"] == "more than two cards" and d[0]["replayed_as"] == "hit"
    assert not only(rep, "ILLEGAL_HIT")
    h = hands(rep)[(1, 0)]
    assert h["cards"] == ["5S", "6C", "TD", "4H"] and not h["doubled"] and h["outcome"] == "bust"


def test_hit_on_21_forbidden_covers_soft_21() -> None:
    rd = make_round(
        {1: [("P1", "10.00")]}, ["AS", "9H", "5C", "5D", "2H", "8D"], {1: ["hit", "hit", "stand"]}
    )
    rep = one(rd, house_rules={"hit_on_21_forbidden": True})
    d = only(rep, "ILLEGAL_HIT")
    assert len(d) == 1 and d[0]["article"] == "FR art. 55-4 (house rules)"
    assert hands(rep)[(1, 0)]["cards"] == ["AS", "5C", "5D", "2H"]


def test_split_rules() -> None:
    tens = make_round(
        {1: [("P1", "10.00")]}, ["TH", "9H", "KD", "9S", "9C", "8D"], {1: ["split", "stand", "stand"]}
    )
    d = only(one(tens, house_rules={"split_identical_only": True}), "ILLEGAL_SPLIT")
    assert d[0]["reason"] == "split_identical_only" and "replayed_as" not in d[0]
    same = make_round(
        {1: [("P1", "10.00")]}, ["TH", "9H", "10D", "9S", "9C", "8D"], {1: ["split", "stand", "stand"]}
    )
    assert not only(one(same, house_rules={"split_identical_only": True}), "ILLEGAL_SPLIT")
    diff = make_round({1: [("P1", "10.00")]}, ["TH", "9H", "9D", "8D"], {1: ["split"]})
    d = only(one(diff), "ILLEGAL_SPLIT")[0]
    assert d["reason"] == "cards of different values" and d["replayed_as"] == "stand"
    assert d["article"] == "FR art. 55-4 3°"


def test_too_many_splits() -> None:
    rd = make_round(
        {1: [("P1", "10.00")]},
        ["8S", "6H", "8D", "8C", "3D", "TS", "9H", "7C", "5D"],
        {1: ["split", "split", "stand", "stand", "stand"]},
    )
    rep = one(rd, profile="LU", house_rules={"max_hands_after_split": 2})
    assert only(rep, "TOO_MANY_SPLITS") == [
        {
            "code": "TOO_MANY_SPLITS",
            "round": 1,
            "box": 1,
            "hand": 0,
            "player": "P1",
            "max_hands": 2,
            "article": "LU art. 32 3.",
        }
    ]
    assert len(rep["rounds"][0]["hands"]) == 3  # replayed as allowed


def test_missing_decision_stops_the_round() -> None:
    rd = make_round(
        {1: [("P1", "10.00")], 3: [("P2", "10.00")]},
        ["6C", "6S", "6D", "3H", "5C", "JS"],
        {3: ["double"], 5: ["hit"]},
        settlements=[{"box": 1, "hand": 0, "player": "P1", "net": "99.00"}],
    )
    rep = one(rd)
    assert codes(rep) == ["MISSING_DECISION"]
    r = rep["rounds"][0]
    assert r["replayed"] is False and all(h["outcome"] is None for h in r["hands"])
    assert r["hands"][1]["stakes"][0]["net"] is None


def test_extra_decision_for_a_box_without_stakes() -> None:
    rd = make_round(
        {1: [("P1", "10.00")], 4: []}, ["TC", "7D", "TH", "TD"], {1: ["stand"], 4: ["hit", "stand"]}
    )
    d = only(one(rd), "EXTRA_DECISION")
    assert d == [
        {
            "code": "EXTRA_DECISION",
            "round": 1,
            "box": 4,
            "hand": None,
            "player": None,
            "count": 2,
            "article": "FR art. 55-4 1°",
        }
    ]


def test_cards_unused_and_short() -> None:
    rd = make_round({1: [("P1", "10.00")]}, ["TC", "7D", "TH", "TD", "5S", "5H"], {1: ["stand"]})
    assert only(one(rd), "CARDS_UNUSED")[0]["count"] == 2
    short = make_round(
        {1: [("P1", "10.00")], 2: [("P2", "10.00")]},
        ["TC", "7D"],
        settlements=[{"box": 1, "hand": 0, "player": "P1", "net": "1"}],
    )
    rep = one(short)
    assert codes(rep) == ["CARDS_SHORT"]
    r = rep["rounds"][0]
    assert r["replayed"] is False and r["dealer"]["cards"] == []
    assert [h["cards"] for h in r["hands"]] == [["TC"], ["7D"]]


def test_dealer_draws_nothing_when_all_hands_bust_and_draws_for_blackjacks() -> None:
    rd = make_round({1: [("P1", "10.00")]}, ["TC", "AD", "6H", "9S"], {1: ["hit"]})
    d = one(rd)["rounds"][0]["dealer"]
    assert d == {"cards": ["AD"], "total": 11, "soft": True, "blackjack": False}
    bj = make_round({1: [("P1", "10.00")]}, ["AC", "5D", "KH", "5S", "6C"])
    assert one(bj)["rounds"][0]["dealer"]["cards"] == ["5D", "5S", "6C"]


def test_dealer_stands_on_soft_17() -> None:
    rd = make_round({1: [("P1", "10.00")]}, ["TC", "AD", "8H", "6S"], {1: ["stand"]})
    d = one(rd)["rounds"][0]["dealer"]
    assert d["total"] == 17 and d["soft"] and d["cards"] == ["AD", "6S"]


def test_bet_checks_and_rounding_half_away_from_zero() -> None:
    rd = make_round(
        {
            1: [("P1", "10.05")],
            2: [("P2", "10.00"), ("B1", "990.00")],
            3: [("P3", "9.90")],
            4: [("P4", "995.00"), ("B4", "10.00")],
        },
        ["AS", "TC", "9D", "TH", "9C", "KH", "TD", "8C", "TS", "8S"],
        {2: ["stand"], 3: ["stand"], 4: ["stand"]},
    )
    rep = one(rd)
    assert [
        (d["code"], d["box"], d["player"]) for d in rep["discrepancies"] if d["code"].startswith("BET")
    ] == [("BET_UNIT", 1, "P1"), ("BET_BELOW_MIN", 3, "P3"), ("BET_ABOVE_MAX", 4, None)]
    assert hands(rep)[(1, 0)]["stakes"][0]["net"] == "15.08"  # 1.5 x 10.05 = 15.075
    sur = make_round({1: [("P1", "10.05")]}, ["TS", "9H", "6C"], {1: ["surrender"]})
    assert hands(one(sur, house_rules={"surrender": True}))[(1, 0)]["stakes"][0]["net"] == "-5.03"


def test_boxes_per_player_house_rules() -> None:
    # the limit holds when another player takes part (here P2 on box 5): hand-log.md §3.7
    rd = make_round(
        {1: [("P1", "10.00")], 2: [("P1", "10.00")], 3: [("P1", "10.00")], 5: [("P2", "10.00")]},
        ["TC", "TD", "TH", "2C", "7D", "TS", "9S", "8S", "5C", "QD", "9D"],
        {1: ["stand"], 2: ["stand"], 3: ["stand"], 5: ["stand"]},
    )
    d = only(one(rd, house_rules={"max_boxes_per_player": 2}), "TOO_MANY_BOXES")
    assert [(x["player"], x["box"], x["boxes"]) for x in d] == [("P1", None, [1, 2, 3])]
    lone = make_round({1: [("P1", "10.00"), ("B1", "10.00")]}, ["TC", "7D", "TH", "TD"], {1: ["stand"]})
    d = only(one(lone, house_rules={"single_player_two_boxes": True}), "SINGLE_PLAYER_ONE_BOX")
    assert d == [
        {
            "code": "SINGLE_PLAYER_ONE_BOX",
            "round": 1,
            "box": None,
            "hand": None,
            "player": "P1",
            "article": "FR art. 55-4 (house rules)",
        }
    ]


def test_card_count_exceeded_counts_10_as_t_over_the_shoe() -> None:
    r1 = make_round({1: [("P1", "10.00")]}, ["TH", "10H", "TH", "TH"], {1: ["stand"]})
    r2 = make_round({1: [("P1", "10.00")]}, ["10H", "7D", "TH", "TH", "TS"], {1: ["stand"]}, number=2)
    rep = replay(make_log([r1, r2]))
    d = only(rep, "CARD_COUNT_EXCEEDED")
    assert d == [
        {
            "code": "CARD_COUNT_EXCEEDED",
            "round": 2,
            "box": None,
            "hand": None,
            "player": None,
            "card": "TH",
            "count": 7,
            "decks": 6,
            "article": "FR art. 40",
        }
    ]
    assert rep["rounds"][0]["hands"][0]["cards"] == ["TH", "TH"]  # log's own codes kept


def test_invalid_card_round_is_not_replayed_but_counts() -> None:
    r1 = make_round({1: [("P1", "5.00")]}, ["TC", "XX", "TH", "th"], {1: ["stand"]})
    r2 = make_round({1: [("P1", "10.00")]}, ["TC", "7D", "TH", "TD"], {1: ["stand"]}, number=2)
    rep = replay(make_log([r1, r2], cut_card_after=9))
    assert [(d["code"], d["round"], d.get("index")) for d in rep["discrepancies"]] == [
        ("BET_BELOW_MIN", 1, None),
        ("INVALID_CARD", 1, 1),
        ("INVALID_CARD", 1, 3),
        ("CUT_CARD_OVERRUN", 2, None),
        ("SETTLEMENT_MISSING", 2, None),
    ]
    assert rep["rounds"][0] == {"number": 1, "replayed": False, "dealer": None, "hands": [], "insurance": []}
    assert only(rep, "CUT_CARD_OVERRUN")[0]["cards_out"] == 9


def test_shoe_checks_and_round_numbering() -> None:
    rds = [
        make_round({1: [("P1", "10.00")]}, ["TC", "7D", "TH", "TD"], {1: ["stand"]}, number=n)
        for n in (1, 3, 3)
    ]
    rep = replay(make_log(rds, decks=5, burned=4, cut_card_after=240))
    got = [(d["code"], d["round"]) for d in rep["discrepancies"] if not d["code"].startswith("SETTLEMENT")]
    assert got == [
        ("DECK_COUNT", None),
        ("BURN_COUNT", None),
        ("CUT_CARD_TOO_DEEP", None),
        ("ROUND_NUMBERING", 3),
    ]
    assert only(rep, "ROUND_NUMBERING")[0]["expected"] == 2
    assert only(rep, "ROUND_NUMBERING")[0]["article"] == "FR art. 55-4 (shoe)"
    rds = [
        make_round({1: [("P1", "10.00")]}, ["TC", "7D", "TH", "TD"], {1: ["stand"]}, number=n)
        for n in (1, 2, 4, 5)
    ]
    assert len(only(replay(make_log(rds)), "ROUND_NUMBERING")) == 2


def test_settlement_rows() -> None:
    base = {"box": 1, "hand": 0, "player": "P1"}
    rd = make_round(
        {1: [("P1", "10.00")]},
        ["TC", "7D", "7H", "TD"],
        {1: ["stand"]},
        settlements=[
            {**base, "net": "0"},
            {**base, "net": "0.00"},
            {**base, "hand": 1, "net": "5"},
            {"box": 1, "player": "P1", "insurance_net": "-5.00"},
        ],
    )
    rep = one(rd)
    assert rep["rounds"][0]["hands"][0]["outcome"] == "push"
    u = only(rep, "SETTLEMENT_UNKNOWN")
    assert [(d["hand"], d.get("duplicate")) for d in u] == [(0, True), (1, None), (None, None)]
    # a row for an insurance bet that does not exist: a payment owed nothing (1°), flagged
    assert u[2]["article"] == "FR art. 55-4 1°" and u[2]["insurance"] is True
    assert not only(rep, "SETTLEMENT_MISMATCH") and not only(rep, "SETTLEMENT_MISSING")
