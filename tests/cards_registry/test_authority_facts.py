"""Facts that come from an authority are recorded with that authority's reference, never typed
by the director alone (FR art. 39, LU art. 6): a maker is approved by the ministry of the
casino's profile under a real reference (not "néant"), and the LU sixain cap is fixed by the
ministry under its reference and never emptied. The self-inspection names such a fact found
without them."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from audit.actions import Action
from audit.models import AuditEvent
from cards_registry import services
from cards_registry.models import DepotSettings, Manufacturer
from casino_ops.inspection import inspect
from tests.builders import assert_refused
from tests.guards import behind_the_guard

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
    return [b for b in inspect().breaches if b.check == name]


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


def test_a_maker_approval_from_no_ministry_is_named(casino: Any, director: Any) -> None:
    maker = _maker(director)
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


def test_lu_a_cap_emptied_or_without_reference_is_named(lu: Any, director: Any) -> None:
    services.set_max_sixains(actor=director, max_sixains=40, reference="MF/2026/12")
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
