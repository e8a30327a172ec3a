"""Absurd input in the tables' admin forms: refused on the field, never a 500, nothing written."""

from __future__ import annotations

import pytest

from tables.models import AdvanceEntry, MaximumChange, Session, Shoe
from tests.support.refusals import assert_refused

from .conftest import DAY, at_day


def _open_data(the_table, staff, **extra):
    return {
        "table": the_table.pk,
        "day": DAY.isoformat(),
        "minimum": "10.00",
        "maximum": "1000.00",
        "advance_amount": "30000.00",
        "croupier": staff["croupier"].pk,
        **extra,
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("day", "9999-12-31"),
        ("day", "0001-01-01"),
        ("minimum", "١٠"),
        ("advance_amount", "٣٠٠٠٠"),
        ("advance_amount", "３００００"),
        ("minimum", "1" * 13),
        ("maximum", "1e400"),
        ("ministry_notice", "abc"),
        ("croupier", "1\x00"),
        ("table", str(2**70)),
    ],
)
def test_an_absurd_session_opening_is_refused_on_its_field(director_client, table, staff, field, value):
    with at_day(DAY):  # the séance of the tests' fixed day, opened on that day
        assert_refused(
            None,
            field=field,
            response=director_client.post(
                "/admin/tables/session/add/", _open_data(table, staff, **{field: value})
            ),
        )
        assert not Session.objects.exists()
        assert director_client.post("/admin/tables/session/add/", _open_data(table, staff)).status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("act", "data", "field"),
    [
        ("advance", {"amount": "٣٠٠٠٠"}, "amount"),
        ("advance", {"amount": "9" * 20}, "amount"),
        ("maximum", {"maximum": "١٠٠٠"}, "maximum"),
        ("close", {"closing_cash": "٣١٠٠٠", "certified_exact": "on"}, "closing_cash"),
        ("shoe", {"label": "L" * 300}, "label"),
        ("shoe", {"label": "sabot\x00"}, "label"),
    ],
)
def test_an_absurd_session_act_is_refused_on_its_field(
    director_client, open_session, staff, act, data, field
):
    before = (AdvanceEntry.objects.count(), MaximumChange.objects.count(), Shoe.objects.count())
    response = director_client.post(
        f"/admin/tables/session/{open_session.pk}/act/{act}/", {"counted_by": staff["croupier"].pk, **data}
    )
    assert_refused(None, field=field, response=response)
    assert (AdvanceEntry.objects.count(), MaximumChange.objects.count(), Shoe.objects.count()) == before


@pytest.mark.django_db
def test_a_shoe_is_filled_by_choosing_decks_by_serial(director_client, today_session, depot_decks, staff):
    from tests.support.depot_helpers import issue_and_check

    issue_and_check(
        director=staff["director"],
        croupier=staff["croupier"],
        table_number=3,
        day=today_session.day,
        decks=depot_decks[:6],
    )
    url = f"/admin/tables/session/{today_session.pk}/act/shoe/"
    page = director_client.get(url).content.decode()
    assert "A1-1" in page and "SA1" in page and "A2-1" not in page  # only the decks issued to the table
    stranger = depot_decks[7]
    refused = director_client.post(url, {"decks": [d.pk for d in depot_decks[:5]] + [stranger.pk]})
    assert_refused(None, field="decks", response=refused)
    assert str(stranger.pk) not in " ".join(refused.context["form"].errors["decks"])
    assert not Shoe.objects.exists()
    response = director_client.post(url, {"decks": [d.pk for d in depot_decks[:6]]})
    assert response.status_code == 302
    assert sorted(Shoe.objects.get().decks.values_list("serial", flat=True)) == [
        f"A1-{i}" for i in range(1, 7)
    ]
