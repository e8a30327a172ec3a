"""Times are the system's, not typed (FR art. 68; LU art. 10), for the notices of the fichier des
exclus: the day the director says he was told of the minister's decision (LU art. 68) and the day
he says the casino's own measure was notified to the minister (LU art. 69) are kept beside the
moment the system recorded them, shown side by side on the admin and the register, and a declared
day earlier than the recording by more than the allowed delay is named by inspect_books."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from house_books import selectors, services
from house_books.services.exclusions import NOTICE_RECORDING_DAYS
from inspection.registers import get_register
from inspection.registers.base import Request
from tests.support.builders import gaming_day
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db

CHECK = "house.exclusion_notice_recorded_late"


def _ago(days: int) -> dt.date:
    return gaming_day() - dt.timedelta(days=days)


def _named() -> list[Any]:
    return breaches_of(CHECK)


def _ministerial(director: Any, notified: dt.date) -> Any:
    return services.record_ministerial_exclusion(
        actor=director,
        last_name="Kieffer",
        first_names="Marc",
        birth_date=dt.date(1971, 4, 2),
        ground="request",
        decided_on=notified - dt.timedelta(days=2),
        reference="MJ/EXCL/1",
        director_notified_on=notified,
    )


def _own(committee: Any, decided: dt.date) -> Any:
    return services.record_own_exclusion(
        actor=committee,
        kind="refusal",
        last_name="Hoffmann",
        first_names="Sven",
        birth_date=dt.date(1998, 9, 30),
        decided_on=decided,
        reasons="En état d'ivresse à l'entrée",
    )


def test_a_ministers_decision_recorded_on_the_day_it_is_told_is_no_breach(
    lu_casino: Any, director: Any
) -> None:
    exclusion = _ministerial(director, _ago(0))
    assert _named() == []
    [notice] = selectors.exclusion_notices()
    assert notice.exclusion == exclusion and notice.declared == _ago(0) and notice.gap_days == 0


def test_a_ministers_decision_said_told_long_before_it_is_recorded_is_named(
    lu_casino: Any, director: Any
) -> None:
    _ministerial(director, _ago(NOTICE_RECORDING_DAYS + 5))
    [breach] = _named()
    assert breach.check == "house.exclusion_notice_recorded_late"
    assert breach.article == "LU art. 68"
    assert f"déclarée le {_ago(NOTICE_RECORDING_DAYS + 5):%d/%m/%Y}" in breach.detail
    assert "inscrite le" in breach.detail and "KIEFFER Marc" in breach.object


def test_the_notice_to_the_minister_keeps_its_declared_day_beside_its_recording(
    lu_casino: Any, director: Any, committee: Any
) -> None:
    decided = _ago(1)
    exclusion = _own(committee, decided)
    # the director records, three days later, a notice he says he gave the day of the decision
    later = timezone.now() + dt.timedelta(days=3)
    with time_machine.travel(later, tick=True):
        services.notify_own_exclusion(
            actor=director, exclusion=exclusion, notified_on=decided, reference="L-1"
        )
        [notice] = [n for n in selectors.exclusion_notices() if n.kind == "minister_notice"]
        assert notice.declared == decided and notice.gap_days >= 3
        assert notice.recorded_at >= later - dt.timedelta(minutes=1)  # the system's time, not typed
        [breach] = _named()
        assert breach.article == "LU art. 69" and f"déclaré le {decided:%d/%m/%Y}" in breach.detail
        # the register shows both
        text = get_register("exclusions").context(Request(date_from=_ago(5), date_to=_ago(-5)))
        assert f"inscrit le {timezone.localtime(notice.recorded_at):%d/%m/%Y}" in str(text)


def test_the_admin_shows_the_recording_beside_the_declared_day(
    lu_casino: Any, director: Any, client: Any
) -> None:
    from django.urls import reverse

    exclusion = _ministerial(director, _ago(0))
    client.force_login(director)
    page = client.get(reverse("admin:house_books_exclusion_change", args=[exclusion.pk])).content.decode()
    recorded = timezone.localtime(exclusion.recorded_at)
    assert f"déclarée le {_ago(0):%d/%m/%Y}, inscrite le {recorded:%d/%m/%Y %H:%M}" in page


def test_fr_a_ministers_decision_said_told_long_before_it_is_recorded_is_named(
    casino: Any, director: Any
) -> None:
    _ministerial(director, _ago(NOTICE_RECORDING_DAYS + 5))
    [breach] = _named()
    assert breach.check == "house.exclusion_notice_recorded_late"
    assert breach.article == "règlement intérieur du casino"
    assert f"déclarée le {_ago(NOTICE_RECORDING_DAYS + 5):%d/%m/%Y}" in breach.detail
    assert "KIEFFER Marc" in breach.object
