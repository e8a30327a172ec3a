"""The depot's pure checks (cards_registry.rules): plain values in, a refusal naming its field and article out.

No database: these run without the ``django_db`` mark.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from types import SimpleNamespace
from typing import Any

from cards_registry import rules
from tests.support.builders import assert_refused

NOW = dt.datetime(2026, 3, 1, 21, 0, tzinfo=dt.UTC)


def _six(colours: tuple[str, str] = ("bleu", "rouge"), prefix: str = "A") -> dict[str, Any]:
    return {
        "serial": f"S{prefix}",
        "decks": [{"serial": f"{prefix}-{i}", "back_colour": colours[i > 3]} for i in range(1, 7)],
    }


def test_plan_reception_names_every_deck() -> None:
    planned, sixains = rules.plan_reception(
        sixains=[_six()], decks=[{"serial": " X-1 ", "back_colour": " vert "}], profile="FR"
    )
    assert sixains == ["SA"]
    assert planned[0] == (0, "A-1", "bleu") and planned[-1] == (None, "X-1", "vert")
    lu = {"serial": "LU-1", "decks": [{"back_colour": "bleu"}] * 3 + [{"back_colour": "rouge"}] * 3}
    planned, _ = rules.plan_reception(sixains=[lu], decks=[], profile="LU")
    assert [serial for _s, serial, _c in planned] == [f"LU-1-{i}" for i in range(1, 7)]


def test_plan_reception_refusals() -> None:
    with assert_refused("RECEPTION_EMPTY", article="FR art. 39", field="decks"):
        rules.plan_reception(sixains=[], decks=[], profile="FR")
    nameless = _six()
    nameless["serial"] = ""
    with assert_refused("SERIAL_REQUIRED", article="LU art. 6", field="sixains"):
        rules.plan_reception(sixains=[nameless], decks=[], profile="LU")
    no_deck_serial = _six()
    no_deck_serial["decks"][2]["serial"] = ""
    with assert_refused("SERIAL_REQUIRED", article="FR art. 39", field="decks"):
        rules.plan_reception(sixains=[no_deck_serial], decks=[], profile="FR")
    with assert_refused("SERIAL_REQUIRED", article="FR art. 39", field="decks"):
        rules.plan_reception(sixains=[], decks=[{"serial": " ", "back_colour": "bleu"}], profile="FR")  # fmt: skip
    with assert_refused("COLOUR_REQUIRED", article="FR art. 39", field="decks"):
        rules.plan_reception(sixains=[], decks=[{"serial": "X-1", "back_colour": ""}], profile="FR")  # fmt: skip
    with assert_refused("SIXAIN_COMPOSITION", article="FR art. 55-4", field="decks"):
        rules.plan_reception(sixains=[_six(("bleu", "bleu"))], decks=[], profile="FR")  # fmt: skip


def test_serials_new_and_the_most_sixains() -> None:
    ok = dict(
        maker_name="M", serials=["a", "b"], sixain_serials=["S"], known=[], known_sixains=[], profile="FR"
    )
    rules.check_serials_new(**ok)
    with assert_refused("SERIAL_ALREADY_KNOWN", article="FR art. 39", field="decks"):
        rules.check_serials_new(**{**ok, "serials": ["a", "a"]})
    with assert_refused("SERIAL_ALREADY_KNOWN", article="FR art. 39", field="decks"):
        rules.check_serials_new(**{**ok, "known": ["b"]})
    with assert_refused("SERIAL_ALREADY_KNOWN", article="FR art. 39", field="sixains"):
        rules.check_serials_new(**{**ok, "known_sixains": ["S"]})
    rules.check_max_sixains(limit=None, held=100, new=5, profile="LU")
    rules.check_max_sixains(limit=3, held=2, new=1, profile="LU")
    with assert_refused("MAX_SIXAINS", article="LU art. 6", field="sixains"):
        rules.check_max_sixains(limit=3, held=2, new=2, profile="LU")


def test_over_delivery_by_colour() -> None:
    planned = [(None, "1", "Bleu"), (None, "2", "bleu"), (None, "3", "rouge")]
    assert rules.over_delivery(ordered=Counter(bleu=1, rouge=3), already=Counter(), planned=planned) == {
        "bleu": 1
    }
    assert rules.over_delivery(ordered=Counter(bleu=2), already=Counter(bleu=2), planned=planned[:1]) == {
        "bleu": 1
    }


def test_order_rules() -> None:
    maker = SimpleNamespace(name="M", approved_on=lambda day: day >= dt.date(2024, 1, 1))
    rules.check_approved(maker, dt.date(2024, 1, 1), "FR")
    with assert_refused("MANUFACTURER_NOT_APPROVED", article="FR art. 39", field="manufacturer"):
        rules.check_approved(maker, dt.date(2023, 1, 1), "FR")
    line = {"quantity": 3, "unit": "deck", "back_colour": "bleu"}
    rules.check_order_lines([line], "FR")
    with assert_refused("ORDER_EMPTY", article="FR art. 39", field="lines"):
        rules.check_order_lines([], "FR")
    with assert_refused("ORDER_QUANTITY", article="FR art. 39", field="lines"):
        rules.check_order_lines([{**line, "quantity": 0}], "FR")
    with assert_refused("ORDER_UNIT", article="FR art. 39", field="lines"):
        rules.check_order_lines([{**line, "unit": "box"}], "FR")
    with assert_refused("ORDER_COLOUR", article="LU art. 6", field="lines"):
        rules.check_order_lines([{**line, "back_colour": " "}], "LU")
    order = SimpleNamespace(number=4, sent_at=None, manufacturer=maker)
    rules.check_order_sendable(order=order, stamped=True, approved_today=True, profile="FR")
    with assert_refused("ORDER_NOT_STAMPED", article="FR art. 39", field="order"):
        rules.check_order_sendable(order=order, stamped=False, approved_today=True, profile="FR")
    with assert_refused("MANUFACTURER_NOT_APPROVED", article="FR art. 39", field="order"):
        rules.check_order_sendable(order=order, stamped=True, approved_today=False, profile="FR")
    sent = SimpleNamespace(number=4, sent_at=NOW, manufacturer=maker)
    with assert_refused("ORDER_ALREADY_SENT", article="FR art. 39", field="order"):
        rules.check_order_sendable(order=sent, stamped=True, approved_today=True, profile="FR")


def test_table_rules() -> None:
    today = dt.date(2026, 3, 1)
    rules.check_issue(table_number=3, day=today - dt.timedelta(days=1), today=today, decks=[1], profile="FR")
    with assert_refused("TABLE_REQUIRED", article="FR art. 40", field="table_number"):
        rules.check_issue(table_number=0, day=today, today=today, decks=[1], profile="FR")
    with assert_refused("ISSUE_DAY", article="LU art. 7", field="day"):
        rules.check_issue(
            table_number=3, day=today + dt.timedelta(days=1), today=today, decks=[1], profile="LU"
        )
    with assert_refused("ISSUE_EMPTY", article="FR art. 40", field="decks"):
        rules.check_issue(table_number=3, day=today, today=today, decks=[], profile="FR")
    ok = dict(
        witness="Paul",
        new_deck=True,
        band_intact=True,
        video_reference="V1",
        order_checked=True,
        cards_counted=52,
        profile="FR",
    )
    rules.check_table_check(**ok)
    rules.check_table_check(**{**ok, "video_reference": "", "profile": "LU"})
    with assert_refused("WITNESS_REQUIRED", article="FR art. 40", field="witness"):
        rules.check_table_check(**{**ok, "witness": " "})
    with assert_refused("BAND_NOT_INTACT", article="FR art. 40", field="band_intact"):
        rules.check_table_check(**{**ok, "band_intact": None})
    with assert_refused("VIDEO_REQUIRED", article="FR art. 40", field="video_reference"):
        rules.check_table_check(**{**ok, "video_reference": ""})
    with assert_refused("ORDER_NOT_CHECKED", article="FR art. 40", field="order_checked"):
        rules.check_table_check(**{**ok, "order_checked": False})
    with assert_refused("CARD_COUNT", article="FR art. 40", field="cards_counted"):
        rules.check_table_check(**{**ok, "cards_counted": 51})
    with assert_refused("RETURN_EMPTY", article="FR art. 40", field="results"):
        rules.check_return(results=[], order_restored=True, profile="FR")
    with assert_refused("ORDER_NOT_RESTORED", article="FR art. 40", field="order_restored"):
        rules.check_return(results=[1], order_restored=False, profile="FR")
    rules.check_return_result("fit", "FR")
    with assert_refused("RETURN_RESULT", article="FR art. 40", field="results"):
        rules.check_return_result("quarantined", "FR")


def test_incident_destruction_and_correction_rules() -> None:
    with assert_refused("INCIDENT_KIND", article="FR art. 40", field="kind"):
        rules.check_incident_kind("lost", "FR")
    officer = SimpleNamespace(get_username=lambda: "olivier")
    told = dict(officer_informed=officer, is_officer=True, officer_informed_at=NOW, profile="FR")
    rules.check_officer_told(**told)
    with assert_refused("OFFICER_NOT_TOLD", article="FR art. 40", field="officer_informed"):
        rules.check_officer_told(**{**told, "officer_informed": None})
    with assert_refused("OFFICER_NOT_TOLD", article="FR art. 40", field="officer_informed"):
        rules.check_officer_told(**{**told, "is_officer": False})
    with assert_refused("OFFICER_NOT_TOLD", article="FR art. 40", field="officer_informed_at"):
        rules.check_officer_told(**{**told, "officer_informed_at": None})
    facts = dict(
        occurred_at=NOW - dt.timedelta(minutes=2),
        officer_informed_at=NOW - dt.timedelta(minutes=1),
        now=NOW,
        circumstances="x",
        decks=[1],
        profile="FR",
    )
    rules.check_incident_facts(**facts)
    with assert_refused("INCIDENT_IN_FUTURE", article="FR art. 40", field="occurred_at"):
        rules.check_incident_facts(**{**facts, "occurred_at": NOW + dt.timedelta(minutes=1)})
    with assert_refused("OFFICER_TOLD_BEFORE", article="FR art. 40", field="officer_informed_at"):
        rules.check_incident_facts(**{**facts, "officer_informed_at": NOW - dt.timedelta(minutes=3)})
    with assert_refused("CIRCUMSTANCES_REQUIRED", article="FR art. 40", field="circumstances"):
        rules.check_incident_facts(**{**facts, "circumstances": " "})
    with assert_refused("INCIDENT_DECKS", article="FR art. 40", field="decks"):
        rules.check_incident_facts(**{**facts, "decks": []})
    closure = dict(closed=False, finding="Vu", fit_ids={1}, deck_ids={1, 2}, profile="FR")
    rules.check_closure(**closure)
    with assert_refused("INCIDENT_CLOSED", article="FR art. 40", field="incident"):
        rules.check_closure(**{**closure, "closed": True})
    with assert_refused("FINDING_REQUIRED", article="FR art. 40", field="finding"):
        rules.check_closure(**{**closure, "finding": ""})
    with assert_refused("DECK_NOT_IN_INCIDENT", article="FR art. 40", field="decks_fit"):
        rules.check_closure(**{**closure, "fit_ids": {3}})
    with assert_refused("DESTRUCTION_WITNESS", article="FR art. 39", field="officer"):
        rules.check_destruction(witnessed=False, checks=[1], profile="FR")
    with assert_refused("DESTRUCTION_EMPTY", article="FR art. 39", field="decks"):
        rules.check_destruction(witnessed=True, checks=[], profile="FR")
    with assert_refused("DECK_INCOMPLETE", article="FR art. 39", field="decks"):
        rules.check_deck_complete(SimpleNamespace(serial="A-1"), False, "FR")
    fields = ("received_on", "delivery_note")
    rules.check_correction(fields=fields, field="delivery_note", reason="Erreur", profile="FR")
    with assert_refused("CORRECTION_FIELD", article="FR art. 68", field="field"):
        rules.check_correction(fields=fields, field="number", reason="r", profile="FR")
    with assert_refused("CORRECTION_REASON", article="LU art. 6", field="reason"):
        rules.check_correction(fields=fields, field="delivery_note", reason=" ", profile="LU")
    with assert_refused("CORRECTION_SAME", article="FR art. 68", field="new_value"):
        rules.check_correction_changes("BL 1", " BL 1 ", "FR")


def test_manufacturer_rules() -> None:
    ok = dict(
        code="G",
        name="N",
        approval_reference="R",
        ministry="Ministère de l'Intérieur",
        valid_from=dt.date(2024, 1, 1),
        valid_until=None,
        profile="FR",
    )
    rules.check_manufacturer(**ok)
    with assert_refused("FIELD_REQUIRED", article="FR art. 39", field="approval_reference"):
        rules.check_manufacturer(**{**ok, "approval_reference": " "})
    with assert_refused("FIELD_REQUIRED", article="FR art. 39", field="ministry"):
        rules.check_manufacturer(**{**ok, "ministry": ""})
    with assert_refused("APPROVAL_DATES", article="FR art. 39", field="valid_until"):
        rules.check_manufacturer(**{**ok, "valid_until": dt.date(2023, 1, 1)})
