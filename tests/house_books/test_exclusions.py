"""The fichier des exclus (LU art. 68, 69, 75): the acts, the refusals, the register, the inspection."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from audit.models import AuditEvent
from casino_ops.regulations import RegulationError
from house_books import services
from house_books.models import Exclusion
from inspection.registers import get_register
from inspection.registers.base import Request
from tests.support import builders
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()  # read once: a future day is two days on, still ahead after midnight


def _ago(days: int) -> dt.date:
    return TODAY - dt.timedelta(days=days)


def _minister(actor: Any, **kw: Any) -> Exclusion:
    return builders.ministerial_exclusion(actor, TODAY, **kw)


def _own(actor: Any, **kw: Any) -> Exclusion:
    values = {
        "kind": "refusal",
        "last_name": "Hoffmann",
        "first_names": "Sven",
        "birth_date": dt.date(1998, 9, 30),
        "decided_on": _ago(5),
        "reasons": "En état d'ivresse à l'entrée",
    }
    values.update(kw)
    return services.record_own_exclusion(actor=actor, **values)


def test_the_ministers_exclusion_and_its_radiation(lu_casino: Any, director: Any) -> None:
    exclusion = _minister(director)
    assert AuditEvent.objects.filter(action="house.exclusion_recorded").count() == 1
    services.lift_exclusion(actor=director, exclusion=exclusion, lifted_on=_ago(1), reference="MJ/EXCL/1/R")
    assert Exclusion.objects.get().lifted_on == _ago(1)
    assert AuditEvent.objects.filter(action="house.exclusion_lifted").count() == 1
    with pytest.raises(RegulationError) as refused:
        services.lift_exclusion(actor=director, exclusion=exclusion, lifted_on=TODAY, reference="x")
    assert (refused.value.code, refused.value.article) == ("EXCLUSION_ALREADY_LIFTED", "LU art. 68")


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"last_name": " "}, "last_name"),
        ({"birth_date": "1971"}, "birth_date"),
        ({"ground": "own"}, "ground"),
        ({"reference": ""}, "reference"),
        ({"director_notified_on": _ago(11)}, "director_notified_on"),
        ({"decided_on": TODAY + dt.timedelta(days=2)}, "decided_on"),
    ],
)
def test_bad_exclusions_refused_on_their_field(
    lu_casino: Any, director: Any, changes: dict, field: str
) -> None:
    with pytest.raises(RegulationError) as refused:
        _minister(director, **changes)
    assert (refused.value.field, refused.value.article) == (field, "LU art. 68")
    assert not Exclusion.objects.exists()
    assert not AuditEvent.objects.filter(action__startswith="house.exclusion").exists()


def test_own_exclusion_needs_its_reasons_and_is_notified_to_the_minister(
    lu_casino: Any, director: Any, committee: Any
) -> None:
    with pytest.raises(RegulationError) as refused:
        _own(committee, reasons="")
    assert (refused.value.code, refused.value.field, refused.value.article) == (
        "FIELD_REQUIRED",
        "reasons",
        "LU art. 69",
    )
    own = _own(committee)
    with pytest.raises(RegulationError) as refused:
        services.notify_own_exclusion(actor=director, exclusion=own, notified_on=_ago(6), reference="L/1")
    assert refused.value.field == "notified_on"
    services.notify_own_exclusion(actor=director, exclusion=own, notified_on=_ago(5), reference="L/1")
    assert Exclusion.objects.get().minister_notified_on == _ago(5)
    assert AuditEvent.objects.filter(action="house.exclusion_notified").count() == 1
    with pytest.raises(RegulationError) as refused:
        services.notify_own_exclusion(actor=director, exclusion=own, notified_on=_ago(4), reference="L/2")
    assert refused.value.code == "EXCLUSION_ALREADY_NOTIFIED"


def test_under_fr_an_internal_book(casino: Any, committee: Any) -> None:
    with pytest.raises(RegulationError) as refused:
        _own(committee, kind="banned")
    assert (refused.value.field, refused.value.article) == ("kind", "règlement intérieur du casino")


def test_inspection_flags_an_own_exclusion_not_notified_at_once(
    lu_casino: Any, director: Any, committee: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    own = _own(committee, decided_on=_ago(5))
    _own(committee, last_name="Jung", decided_on=TODAY)  # still within the delay
    found = breaches_of("house.exclusion_not_notified")
    assert len(found) == 1 and found[0].article == "LU art. 69" and "HOFFMANN" in found[0].object
    with pytest.raises(SystemExit) as exit_info:
        call_command("inspect_books")
    assert exit_info.value.code == 1
    assert "HOFFMANN" in capsys.readouterr().out
    services.notify_own_exclusion(actor=director, exclusion=own, notified_on=_ago(2), reference="L/1")
    late = breaches_of("house.exclusion_not_notified")
    assert len(late) == 1  # notified, but three days late: still flagged
    on_time = _own(committee, last_name="Weis", decided_on=_ago(3))
    services.notify_own_exclusion(actor=director, exclusion=on_time, notified_on=_ago(2), reference="L/3")
    assert [b.object for b in breaches_of("house.exclusion_not_notified")] == [late[0].object]


def test_register_api_and_admin(
    lu_casino: Any, director: Any, committee: Any, officer: Any, client: Any
) -> None:
    _minister(director)
    _own(committee)
    context = get_register("exclusions").context(Request(_ago(30), TODAY))
    rows = context["sections"][0]["rows"]
    assert len(rows) == 2 and "KIEFFER Marc" in [c[0] for c in rows[0]["cells"]]
    client.force_login(officer)
    body = json.loads(client.get("/api/house/exclusions/").content)
    listed = body["results"] if isinstance(body, dict) else body
    assert [r["last_name"] for r in listed] == ["Kieffer", "Hoffmann"]
    assert client.post("/api/house/exclusions/", {}).status_code == 403
    page = client.get("/inspection/registres/exclusions/")
    assert page.status_code == 200 and "KIEFFER" in page.content.decode()
    client.force_login(director)
    form = {
        "last_name": "Thill",
        "first_names": "Georges",
        "birth_date": "1962-06-08",
        "ground": "disorder",
        "decided_on": _ago(3).isoformat(),
        "reference": "MJ/EXCL/9",
        "director_notified_on": _ago(4).isoformat(),
    }
    response = client.post("/admin/house_books/exclusion/add/", form)
    assert response.status_code == 200 and "LU art. 68" in response.content.decode(), re.findall(
        r"errorlist[^>]*>(.*?)</ul", response.content.decode(), re.S
    )
    response = client.post(
        "/admin/house_books/exclusion/add/", {**form, "director_notified_on": _ago(2).isoformat()}
    )
    assert response.status_code == 302
    assert Exclusion.objects.filter(last_name="Thill").exists()
    own = Exclusion.objects.get(last_name="Hoffmann")
    page = client.get("/admin/house_books/exclusionnoticeentry/add/")
    assert page.status_code == 200 and "HOFFMANN" in page.content.decode()
    response = client.post(
        "/admin/house_books/exclusionnoticeentry/add/",
        {"exclusion": own.pk, "notified_on": _ago(5).isoformat(), "reference": "L/7"},
    )
    assert response.status_code == 302
    assert Exclusion.objects.get(pk=own.pk).notice_reference == "L/7"


def test_fr_inspection_flags_an_own_refusal_not_notified_at_once(casino: Any, committee: Any) -> None:
    _own(committee, decided_on=_ago(5))
    found = breaches_of("house.exclusion_not_notified")
    assert len(found) == 1 and found[0].article == "règlement intérieur du casino"
    assert "HOFFMANN" in found[0].object and _ago(5).strftime("%d/%m/%Y") in found[0].object
