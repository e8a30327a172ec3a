"""Facts that come from an authority are recorded with that authority's reference, never typed
by the director alone (FR art. 39, LU art. 6): a maker is approved by the ministry of the
casino's profile under a real reference (not "néant"), and the LU sixain cap is fixed by the
ministry under its reference and never emptied. The self-inspection names such a fact found
without them. Each such fact, as the director recorded it, awaits the officer's visa (signed
with his passkey): until then ``inspect_books`` names it, with the receptions of a maker's decks
taken in meanwhile."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from audit.actions import Action
from audit.models import AuditEvent
from cards_registry import services
from cards_registry.models import AuthorityVisa, DepotSettings, Manufacturer, SixainCap
from tests.support.builders import assert_refused
from tests.support.guards import behind_the_guard
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db


def _maker(director: Any, **kwargs: Any) -> Any:
    fields = dict(
        code="CC",
        name="Cartes du Commerce",
        approval_reference="Agrément INT-2026-4",
        ministry="Ministère de l'Intérieur",
        valid_from=dt.date(2026, 1, 1),
    )
    return services.register_manufacturer(actor=director, **{**fields, **kwargs})


def _named(name: str) -> list[Any]:
    return breaches_of(name)


def test_a_maker_approved_by_another_body_is_refused(casino: Any, director: Any) -> None:
    with assert_refused("MINISTRY_PROFILE", article="FR art. 39", field="ministry", nothing_recorded=True):
        _maker(director, ministry="Chambre de commerce")
    assert not Manufacturer.objects.exists()
    _maker(director, ministry="Ministère de l'Intérieur")


@pytest.mark.parametrize("reference", ["néant", "Néant.", "aucune", "-", "n/a", "?", "sans"])
def test_a_maker_approval_without_a_reference_is_refused(casino: Any, director: Any, reference: str) -> None:
    with assert_refused(
        "APPROVAL_REFERENCE_MISSING", article="FR art. 39", field="approval_reference", nothing_recorded=True
    ):
        _maker(director, approval_reference=reference)


def test_a_maker_approval_from_no_ministry_is_named(casino: Any, director: Any, officer: Any) -> None:
    maker = _maker(director)
    services.stamp_maker_approval(actor=officer, manufacturer=maker)
    assert not _named("depot.maker_approval")
    with behind_the_guard(Manufacturer):
        Manufacturer.objects.filter(pk=maker.pk).update(
            ministry="Chambre de commerce", approval_reference="néant"
        )
    [breach] = _named("depot.maker_approval")
    assert breach.article == "FR art. 39" and "CC" in breach.object
    assert "Chambre de commerce" in breach.detail and "néant" in breach.detail


@pytest.fixture
def lu(casino: Any, director: Any) -> Any:
    from house_books.services.casino import update_casino_settings

    return update_casino_settings(actor=director, profile="LU")


def test_lu_the_sixain_cap_is_the_ministrys_with_its_reference(lu: Any, director: Any) -> None:
    with assert_refused(
        "SIXAIN_CAP_REFERENCE", article="LU art. 6", field="reference", nothing_recorded=True
    ):
        services.set_max_sixains(actor=director, max_sixains=40)
    with assert_refused("SIXAIN_CAP_REFERENCE", article="LU art. 6", field="reference"):
        services.set_max_sixains(actor=director, max_sixains=40, reference="néant")
    services.set_max_sixains(
        actor=director, max_sixains=40, reference="Ministère des Finances, lettre MF/2026/12"
    )
    event = AuditEvent.objects.filter(action=Action.DEPOT_SETTINGS_CHANGED).latest("id")
    assert json.loads(event.payload)["reference"] == "Ministère des Finances, lettre MF/2026/12"
    # the director does not empty it
    with assert_refused(
        "SIXAIN_CAP_REQUIRED", article="LU art. 6", field="max_sixains", nothing_recorded=True
    ):
        services.set_max_sixains(actor=director, max_sixains=None, reference="MF/2026/13")
    assert DepotSettings.objects.get(pk=1).max_sixains == 40


def test_lu_a_cap_emptied_or_without_reference_is_named(lu: Any, director: Any, officer: Any) -> None:
    services.set_max_sixains(actor=director, max_sixains=40, reference="MF/2026/12")
    services.stamp_sixain_cap(actor=officer, sixain_cap=SixainCap.objects.get())
    assert not _named("depot.sixain_cap")
    DepotSettings.objects.filter(pk=1).update(max_sixains=None)  # written outside any act
    [breach] = _named("depot.sixain_cap")
    assert breach.article == "LU art. 6" and "aucun nombre" in breach.detail


def test_lu_a_cap_changed_without_reference_is_named(lu: Any, director: Any) -> None:
    from audit import record

    depot, _created = DepotSettings.objects.get_or_create(pk=1)
    depot.max_sixains = 500
    depot.save()
    record(
        actor=director,
        action=Action.DEPOT_SETTINGS_CHANGED,
        obj=depot,
        payload={"max_sixains": {"before": None, "after": 500}},
    )  # as the settings were changed before the reference was asked
    [breach] = _named("depot.sixain_cap")
    assert breach.article == "LU art. 6" and "sans référence" in breach.detail


def test_fr_the_cap_stays_the_casinos_own(casino: Any, director: Any) -> None:
    services.set_max_sixains(actor=director, max_sixains=None)
    assert not _named("depot.sixain_cap")


def test_a_maker_approval_awaits_the_officers_visa(casino: Any, director: Any, officer: Any) -> None:
    maker = _maker(director)
    [breach] = _named("depot.maker_approval")
    assert breach.article == "FR art. 39" and "CC" in breach.object
    assert "en attente du visa de l'officier" in breach.detail and breach.url.endswith("/visas/")
    with assert_refused("VISA_OFFICER_ONLY", article="FR art. 39", field="officer", nothing_recorded=True):
        services.stamp_maker_approval(actor=director, manufacturer=maker)
    visa = services.stamp_maker_approval(actor=officer, manufacturer=maker, remark="Agrément vu à l'arrêté")
    assert visa.officer == officer and visa.manufacturer == maker
    event = AuditEvent.objects.get(action=Action.DEPOT_MAKER_APPROVAL_STAMPED)
    payload = json.loads(event.payload)
    assert (
        payload["approval_reference"] == "Agrément INT-2026-4"
        and payload["remark"] == "Agrément vu à l'arrêté"
    )
    assert payload["officer_signature"]["statement"]["target"] == f"cards_registry.manufacturer:{maker.pk}"
    assert not _named("depot.maker_approval")
    with assert_refused("ALREADY_STAMPED", article="FR art. 39", nothing_recorded=True):
        services.stamp_maker_approval(actor=officer, manufacturer=maker)
    assert AuthorityVisa.objects.count() == 1


def test_decks_received_from_a_maker_not_visaed_are_named(casino: Any, director: Any, officer: Any) -> None:
    """Taking in decks of a maker whose approval the officer has not stamped is named (not refused:
    the regulation makes the ministry's approval the condition of a purchase, FR art. 39, LU art.
    6, which the reception checks; the officer's visa is the proof that the director did not type
    that approval alone, so its absence is named for the officer to check)."""
    from tests.support.builders import approved_maker, cabinet_key, receive, sent_order

    maker = approved_maker(director, visa=False)
    cabinet_key(director)
    receive(director, sent_order(director, officer, maker))
    [breach] = _named("depot.maker_approval")
    assert "jeux pris en charge sans ce visa : prise en charge n° 1 du" in breach.detail
    services.stamp_maker_approval(actor=officer, manufacturer=maker)
    assert not _named("depot.maker_approval")


def test_lu_the_sixain_cap_awaits_the_officers_visa(lu: Any, director: Any, officer: Any) -> None:
    services.set_max_sixains(actor=director, max_sixains=40, reference="MF/2026/12")
    cap = SixainCap.objects.get()
    assert (cap.max_sixains, cap.reference, cap.recorded_by) == (40, "MF/2026/12", director)
    [breach] = _named("depot.sixain_cap")
    assert breach.article == "LU art. 6" and "en attente du visa de l'officier" in breach.detail
    with assert_refused("VISA_OFFICER_ONLY", article="LU art. 6", field="officer", nothing_recorded=True):
        services.stamp_sixain_cap(actor=director, sixain_cap=cap)
    services.stamp_sixain_cap(actor=officer, sixain_cap=cap)
    assert not _named("depot.sixain_cap")
    event = AuditEvent.objects.get(action=Action.DEPOT_SIXAIN_CAP_STAMPED)
    assert json.loads(event.payload)["reference"] == "MF/2026/12"
    # a new decision of the ministry awaits its own visa; the old one is no longer the depot's
    services.set_max_sixains(actor=director, max_sixains=60, reference="MF/2026/30")
    [breach] = _named("depot.sixain_cap")
    assert "60 sixains (MF/2026/30)" in breach.detail
    from cards_registry.selectors import sixain_caps_awaiting_visa

    assert [c.max_sixains for c in sixain_caps_awaiting_visa()] == [60]


def test_lu_a_maker_approval_awaits_the_officers_visa(lu: Any, director: Any, officer: Any) -> None:
    maker = _maker(director, ministry="Ministère des Finances", approval_reference="MF/CARTES/2026-3")
    [breach] = _named("depot.maker_approval")
    assert breach.article == "LU art. 6" and "en attente du visa de l'officier" in breach.detail
    services.stamp_maker_approval(actor=officer, manufacturer=maker)
    assert not _named("depot.maker_approval")
