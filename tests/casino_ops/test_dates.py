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


@pytest.mark.parametrize(
    ("language", "shown", "typed"), [("fr", "02/12/2026", "03/12/2026"), ("en", "12/02/2026", "12/03/2026")]
)
def test_a_date_field_shows_and_reads_the_languages_format(language: str, shown: str, typed: str) -> None:
    """The admin's date fields (and its calendar, which takes the first input format) show a day
    as every page of the language writes it, never ISO, and read it back the same way; ISO is
    still read (the portal's date inputs send it)."""
    from django import forms
    from django.contrib.admin.widgets import AdminDateWidget, AdminSplitDateTime

    class Form(forms.Form):
        day = forms.DateField(widget=AdminDateWidget)
        at = forms.SplitDateTimeField(widget=AdminSplitDateTime)

    with translation.override(language):
        page = str(Form(initial={"day": dt.date(2026, 12, 2), "at": dt.datetime(2026, 12, 2, 1, 30)}))
        assert f'value="{shown}"' in page and "2026-12-02" not in page
        assert formats.get_format("DATE_INPUT_FORMATS")[0] == formats.get_format("SHORT_DATE_FORMAT").replace(
            "d", "%d"
        ).replace("m", "%m").replace("Y", "%Y")
        form = Form({"day": typed, "at_0": typed, "at_1": "01:30"})
        assert form.is_valid(), form.errors
        assert form.cleaned_data["day"] == dt.date(2026, 12, 3)
        assert Form({"day": "2026-12-03", "at_0": "2026-12-03", "at_1": "01:30"}).is_valid()


#: The code may not write a day in a fixed format: the line of the printed register that says
#: when it was printed (French whatever the language, FR art. 68) and a command's own output.
FIXED_FORMAT_ALLOWED = {
    "inspection/registers/render.py": "the printed register's footer, French by law",
    "cards_registry/management/commands/deck_history.py": "a command's output, in French",
}


def test_no_day_is_written_in_a_fixed_format() -> None:
    """A day or moment in a message or a label goes through casino_ops.dates (or Django's
    formats), so that an English page never shows "04/12/2026" for the 4th of December beside
    "12/03/2026" for the 3rd."""
    import re
    from pathlib import Path

    from django.conf import settings

    root = Path(settings.BASE_DIR)
    fixed = re.compile(r"%d/%m/%Y|%d\.%m\.%Y|%m/%d/%Y")
    found = []
    for app in ("audit", "cards_registry", "casino_ops", "house_books", "inspection", "tables"):
        for path in (root / app).rglob("*.py"):
            where = str(path.relative_to(root))
            if "migrations" in path.parts or "formats" in path.parts or where in FIXED_FORMAT_ALLOWED:
                continue
            found += [
                f"{where}:{n}"
                for n, line in enumerate(path.read_text().splitlines(), 1)
                if fixed.search(line)
            ]
    assert found == []


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("fr", "au moins 3 000 fois le minimum des mises : 60\u202f000,00."),
        ("en", "at least 3,000 times the minimum stake: 60,000.00."),
    ],
)
def test_a_refusal_writes_its_amount_in_the_languages_format(language: str, expected: str) -> None:
    from tables.rules.advances import check_advance
    from tests.support.builders import assert_refused

    with translation.override(language), assert_refused("ADVANCE_TOO_SMALL", article="FR art. 49") as refusal:
        check_advance(
            profile="FR",
            minimum=Decimal("20"),
            advance=Decimal("100"),
            same_day_advance=None,
            year_minimum=None,
            year_advance=None,
        )
    assert refusal.value.message.endswith(expected), refusal.value.message
    assert "60000" not in refusal.value.message


@pytest.mark.parametrize(
    ("language", "expected"),
    [("fr", "(01/12/2026), pas pour le 30/11/2026"), ("en", "(12/01/2026), not for 11/30/2026")],
)
def test_a_refusal_writes_its_days_in_the_languages_format(language: str, expected: str) -> None:
    from tables.rules.limits import check_gaming_day
    from tests.support.builders import assert_refused

    with translation.override(language), assert_refused("SESSION_NOT_TODAY", field="day") as refusal:
        check_gaming_day(profile="FR", day=dt.date(2026, 11, 30), current=dt.date(2026, 12, 1))
    assert expected in refusal.value.message, refusal.value.message
