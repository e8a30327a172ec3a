"""How a row names itself (``str()``: the admin's titles, choices and history, the portal's
links): in the active language, and at the casino's local time, never UTC.

Over every model of the project that names itself, on the LU demo (which keeps every book),
one row each: under English no French word of the labels is left, and no moment is written
at its UTC hour.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.apps import apps
from django.db import models
from django.utils import timezone
from django.utils.translation import override

from tests.support.builders import kept_for_module
from tests.support.demo_rows import loaded

APPS = ("cards_registry", "tables", "house_books", "audit", "casino_ops", "inspection")

#: Words of the French labels; none may be left in an English label.
FRENCH = (
    "Jeu ",
    "Bon n°",
    "Clé ",
    "Ouverture",
    "Demande",
    "Inventaire",
    "Hors d'usage",
    "Prise en charge",
    "détruit",
    "Visa de",
    "Correction de",
    "Avis ",
    "Clôture",
    "Contrôle",
    "Retour",
    " ligne ",
    "Sabot",
    "Orphelin",
    "Remboursement",
    "Versement",
    "Pourboires",
    "Cessation",
    "Défaillance",
    "Autorisation",
    "partie",
    "rejeu",
    "écart",
    "manche",
)


def _models() -> list[type[models.Model]]:
    return sorted(
        (
            m
            for name in APPS
            for m in apps.get_app_config(name).get_models()
            if m.__str__ is not models.Model.__str__
        ),
        key=lambda m: m._meta.label,
    )


@pytest.fixture(scope="module")
def lu_demo(django_db_setup: None, django_db_blocker: Any) -> Any:
    yield from kept_for_module(django_db_blocker, lambda: loaded("LU"))


def _utc_texts(obj: models.Model) -> list[str]:
    """The row's moments written at their UTC hour (as a label must not write them)."""
    texts = []
    for f in obj._meta.concrete_fields:
        if isinstance(f, models.DateTimeField):
            value = getattr(obj, f.attname)
            if value is not None:
                utc = value.astimezone(dt.UTC)
                if utc.strftime("%H:%M") != timezone.localtime(value).strftime("%H:%M"):
                    texts.append(utc.strftime("%d/%m/%Y %H:%M"))
    return texts


@pytest.mark.django_db
def test_every_row_names_itself_in_english_at_local_time(lu_demo: None) -> None:
    named, empty, wrong = [], [], []
    for model in _models():
        obj = model._default_manager.order_by("pk").last()
        if obj is None:
            empty.append(model._meta.label)
            continue
        named.append(model._meta.label)
        with override("en"):
            english = str(obj)
        with override("fr"):
            french = str(obj)
        left = [w for w in FRENCH if w in english]
        if left:
            wrong.append(f"{model._meta.label}: {english!r} keeps {left}")
        for text in _utc_texts(obj):
            for label in (english, french):
                if text in label:
                    wrong.append(f"{model._meta.label}: {label!r} writes {text} (UTC)")
    assert not wrong, "\n".join(wrong)
    assert len(named) >= 40, (named, empty)


@pytest.mark.django_db
def test_a_moment_is_named_at_the_casinos_hour_and_day(users: dict[str, Any]) -> None:
    """A key handed over at 23:30 UTC on 1 December is, in Paris, handed over at 00:30 on the 2nd."""
    from cards_registry.models import KeyHandover

    handover = KeyHandover(receiver=users["directeur"], at=dt.datetime(2026, 12, 1, 23, 30, tzinfo=dt.UTC))
    with override("fr"):
        assert str(handover) == "Clé → u_directeur (02/12/2026 00:30)"
    with override("en"):
        assert str(handover) == "Key → u_directeur (12/02/2026 00:30)"  # the English short date


@pytest.mark.django_db
def test_the_admin_names_the_depots_entries_in_english_too(lu_demo: None) -> None:
    """The entries a correction may name, an incident's closure, an order's receptions.

    The demo's officer closes every incident it reports (it inspects clean), so the open one is
    reported here: a deck of the cabinet found marked just now, still awaiting the officer."""
    from django.contrib import admin
    from django.contrib.auth import get_user_model

    from cards_registry import services
    from cards_registry.admin.corrections import _correction_entry_choices
    from cards_registry.models import Deck, Incident, Order
    from tests.support.builders import gaming_day

    users = get_user_model().objects
    deck = Deck.objects.filter(status="in_cabinet").order_by("serial").first()
    assert deck is not None
    now = timezone.now()
    services.report_incident(
        actor=users.get(username="directeur"),
        kind="marked",
        occurred_at=now - dt.timedelta(minutes=2),
        day=gaming_day(),
        decks=[deck],
        officer_informed=users.get(username="officier"),
        officer_informed_at=now - dt.timedelta(minutes=1),
        circumstances="Une carte cornée trouvée au contrôle du dépôt.",
    )
    closed = Incident.objects.filter(closure__isnull=False).first()
    open_ = Incident.objects.filter(closure__isnull=True).first()
    received = Order.objects.filter(receptions__isnull=False).first()
    assert closed is not None and open_ is not None and received is not None
    incidents, orders = admin.site.get_model_admin(Incident), admin.site.get_model_admin(Order)
    with override("en"):
        shown = [label for _key, label in _correction_entry_choices()]
        shown += [str(incidents.closure_display(closed)), str(incidents.closure_display(open_))]
        shown.append(str(orders.receptions_display(received)))
    kinds = {label.split(" ")[0] for label in shown[:-3]}
    assert {"Purchase", "Receipt", "Deck", "Sixain", "Issue", "Check", "Return"} <= kinds, kinds
    left = [(label, w) for label in shown for w in (*FRENCH, " le ", " du ", "ouvert") if w in label]
    assert not left, left
    assert f" on {timezone.localtime(closed.closure.at):%m/%d/%Y %H:%M}: " in shown[-3]  # English
