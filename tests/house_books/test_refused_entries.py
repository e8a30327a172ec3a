"""The entries refused at the door of the gaming rooms (LU art. 67, 75): each one is linked
to the exclusion it enforces, in force that day and naming the same person."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from house_books import services
from house_books.models import Exclusion, RefusedEntry
from inspection.registers import get_register
from inspection.registers.base import Request
from tests.support import builders
from tests.support.builders import assert_refused

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


def _ago(days: int) -> dt.date:
    return TODAY - dt.timedelta(days=days)


def _at(day: dt.date, hour: int = 21) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour)))


def _exclusion(actor: Any, **kw: Any) -> Exclusion:
    return builders.ministerial_exclusion(actor, TODAY, **kw)


def _refuse(actor: Any, exclusion: Exclusion, **kw: Any) -> RefusedEntry:
    values = {
        "exclusion": exclusion,
        "refused_at": _at(_ago(2)),
        "last_name": "KIEFFER",
        "first_names": "Marc",
        "birth_date": dt.date(1971, 4, 2),
        "physionomiste": "Paul Weber",
    }
    values.update(kw)
    return services.record_refused_entry(actor=actor, **values)


def test_a_refused_entry_is_linked_to_its_exclusion(lu_casino: Any, director: Any) -> None:
    exclusion = _exclusion(director)
    entry = _refuse(director, exclusion, remark="carte d'identité présentée")
    assert entry.exclusion == exclusion and entry.recorded_by == director
    assert list(exclusion.refused_entries.all()) == [entry]
    event = AuditEvent.objects.get(action="house.entry_refused")
    payload = json.loads(event.payload)
    assert (payload["exclusion"], payload["physionomiste"]) == (exclusion.pk, "Paul Weber")


@pytest.mark.parametrize(
    ("refused_on", "lifted_days_ago"),
    [(11, None), (2, 3), (3, 3)],
    ids=["before-the-decision", "after-the-radiation", "the-day-of-the-radiation"],
)
def test_refused_under_an_exclusion_not_in_force_that_day(
    lu_casino: Any, director: Any, refused_on: int, lifted_days_ago: int | None
) -> None:
    exclusion = _exclusion(director)
    if lifted_days_ago is not None:
        services.lift_exclusion(
            actor=director, exclusion=exclusion, lifted_on=_ago(lifted_days_ago), reference="MJ/R/1"
        )
    with assert_refused(
        "REFUSED_ENTRY_EXCLUSION_NOT_IN_FORCE",
        article="LU art. 67, 75",
        field="exclusion",
        nothing_recorded=True,
    ):
        _refuse(director, exclusion, refused_at=_at(_ago(refused_on)))
    assert not RefusedEntry.objects.exists()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"last_name": "Kiefer"}, "last_name"),
        ({"first_names": "Marco"}, "first_names"),
        ({"birth_date": dt.date(1971, 4, 3)}, "birth_date"),
    ],
)
def test_refused_naming_another_person(lu_casino: Any, director: Any, changes: dict, field: str) -> None:
    exclusion = _exclusion(director)
    with assert_refused(
        "REFUSED_ENTRY_OTHER_PERSON", article="LU art. 67, 75", field=field, nothing_recorded=True
    ):
        _refuse(director, exclusion, **changes)


@pytest.mark.parametrize(
    ("changes", "code", "field"),
    [
        ({"physionomiste": " "}, "FIELD_REQUIRED", "physionomiste"),
        ({"refused_at": _at(TODAY + dt.timedelta(days=2))}, "DATE_IN_FUTURE", "refused_at"),
        ({"refused_at": "hier"}, "FIELD_INVALID", "refused_at"),
    ],
)
def test_bad_input_refused_on_its_field(
    lu_casino: Any, director: Any, changes: dict, code: str, field: str
) -> None:
    exclusion = _exclusion(director)
    with assert_refused(code, article="LU art. 67, 75", field=field, nothing_recorded=True):
        _refuse(director, exclusion, **changes)


def test_only_the_management_records_it(lu_casino: Any, director: Any, users: dict[str, Any]) -> None:
    from casino_ops import roles

    exclusion = _exclusion(director)
    with assert_refused("ROLE_REQUIRED", article="LU art. 67, 75", nothing_recorded=True):
        _refuse(users[roles.CROUPIER], exclusion)


def test_under_fr_the_casinos_own_rules(casino: Any, director: Any) -> None:
    exclusion = _exclusion(director)
    with assert_refused("REFUSED_ENTRY_OTHER_PERSON", article="règlement intérieur du casino"):
        _refuse(director, exclusion, last_name="Thill")
    assert _refuse(director, exclusion).exclusion == exclusion


def test_register_api_and_admin(lu_casino: Any, director: Any, officer: Any, client: Any) -> None:
    exclusion = _exclusion(director)
    _exclusion(director, last_name="Thill", first_names="Georges", reference="MJ/EXCL/2")
    _refuse(director, exclusion)
    context = get_register("exclusions").context(Request(_ago(30), TODAY))
    refused = context["sections"][1]
    assert [[c[0] for c in r["cells"]][:2] for r in refused["rows"]] == [
        [f"KIEFFER Marc — {_ago(10):%d/%m/%Y} — MJ/EXCL/1", f"{_ago(2):%d/%m/%Y} 21:00"]
    ]
    client.force_login(officer)
    body = json.loads(client.get("/api/house/exclusions/refused-entries/").content)
    listed = body["results"] if isinstance(body, dict) else body
    assert [(r["exclusion"], r["last_name"], r["physionomiste"]) for r in listed] == [
        (exclusion.pk, "KIEFFER", "Paul Weber")
    ]
    assert client.post("/api/house/exclusions/refused-entries/", {}).status_code == 403
    client.force_login(director)
    page = client.get("/admin/house_books/refusedentry/add/")
    assert page.status_code == 200 and "KIEFFER" in page.content.decode()
    form = {
        "exclusion": exclusion.pk,
        "refused_at": f"{_ago(1).isoformat()} 22:15",
        "last_name": "Kieffer",
        "first_names": "Marc",
        "birth_date": "1970-04-02",
        "physionomiste": "Paul Weber",
        "remark": "",
    }
    response = client.post("/admin/house_books/refusedentry/add/", form)
    body_text = response.content.decode()
    assert response.status_code == 200 and "LU art. 67, 75" in body_text, re.findall(
        r"errorlist[^>]*>(.*?)</ul", body_text, re.S
    )
    response = client.post("/admin/house_books/refusedentry/add/", {**form, "birth_date": "1971-04-02"})
    assert response.status_code == 302
    assert exclusion.refused_entries.count() == 2
    page = client.get(f"/admin/house_books/exclusion/{exclusion.pk}/change/")
    assert page.status_code == 200 and "Paul Weber" in page.content.decode()
