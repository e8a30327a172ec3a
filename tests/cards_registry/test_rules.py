"""The depot's pure checks (cards_registry.rules): plain values in, a refusal naming its field and article out.

No database: these run without the ``django_db`` mark.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest

from cards_registry import rules
from casino_ops.regulations import RegulationError

NOW = dt.datetime(2026, 3, 1, 21, 0, tzinfo=dt.UTC)


def _refused(code: str, article: str, field: str | None, fn: Any, /, *args: Any, **kwargs: Any) -> None:
    with pytest.raises(RegulationError) as info:
        fn(*args, **kwargs)
    assert (info.value.code, info.value.article, info.value.field) == (code, article, field), info.value


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
    _refused(
        "RECEPTION_EMPTY", "FR art. 39", "decks", rules.plan_reception, sixains=[], decks=[], profile="FR"
    )
    nameless = _six()
    nameless["serial"] = ""
    _refused(
        "SERIAL_REQUIRED",
        "LU art. 6",
        "sixains",
        rules.plan_reception,
        sixains=[nameless],
        decks=[],
        profile="LU",
    )
    no_deck_serial = _six()
    no_deck_serial["decks"][2]["serial"] = ""
    _refused(
        "SERIAL_REQUIRED",
        "FR art. 39",
        "decks",
        rules.plan_reception,
        sixains=[no_deck_serial],
        decks=[],
        profile="FR",
    )
    _refused(
        "SERIAL_REQUIRED", "FR art. 39", "decks", rules.plan_reception,
        sixains=[], decks=[{"serial": " ", "back_colour": "bleu"}], profile="FR",
    )  # fmt: skip
    _refused(
        "COLOUR_REQUIRED", "FR art. 39", "decks", rules.plan_reception,
        sixains=[], decks=[{"serial": "X-1", "back_colour": ""}], profile="FR",
    )  # fmt: skip
    _refused(
        "SIXAIN_COMPOSITION", "FR art. 55-4", "decks", rules.plan_reception,
        sixains=[_six(("bleu", "bleu"))], decks=[], profile="FR",
    )  # fmt: skip


def test_serials_new_and_the_most_sixains() -> None:
    ok = dict(
        maker_name="M", serials=["a", "b"], sixain_serials=["S"], known=[], known_sixains=[], profile="FR"
    )
    rules.check_serials_new(**ok)
    _refused(
        "SERIAL_ALREADY_KNOWN",
        "FR art. 39",
        "decks",
        rules.check_serials_new,
        **{**ok, "serials": ["a", "a"]},
    )
    _refused("SERIAL_ALREADY_KNOWN", "FR art. 39", "decks", rules.check_serials_new, **{**ok, "known": ["b"]})
    _refused(
        "SERIAL_ALREADY_KNOWN",
        "FR art. 39",
        "sixains",
        rules.check_serials_new,
        **{**ok, "known_sixains": ["S"]},
    )
    rules.check_max_sixains(limit=None, held=100, new=5, profile="LU")
    rules.check_max_sixains(limit=3, held=2, new=1, profile="LU")
    _refused(
        "MAX_SIXAINS", "LU art. 6", "sixains", rules.check_max_sixains, limit=3, held=2, new=2, profile="LU"
    )


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
    _refused(
        "MANUFACTURER_NOT_APPROVED",
        "FR art. 39",
        "manufacturer",
        rules.check_approved,
        maker,
        dt.date(2023, 1, 1),
        "FR",
    )
    line = {"quantity": 3, "unit": "deck", "back_colour": "bleu"}
    rules.check_order_lines([line], "FR")
    _refused("ORDER_EMPTY", "FR art. 39", "lines", rules.check_order_lines, [], "FR")
    _refused(
        "ORDER_QUANTITY", "FR art. 39", "lines", rules.check_order_lines, [{**line, "quantity": 0}], "FR"
    )
    _refused("ORDER_UNIT", "FR art. 39", "lines", rules.check_order_lines, [{**line, "unit": "box"}], "FR")
    _refused(
        "ORDER_COLOUR", "LU art. 6", "lines", rules.check_order_lines, [{**line, "back_colour": " "}], "LU"
    )
    order = SimpleNamespace(number=4, sent_at=None, manufacturer=maker)
    rules.check_order_sendable(order=order, stamped=True, approved_today=True, profile="FR")
    _refused(
        "ORDER_NOT_STAMPED",
        "FR art. 39",
        "order",
        rules.check_order_sendable,
        order=order,
        stamped=False,
        approved_today=True,
        profile="FR",
    )
    _refused(
        "MANUFACTURER_NOT_APPROVED",
        "FR art. 39",
        "order",
        rules.check_order_sendable,
        order=order,
        stamped=True,
        approved_today=False,
        profile="FR",
    )
    sent = SimpleNamespace(number=4, sent_at=NOW, manufacturer=maker)
    _refused(
        "ORDER_ALREADY_SENT",
        "FR art. 39",
        "order",
        rules.check_order_sendable,
        order=sent,
        stamped=True,
        approved_today=True,
        profile="FR",
    )


def test_table_rules() -> None:
    today = dt.date(2026, 3, 1)
    rules.check_issue(table_number=3, day=today - dt.timedelta(days=1), today=today, decks=[1], profile="FR")
    _refused(
        "TABLE_REQUIRED",
        "FR art. 40",
        "table_number",
        rules.check_issue,
        table_number=0,
        day=today,
        today=today,
        decks=[1],
        profile="FR",
    )
    _refused(
        "ISSUE_DAY",
        "LU art. 7",
        "day",
        rules.check_issue,
        table_number=3,
        day=today + dt.timedelta(days=1),
        today=today,
        decks=[1],
        profile="LU",
    )
    _refused(
        "ISSUE_EMPTY",
        "FR art. 40",
        "decks",
        rules.check_issue,
        table_number=3,
        day=today,
        today=today,
        decks=[],
        profile="FR",
    )
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
    _refused("WITNESS_REQUIRED", "FR art. 40", "witness", rules.check_table_check, **{**ok, "witness": " "})
    _refused(
        "BAND_NOT_INTACT", "FR art. 40", "band_intact", rules.check_table_check, **{**ok, "band_intact": None}
    )
    _refused(
        "VIDEO_REQUIRED",
        "FR art. 40",
        "video_reference",
        rules.check_table_check,
        **{**ok, "video_reference": ""},
    )
    _refused(
        "ORDER_NOT_CHECKED",
        "FR art. 40",
        "order_checked",
        rules.check_table_check,
        **{**ok, "order_checked": False},
    )
    _refused(
        "CARD_COUNT", "FR art. 40", "cards_counted", rules.check_table_check, **{**ok, "cards_counted": 51}
    )
    _refused(
        "RETURN_EMPTY",
        "FR art. 40",
        "results",
        rules.check_return,
        results=[],
        order_restored=True,
        profile="FR",
    )
    _refused(
        "ORDER_NOT_RESTORED",
        "FR art. 40",
        "order_restored",
        rules.check_return,
        results=[1],
        order_restored=False,
        profile="FR",
    )
    rules.check_return_result("fit", "FR")
    _refused("RETURN_RESULT", "FR art. 40", "results", rules.check_return_result, "quarantined", "FR")


def test_incident_destruction_and_correction_rules() -> None:
    _refused("INCIDENT_KIND", "FR art. 40", "kind", rules.check_incident_kind, "lost", "FR")
    officer = SimpleNamespace(get_username=lambda: "olivier")
    told = dict(officer_informed=officer, is_officer=True, officer_informed_at=NOW, profile="FR")
    rules.check_officer_told(**told)
    _refused(
        "OFFICER_NOT_TOLD",
        "FR art. 40",
        "officer_informed",
        rules.check_officer_told,
        **{**told, "officer_informed": None},
    )
    _refused(
        "OFFICER_NOT_TOLD",
        "FR art. 40",
        "officer_informed",
        rules.check_officer_told,
        **{**told, "is_officer": False},
    )
    _refused(
        "OFFICER_NOT_TOLD",
        "FR art. 40",
        "officer_informed_at",
        rules.check_officer_told,
        **{**told, "officer_informed_at": None},
    )
    facts = dict(
        occurred_at=NOW - dt.timedelta(minutes=2),
        officer_informed_at=NOW - dt.timedelta(minutes=1),
        now=NOW,
        circumstances="x",
        decks=[1],
        profile="FR",
    )
    rules.check_incident_facts(**facts)
    _refused(
        "INCIDENT_IN_FUTURE",
        "FR art. 40",
        "occurred_at",
        rules.check_incident_facts,
        **{**facts, "occurred_at": NOW + dt.timedelta(minutes=1)},
    )
    _refused(
        "OFFICER_TOLD_BEFORE",
        "FR art. 40",
        "officer_informed_at",
        rules.check_incident_facts,
        **{**facts, "officer_informed_at": NOW - dt.timedelta(minutes=3)},
    )
    _refused(
        "CIRCUMSTANCES_REQUIRED",
        "FR art. 40",
        "circumstances",
        rules.check_incident_facts,
        **{**facts, "circumstances": " "},
    )
    _refused("INCIDENT_DECKS", "FR art. 40", "decks", rules.check_incident_facts, **{**facts, "decks": []})
    closure = dict(closed=False, finding="Vu", fit_ids={1}, deck_ids={1, 2}, profile="FR")
    rules.check_closure(**closure)
    _refused("INCIDENT_CLOSED", "FR art. 40", "incident", rules.check_closure, **{**closure, "closed": True})
    _refused("FINDING_REQUIRED", "FR art. 40", "finding", rules.check_closure, **{**closure, "finding": ""})
    _refused(
        "DECK_NOT_IN_INCIDENT", "FR art. 40", "decks_fit", rules.check_closure, **{**closure, "fit_ids": {3}}
    )
    _refused(
        "DESTRUCTION_WITNESS",
        "FR art. 39",
        "officer",
        rules.check_destruction,
        witnessed=False,
        checks=[1],
        profile="FR",
    )
    _refused(
        "DESTRUCTION_EMPTY",
        "FR art. 39",
        "decks",
        rules.check_destruction,
        witnessed=True,
        checks=[],
        profile="FR",
    )
    _refused(
        "DECK_INCOMPLETE",
        "FR art. 39",
        "decks",
        rules.check_deck_complete,
        SimpleNamespace(serial="A-1"),
        False,
        "FR",
    )
    fields = ("received_on", "delivery_note")
    rules.check_correction(fields=fields, field="delivery_note", reason="Erreur", profile="FR")
    _refused(
        "CORRECTION_FIELD",
        "FR art. 68",
        "field",
        rules.check_correction,
        fields=fields,
        field="number",
        reason="r",
        profile="FR",
    )
    _refused(
        "CORRECTION_REASON",
        "",  # LU has no article of the map for a book's corrections (casino_ops.regulations)
        "reason",
        rules.check_correction,
        fields=fields,
        field="delivery_note",
        reason=" ",
        profile="LU",
    )
    _refused(
        "CORRECTION_SAME", "FR art. 68", "new_value", rules.check_correction_changes, "BL 1", " BL 1 ", "FR"
    )


def test_manufacturer_rules() -> None:
    ok = dict(
        code="G",
        name="N",
        approval_reference="R",
        ministry="M",
        valid_from=dt.date(2024, 1, 1),
        valid_until=None,
        profile="FR",
    )
    rules.check_manufacturer(**ok)
    _refused(
        "FIELD_REQUIRED",
        "FR art. 39",
        "approval_reference",
        rules.check_manufacturer,
        **{**ok, "approval_reference": " "},
    )
    _refused("FIELD_REQUIRED", "FR art. 39", "ministry", rules.check_manufacturer, **{**ok, "ministry": ""})
    _refused(
        "APPROVAL_DATES",
        "FR art. 39",
        "valid_until",
        rules.check_manufacturer,
        **{**ok, "valid_until": dt.date(2023, 1, 1)},
    )
