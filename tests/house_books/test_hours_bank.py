"""Séance hours (LU art. 71), a bank failure (LU art. 11) and approvals (LU art. 51, 54, 63)
binding the tables' acts: recorded, refused with the article, cited as internal under FR."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from casino_ops.regulations import RegulationError
from house_books import services
from house_books.models import BankFailure, EarlyStop, SeanceHours
from house_books.services.bank import record_bank_failure, record_new_authorisation
from house_books.services.hours import notify_seance_hours, record_early_stop
from inspection.registers import get_register
from inspection.registers.base import Request
from tests.support.seance_hours import TODAY, D, close_seance_at, moment_on, notify_hours, open_seance_at
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db

INTERNAL = "règlement intérieur du casino"


def _approve(director: Any, *people: tuple[Any, str, str]) -> None:
    since = TODAY - dt.timedelta(days=100)
    for n, (person, function, job) in enumerate(people):
        services.record_approval(
            actor=director, person=person, function=function, job=job, approved_on=since, reference=f"MJ/{n}"
        )


# -- Hours --------------------------------------------------------------------------------------


def test_hours_notified_and_a_change_needs_24_hours_notice(lu_casino: Any, director: Any) -> None:
    hours = notify_hours(director)
    assert AuditEvent.objects.filter(action="house.hours_notified", object_id=str(hours.pk)).count() == 1
    now = timezone.now()
    with pytest.raises(RegulationError) as refused:
        notify_hours(
            director, notified_at=now - dt.timedelta(hours=1), effective_from=now + dt.timedelta(hours=20)
        )
    assert refused.value.code == "HOURS_NOTICE_TOO_SHORT" and refused.value.article == "LU art. 71"
    assert refused.value.field == "effective_from"
    assert SeanceHours.objects.count() == 1
    notify_hours(
        director,
        notified_at=now - dt.timedelta(hours=1),
        effective_from=now + dt.timedelta(hours=23, minutes=1),
    )
    assert SeanceHours.objects.count() == 2


def test_a_notice_is_never_back_dated(lu_casino: Any, director: Any, client: Any) -> None:
    """LU art. 71: the notice is written when it is given; hours already past are not changed."""
    now = timezone.now()
    values = {
        "weekday_start": dt.time(15),
        "holiday_start": dt.time(15),
        "closing": dt.time(3),
        "reference": "Avis MJ/MF 2026-09",
    }
    with pytest.raises(RegulationError) as refused:
        notify_seance_hours(
            actor=director,
            notified_at=now - dt.timedelta(days=3),
            effective_from=now + dt.timedelta(days=2),
            **values,
        )
    assert (refused.value.code, refused.value.field) == ("HOURS_NOTICE_BACKDATED", "notified_at")
    assert refused.value.article == "LU art. 71"
    with pytest.raises(RegulationError) as refused:
        notify_seance_hours(
            actor=director, notified_at=now, effective_from=now - dt.timedelta(hours=2), **values
        )
    assert (refused.value.code, refused.value.field) == ("HOURS_BACKDATED", "effective_from")
    client.force_login(director)
    form = {
        "weekday_start": "15:00",
        "holiday_start": "15:00",
        "closing": "03:00",
        "effective_from": f"{(timezone.localdate() + dt.timedelta(days=2)).isoformat()} 00:00",
        "notified_at": f"{(timezone.localdate() - dt.timedelta(days=3)).isoformat()} 10:00",
        "reference": "Avis 3",
    }
    response = client.post("/admin/house_books/seancehours/add/", form)
    assert response.status_code == 200 and "LU art. 71" in response.content.decode()
    assert not SeanceHours.objects.exists()


def test_under_fr_the_hours_are_an_internal_book(casino: Any, director: Any) -> None:
    notify_hours(director)
    now = timezone.now()
    with pytest.raises(RegulationError) as refused:
        notify_hours(director, notified_at=now, effective_from=now + dt.timedelta(hours=2))
    assert refused.value.article == INTERNAL


def test_no_seance_before_the_start_hour_and_an_early_stop_needs_its_reason(
    lu_casino: Any, director: Any, croupier: Any, cashier: Any, table: Any
) -> None:
    from tables.models import Session

    notify_hours(director)
    with pytest.raises(RegulationError) as refused:
        open_seance_at(director, croupier, table, 14)
    assert refused.value.code == "SESSION_BEFORE_START_HOUR" and refused.value.article == "LU art. 71"
    assert not Session.objects.exists()
    session = open_seance_at(director, croupier, table, 16)
    with pytest.raises(RegulationError) as refused:
        close_seance_at(director, croupier, cashier, session, 22)
    assert refused.value.code == "EARLY_STOP_WITHOUT_REASON" and refused.value.article == "LU art. 71"
    with pytest.raises(RegulationError) as refused:
        record_early_stop(actor=director, session=session, reason="bored", stopped_at=moment_on(D, 21, 55))
    assert refused.value.field == "reason"
    stop = record_early_stop(
        actor=director, session=session, reason="no_stake", stopped_at=moment_on(D, 21, 55)
    )
    assert AuditEvent.objects.filter(action="house.early_stop_recorded", object_id=str(stop.pk)).count() == 1
    close_seance_at(director, croupier, cashier, session, 22)
    assert not breaches_of("house.session_outside_hours", D)
    cells = [c[0] for c in get_register("hours").context(Request(D, D))["sections"][1]["rows"][0]["cells"]]
    assert "trois coups de suite sans aucune mise" in cells


def test_inspection_names_a_seance_opened_before_its_hour(
    lu_casino: Any, director: Any, croupier: Any, table: Any
) -> None:
    open_seance_at(director, croupier, table, 14)  # before any hours were notified
    assert not breaches_of("house.session_outside_hours", D)
    notify_hours(director)  # the first notification, in force since before that séance
    # (still open days after, it is also named as played past the closing hour)
    found = [b for b in breaches_of("house.session_outside_hours", D) if "avant l'heure" in b.detail]
    assert len(found) == 1 and found[0].article == "LU art. 71" and "BJ03" not in found[0].object
    assert "3" in found[0].object and D.strftime("%d/%m/%Y") in found[0].object


# -- Bank failure -------------------------------------------------------------------------------


def test_after_a_bank_failure_no_seance_opens_before_a_new_authorisation(
    lu_casino: Any, director: Any, croupier: Any, table: Any
) -> None:
    from tables.models import Session

    failure = record_bank_failure(
        actor=director,
        occurred_at=moment_on(D, 2),
        description="Encaisse insuffisante pour couvrir la contrepartie",
        officer_name="Insp. Weber",
        officer_told_at=moment_on(D, 2, 5),
        minister_told_at=moment_on(D, 2, 30),
    )
    assert (
        AuditEvent.objects.filter(action="house.bank_failure_recorded", object_id=str(failure.pk)).count()
        == 1
    )
    with pytest.raises(RegulationError) as refused:
        open_seance_at(director, croupier, table, 16)
    assert refused.value.code == "BANK_FAILURE_NO_AUTHORISATION" and refused.value.article == "LU art. 11"
    assert not Session.objects.exists()
    authorisation = record_new_authorisation(
        actor=director, failure=failure, granted_on=D, reference="MF/2026/88"
    )
    assert (
        AuditEvent.objects.filter(
            action="house.new_authorisation_recorded", object_id=str(authorisation.pk)
        ).count()
        == 1
    )
    open_seance_at(director, croupier, table, 16)
    cells = [
        c[0] for c in get_register("bank-failures").context(Request(D, D))["sections"][0]["rows"][0]["cells"]
    ]
    assert "Insp. Weber" in cells


def test_a_notice_before_the_failure_is_refused_and_fr_cites_internal_rules(
    casino: Any, director: Any
) -> None:
    with pytest.raises(RegulationError) as refused:
        record_bank_failure(
            actor=director,
            occurred_at=moment_on(D, 2),
            description="Encaisse insuffisante",
            officer_name="Insp. Weber",
            officer_told_at=moment_on(D, 1),
            minister_told_at=moment_on(D, 3),
        )
    assert refused.value.field == "officer_told_at" and refused.value.article == INTERNAL
    assert not BankFailure.objects.exists()


def test_inspection_names_a_seance_opened_after_a_failure(
    lu_casino: Any, director: Any, croupier: Any, cashier: Any, table: Any
) -> None:
    open_seance_at(director, croupier, table, 16)
    record_bank_failure(  # recorded late, the séance had opened after it (and stops now)
        actor=director,
        occurred_at=moment_on(D, 15),
        description="Encaisse insuffisante",
        officer_name="Insp. Weber",
        officer_told_at=moment_on(D, 15, 5),
        minister_told_at=moment_on(D, 15, 10),
        counts={3: "30000.00"},
        cashier=cashier,
    )
    found = breaches_of("house.session_without_authorisation", D)
    assert len(found) == 1 and found[0].article == "LU art. 11"


# -- Approvals binding the tables' acts ----------------------------------------------------------


def test_a_seance_signed_or_counted_by_someone_not_approved_is_refused(
    lu_casino: Any, director: Any, committee: Any, croupier: Any, table: Any
) -> None:
    from tables.models import Session

    _approve(director, (committee, "committee", ""))
    with pytest.raises(RegulationError) as refused:
        open_seance_at(director, croupier, table, 16)
    assert refused.value.code == "NOT_APPROVED" and refused.value.field == "actor"
    assert refused.value.article == "LU art. 51, 54, 63"
    _approve(director, (director, "director", ""))
    with pytest.raises(RegulationError) as refused:
        open_seance_at(director, croupier, table, 16)
    assert refused.value.field == "croupier"
    assert not Session.objects.exists()
    services.record_approval(
        actor=director, person=croupier, function="staff", job="croupier", approved_on=D, reference="MJ/9"
    )
    open_seance_at(director, croupier, table, 16)


def test_under_fr_the_refusal_cites_the_internal_rules(
    casino: Any, director: Any, committee: Any, croupier: Any, table: Any
) -> None:
    _approve(director, (committee, "committee", ""))
    with pytest.raises(RegulationError) as refused:
        open_seance_at(director, croupier, table, 16)
    assert refused.value.article == INTERNAL


def test_inspection_names_advance_lines_by_unapproved_people(
    lu_casino: Any, director: Any, committee: Any, croupier: Any, table: Any
) -> None:
    open_seance_at(director, croupier, table, 16)  # before the casino kept its book of approvals
    assert not breaches_of("house.act_by_unapproved", D)
    _approve(director, (director, "director", ""))
    found = breaches_of("house.act_by_unapproved", D)
    assert len(found) == 1 and found[0].article == "LU art. 51, 54, 63"
    assert croupier.get_username() in found[0].detail


def test_early_stop_recorded_with_no_hours_is_not_needed_but_refused_after_close(
    lu_casino: Any, director: Any, croupier: Any, cashier: Any, table: Any
) -> None:
    session = open_seance_at(director, croupier, table, 16)
    close_seance_at(director, croupier, cashier, session, 22)  # no hours notified: nothing binds the close
    with pytest.raises(RegulationError) as refused:
        record_early_stop(actor=director, session=session, reason="players_left", stopped_at=moment_on(D, 21))
    assert refused.value.code == "SESSION_ALREADY_CLOSED"
    assert not EarlyStop.objects.exists()


def test_read_api_and_admin_for_the_hours_and_the_bank(
    lu_casino: Any, director: Any, officer: Any, client: Any
) -> None:
    import json

    notify_hours(director)
    record_bank_failure(
        actor=director,
        occurred_at=moment_on(D, 2),
        description="Encaisse insuffisante",
        officer_name="Insp. Weber",
        officer_told_at=moment_on(D, 2, 5),
        minister_told_at=moment_on(D, 2, 30),
    )
    client.force_login(officer)
    for url, key, value in (
        ("/api/house/hours/", "reference", "Avis MJ/MF 2026-07"),
        ("/api/house/bank-failures/", "officer_name", "Insp. Weber"),
    ):
        body = json.loads(client.get(url).content)
        rows = body["results"] if isinstance(body, dict) else body
        assert rows[0][key] == value
    assert client.post("/api/house/hours/", {}).status_code == 403
    client.force_login(director)
    form = {
        "weekday_start": "15:00",
        "holiday_start": "14:00",
        "closing": "03:00",
        "effective_from": f"{timezone.localdate().isoformat()} 23:00",
        "notified_at": f"{timezone.localdate().isoformat()} 00:00",
        "reference": "Avis 2",
    }
    page = client.get("/admin/house_books/seancehours/add/")
    assert page.status_code == 200
    response = client.post("/admin/house_books/seancehours/add/", form)
    assert response.status_code == 200 and "LU art. 71" in response.content.decode()
    assert SeanceHours.objects.count() == 1
    form["effective_from"] = f"{(timezone.localdate() + dt.timedelta(days=2)).isoformat()} 00:00"
    assert client.post("/admin/house_books/seancehours/add/", form).status_code == 302
    assert SeanceHours.objects.count() == 2


def test_public_holidays_take_the_sunday_start_hour(lu_casino: Any, director: Any) -> None:
    """LU art. 71: the start hour "les dimanches et jours fériés" — the legal holidays of
    the casino's country, Easter's moving feasts included."""
    from house_books.selectors import is_sunday_or_holiday, seance_window

    national_day, bastille_day = dt.date(2026, 6, 23), dt.date(2026, 7, 14)  # a Tuesday each
    whit_monday, europe_day = dt.date(2026, 5, 25), dt.date(2026, 5, 9)
    assert all(is_sunday_or_holiday(d) for d in (national_day, whit_monday, europe_day))
    assert not is_sunday_or_holiday(bastille_day)  # France's, not Luxembourg's
    assert not is_sunday_or_holiday(dt.date(2026, 6, 24))
    assert is_sunday_or_holiday(bastille_day, "FR") and not is_sunday_or_holiday(national_day, "FR")
    hours = notify_hours(director, weekday_start=dt.time(15), holiday_start=dt.time(12))
    assert seance_window(hours, national_day)[0] == moment_on(national_day, 12)
    assert seance_window(hours, national_day + dt.timedelta(days=1))[0] == moment_on(dt.date(2026, 6, 24), 15)


# -- Under FR, the same breaches named against the casino's internal rules -----------------------


def test_fr_inspection_names_a_seance_opened_before_its_hour(
    casino: Any, director: Any, croupier: Any, table: Any
) -> None:
    open_seance_at(director, croupier, table, 14)  # before any hours were written in the internal book
    notify_hours(director)  # in force since before that séance
    found = [b for b in breaches_of("house.session_outside_hours", D) if "avant l'heure" in b.detail]
    assert len(found) == 1 and found[0].article == INTERNAL
    assert "3" in found[0].object and D.strftime("%d/%m/%Y") in found[0].object


def test_fr_inspection_names_a_seance_opened_after_a_failure(
    casino: Any, director: Any, croupier: Any, cashier: Any, table: Any
) -> None:
    open_seance_at(director, croupier, table, 16)
    record_bank_failure(
        actor=director,
        occurred_at=moment_on(D, 15),
        description="Encaisse insuffisante",
        officer_name="Insp. Weber",
        officer_told_at=moment_on(D, 15, 5),
        minister_told_at=moment_on(D, 15, 10),
        counts={3: "30000.00"},
        cashier=cashier,
    )
    found = breaches_of("house.session_without_authorisation", D)
    assert len(found) == 1 and found[0].article == INTERNAL
    assert D.strftime("%d/%m/%Y") in found[0].object


def test_fr_inspection_names_advance_lines_by_unapproved_people(
    casino: Any, director: Any, committee: Any, croupier: Any, table: Any
) -> None:
    open_seance_at(director, croupier, table, 16)
    assert not breaches_of("house.act_by_unapproved", D)
    _approve(director, (director, "director", ""))
    found = breaches_of("house.act_by_unapproved", D)
    assert len(found) == 1 and found[0].article == INTERNAL
    assert croupier.get_username() in found[0].detail and D.strftime("%d/%m/%Y") in found[0].object


# -- Under LU, the book of approvals and the management committee --------------------------------


def test_lu_seances_held_while_no_approval_is_in_the_book_are_named(
    lu_casino: Any, director: Any, croupier: Any, table: Any
) -> None:
    open_seance_at(director, croupier, table, 16)
    found = breaches_of("house.approvals_book_not_kept", D)
    assert len(found) == 1 and found[0].article == "LU art. 51, 54, 63"
    assert D.strftime("%d/%m/%Y") in found[0].detail and "1 journée" in found[0].detail
    _approve(director, (director, "director", ""))
    assert not breaches_of("house.approvals_book_not_kept", D)


def test_lu_a_management_committee_of_fewer_than_four_is_named(
    lu_casino: Any, director: Any, committee: Any
) -> None:
    assert not breaches_of("house.committee_incomplete", D)  # no book yet
    _approve(director, (director, "director", ""), (committee, "committee", ""))
    found = breaches_of("house.committee_incomplete", D)
    assert len(found) == 1 and found[0].article == "LU art. 51"
    assert D.strftime("%d/%m/%Y") in found[0].object
    assert "2 membre(s)" in found[0].detail and committee.get_username() in found[0].detail
