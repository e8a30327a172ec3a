"""One way to write a day, a moment and an amount per language (casino_ops.dates): French
02/12/2026 01:30 and 30 000,00; English as the English locale writes them, 12/02/2026 01:30
and 30,000.00. The printed registers are French whatever the reader's language."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import formats, translation

from casino_ops import dates

MOMENT = dt.datetime(2026, 12, 2, 0, 30, tzinfo=dt.UTC)  # 01:30 in Paris


@pytest.mark.parametrize(
    ("language", "day", "moment", "amount", "negative"),
    [
        ("fr", "02/12/2026", "02/12/2026 01:30", "30\u202f000,00", "-1\u202f234,50"),
        ("en", "12/02/2026", "12/02/2026 01:30", "30,000.00", "-1,234.50"),
    ],
)
def test_one_format_per_language(language: str, day: str, moment: str, amount: str, negative: str) -> None:
    with translation.override(language):
        assert dates.day(dt.date(2026, 12, 2)) == day
        assert dates.day(MOMENT) == day  # a moment's day is its local day
        assert dates.moment(MOMENT) == moment
        assert dates.moment(MOMENT, seconds=True) == f"{moment}:00"
        assert dates.amount(Decimal("30000")) == amount
        assert dates.amount("30000.00") == amount  # as a hand log or an event's payload writes it
        assert dates.amount(Decimal("-1234.5")) == negative
        assert dates.amount(Decimal("0.005")) == ("0,00" if language == "fr" else "0.00")
        assert dates.amount(None) == dates.day(None) == dates.moment(None) == ""
        assert dates.amount("n/a") == "n/a"


@pytest.mark.parametrize(("language", "expected"), [("fr", "02/12/2026 01:30"), ("en", "12/02/2026 01:30")])
def test_django_formats_follow_the_same_format(language: str, expected: str) -> None:
    """The admin writes dates through Django's formats: the same short form, not "2 décembre 2026"
    or "Dec. 2, 2026, 1:30 a.m."."""
    with translation.override(language):
        assert formats.date_format(dt.date(2026, 12, 2)) == expected[:10]
        assert formats.date_format(
            MOMENT.astimezone(dt.timezone(dt.timedelta(hours=1))), "DATETIME_FORMAT"
        ) == (expected)
        rendered = Template("{{ d }}|{{ m }}").render(Context({"d": dt.date(2026, 12, 2), "m": MOMENT}))
        assert rendered == f"{expected[:10]}|{expected}"


def test_the_registers_amount_is_the_french_one_whatever_the_language() -> None:
    from inspection.registers import fmt

    with translation.override("en"):
        on_screen = fmt.amount(Decimal("30000"))
    with translation.override("fr"):
        printed = fmt.amount(Decimal("30000"))
    assert on_screen == "30,000.00"
    assert printed == "30\u202f000,00"  # the register's own text, printed in French (FR art. 68)


@pytest.mark.parametrize(("language", "expected"), [("fr", "1\u202f000,00"), ("en", "1,000.00")])
def test_the_admins_key_value_lists_write_amounts_and_days_in_the_same_format(
    language: str, expected: str
) -> None:
    """A discrepancy's detail or an event's JSON in the admin: "1000.00" as the JSON keeps it,
    shown as every other amount of the page."""
    from casino_ops.admin_display import kv_list

    with translation.override(language):
        shown = str(kv_list({"log": {"min": "10.00", "max": "1000.00"}, "day": "2026-12-02", "n": 3}))
        day = dates.day(dt.date(2026, 12, 2))
    assert f"<dd>{expected}</dd>" in shown
    assert f"<dd>{day}</dd>" in shown
    assert "1000.00" not in shown and "2026-12-02" not in shown
