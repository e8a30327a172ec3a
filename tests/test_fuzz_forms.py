"""Fuzz: every admin add/act form and every portal form, driven with generated bad values.

Each submission is either accepted (a redirect) or refused with the form shown again
(or a clear 4xx); never a 500 (the test client re-raises a server error), and a
refused submission leaves every table of the apps exactly as it was (rows counted
before and after). The hand-log upload has its own tests. The API's writes are
covered by schemathesis (tests/inspection/api/test_schema.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino_ops import roles
from tests.support.absurd import ABSURD
from tests.support.samples import Samples, dev_cert, samples, signing  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

BAD = st.one_of(
    st.sampled_from(ABSURD),
    st.text(max_size=70),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)


@dataclass
class Target:
    """A form: its URL, the role that submits it, how (GET/POST), its fields and fixed values."""

    url: Callable[[Samples], str]
    role: str | None
    fields: list[str]
    method: str = "post"
    fixed: Callable[[Samples], dict[str, Any]] = field(default=lambda s: {})


def _admin(model: str) -> Callable[[Samples], str]:
    return lambda s: f"/admin/{model}/add/"


TARGETS: dict[str, Target] = {
    # -- the admin's add and act forms
    "manufacturer": Target(
        _admin("cards_registry/manufacturer"),
        roles.DIRECTOR,
        ["code", "name", "approval_reference", "ministry", "valid_from", "valid_until"],
    ),
    "order": Target(
        _admin("cards_registry/order"), roles.DIRECTOR, ["manufacturer", "ordered_on", "lines", "note"]
    ),
    "reception": Target(
        _admin("cards_registry/reception"), roles.DIRECTOR, ["order", "received_on", "delivery_note", "decks"]
    ),
    "keyhandover": Target(_admin("cards_registry/keyhandover"), roles.DIRECTOR, ["receiver", "reason"]),
    "inspection": Target(_admin("cards_registry/cabinetopening"), roles.DIRECTOR, ["demanded_by", "note"]),
    "incident": Target(
        _admin("cards_registry/incident"),
        roles.DIRECTOR,
        [
            "kind",
            "occurred_at",
            "day",
            "table_number",
            "shoe_reference",
            "manufacturer",
            "serials",
            "officer_informed",
            "officer_informed_at",
            "circumstances",
        ],
    ),
    "correction": Target(
        _admin("cards_registry/correction"), roles.DIRECTOR, ["entry", "field", "new_value", "reason"]
    ),
    "depotsettings": Target(_admin("cards_registry/depotsettings"), roles.DIRECTOR, ["max_sixains"]),
    "deck_action": Target(
        lambda s: "/admin/cards_registry/deck/",
        roles.DIRECTOR,
        ["table_number", "day"],
        fixed=lambda s: {"action": "issue", "_act": "1", "_selected_action": [s.deck.pk]},
    ),
    "report": Target(
        _admin("inspection/report"), roles.DIRECTOR, ["register", "date_from", "date_to", "table_number"]
    ),
    "casinosettings": Target(
        lambda s: "/admin/casino_ops/casinosettings/1/change/",
        roles.DIRECTOR,
        ["name", "profile", "authorised_min_stake", "authorisation_reference", "max_hands_after_split"],
    ),
    "session_open": Target(
        _admin("tables/session"),
        roles.DIRECTOR,
        [
            "table",
            "day",
            "minimum",
            "maximum",
            "advance_amount",
            "croupier",
            "guarantee_fund",
            "ministry_notice",
        ],
    ),
    **{
        f"session_{act}": Target(
            (lambda a: lambda s: f"/admin/tables/session/{s.session.pk}/act/{a}/")(act), roles.DIRECTOR, names
        )
        for act, names in {
            "advance": ["amount", "counted_by"],
            "maximum": ["maximum", "display_changed"],
            "interrupt": ["mode", "amount", "key_holder"],
            "resume": ["confirm"],
            "close": ["closing_cash", "counted_by", "cashier", "certified_exact"],
            "shoe": ["decks", "label"],
        }.items()
    },
    "advance_correction": Target(
        lambda s: f"/admin/tables/advanceentry/{s.session.entries.first().pk}/correct/",
        roles.DIRECTOR,
        ["amount", "approval", "reason"],
    ),
    # -- the portal's forms
    "portal_login": Target(lambda s: "/inspection/connexion/", None, ["username", "password", "code"]),
    "portal_visa": Target(
        lambda s: f"/inspection/visas/prise-en-charge/{s.reception.pk}/", roles.OFFICER, ["remark"]
    ),
    "portal_incident": Target(
        lambda s: f"/inspection/incidents/{s.incident.pk}/cloture/",
        roles.OFFICER,
        ["finding", "decks_fit"],
    ),
    "portal_register_pdf": Target(
        lambda s: "/inspection/registres/advance-book/pdf/", roles.OFFICER, ["date_from", "date_to", "table"]
    ),
    "portal_register": Target(
        lambda s: "/inspection/registres/incidents/", roles.OFFICER, ["date_from", "date_to"], method="get"
    ),
    "portal_decks": Target(lambda s: "/inspection/jeux/", roles.OFFICER, ["serie"], method="get"),
    "portal_audit": Target(
        lambda s: "/inspection/audit/",
        roles.OFFICER,
        ["q", "action", "actor", "object_type", "object_id", "since", "until", "before"],
        method="get",
    ),
    "portal_sessions": Target(
        lambda s: "/inspection/seances/", roles.OFFICER, ["table", "since", "until", "status"], method="get"
    ),
    "portal_advance_book": Target(
        lambda s: "/inspection/carnet-d-avances/",
        roles.OFFICER,
        ["table", "date_from", "date_to"],
        method="get",
    ),
    "portal_control_register": Target(
        lambda s: "/inspection/registre-de-controle/", roles.OFFICER, ["day"], method="get"
    ),
}


def _tables() -> list[str]:
    names = []
    for label in ("casino_ops", "cards_registry", "tables", "audit", "inspection"):
        for model in apps.get_app_config(label).get_models():
            names.append(model._meta.db_table)
    return sorted(set(names))


def _row_counts(tables: list[str]) -> tuple[int, ...]:
    sql = "SELECT " + ", ".join(f'(SELECT count(*) FROM "{t}")' for t in tables)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return tuple(cursor.fetchone())


def _client(role: str | None, s: Samples) -> Client:
    client = Client()
    if role is not None:
        client.force_login(s.users[role])
    return client


def _data(target: Target, s: Samples, values: dict[str, str]) -> dict[str, Any]:
    data = dict(values)
    if target.url(s).startswith("/inspection/incidents/"):
        data = {f"incident-{s.incident.pk}-{k}": v for k, v in data.items()}
    return {**target.fixed(s), **data}


FUZZ_SETTINGS = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def test_bad_values_never_break_a_form(samples: Samples) -> None:  # noqa: F811
    """One set of sample data for every form (building it is the slow part)."""
    tables = _tables()
    for name in sorted(TARGETS):
        _fuzz(name, TARGETS[name], samples, tables)


def _fuzz(name: str, target: Target, samples: Samples, tables: list[str]) -> None:  # noqa: F811
    client = _client(target.role, samples)
    url = target.url(samples)
    assert client.get(url).status_code in (200, 302, 405), url  # 405: a POST-only act

    @FUZZ_SETTINGS
    @given(values=st.fixed_dictionaries({field_name: BAD for field_name in target.fields}))
    def submit(values: dict[str, str]) -> None:
        before = _row_counts(tables)
        data = _data(target, samples, values)
        response = client.get(url, data) if target.method == "get" else client.post(url, data)
        assert response.status_code < 500, (name, data, response.status_code)
        assert response.status_code in (200, 302, 400, 403, 404, 429), (name, response.status_code)
        if target.method == "get" or response.status_code != 302:
            # refused (or a read): nothing written
            assert _row_counts(tables) == before, (name, data)

    submit()
