"""A small casino with one object of each kind the portal and the API show, made
through the apps' own services: an order and a receipt-book entry awaiting the
officer's visa, an open incident, a session of table BJ03 with a hand log whose
replay found a discrepancy."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from casino_ops import roles
from tests.support import builders

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "handlog"
DAY = dt.date(2026, 11, 30)


@dataclass
class Samples:
    users: dict[str, Any]
    casino: Any
    event: AuditEvent
    order: Any
    reception: Any
    deck: Any
    incident: Any
    table: Any
    session: Any
    hand_log: Any
    discrepancy: Any
    _report: Any = None
    _checkpoint: Any = None
    _media: Path | None = None  # the module's files (its signed register), copied into each test's
    # with the module's samples: each role's TOTP device and signed-in session (see module_clients)
    devices: dict[str, Any] = field(default_factory=dict)
    sessions: dict[str, str] = field(default_factory=dict)

    @property
    def checkpoint(self) -> Any:
        """A signed checkpoint of the chain's head (made on first use)."""
        if self._checkpoint is None:
            from audit.checkpoints import make_checkpoint

            self._checkpoint = make_checkpoint()
        return self._checkpoint

    @property
    def report(self) -> Any:
        """A signed register (made on first use: a PDF takes a few seconds)."""
        if self._report is None:
            self._report = signed_report(self.users[roles.DIRECTOR])
        return self._report


sixain = builders.sixain


def build_samples(users: dict[str, Any], casino: Any) -> Samples:
    from cards_registry import services as depot
    from cards_registry.models import Deck
    from tables import services as tables
    from tables.models import Discrepancy

    director, officer = users[roles.DIRECTOR], users[roles.OFFICER]
    croupier = users[roles.CROUPIER]
    with builders.at_day(DAY):  # received on that day, as written then
        stock = builders.depot_with_decks(
            director, officer, prefixes=("A1", "A2"), day=DAY, delivery_note="BL 4411"
        )
    maker, reception = stock.maker, stock.reception
    lines = [
        {"quantity": 6, "unit": "deck", "back_colour": "bleu"},
        {"quantity": 6, "unit": "deck", "back_colour": "rouge"},
    ]
    order = depot.create_order(
        actor=director, manufacturer=maker, ordered_on=DAY, lines=lines, note="Réassort"
    )
    deck = Deck.objects.get(serial="A1-1")
    incident = depot.report_incident(
        actor=director,
        kind="marked",
        occurred_at=timezone.now(),
        day=DAY,
        decks=[Deck.objects.get(serial="A2-6")],
        officer_informed=officer,
        officer_informed_at=timezone.now(),
        circumstances="Carte marquée au dos, relevée au contrôle.",
        table_number=3,
    )
    table = tables.create_table(actor=director, number=3, code="BJ03")
    session = builders.open_session(table, director=director, croupier=croupier, day=DAY)
    log = builders.hand_log(session, croupier)
    discrepancy = Discrepancy.objects.filter(hand_log=log, code="SETTLEMENT_MISMATCH").first()
    event = AuditEvent.objects.filter(seq__isnull=False).order_by("-seq").first()
    return Samples(
        users=users,
        casino=casino,
        event=event,
        order=order,
        reception=reception,
        deck=deck,
        incident=incident,
        table=table,
        session=session,
        hand_log=log,
        discrepancy=discrepancy,
    )


@pytest.fixture(scope="session")
def dev_cert(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from audit import devcert

    return devcert.make_dev_certificate(tmp_path_factory.mktemp("signing"), casino="Casino de test")


@pytest.fixture
def signing(settings: Any, dev_cert: Any, tmp_path: Path) -> Any:
    """The casino's signing certificate (a demo CA and signer) and a media directory."""
    settings.SIGNING_PKCS12 = str(dev_cert.pkcs12)
    settings.SIGNING_PKCS12_PASSWORD = dev_cert.password
    settings.TIMESTAMP_URL = ""
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return dev_cert


def signed_report(director: Any, register: str = "receipt-book") -> Any:
    """The register of November 2026 as a signed PDF, made now."""
    from inspection.registers.reports import produce_report, request_report

    report = request_report(
        actor=director, register=register, date_from=DAY.replace(day=1), date_to=DAY, enqueue=False
    )
    return produce_report(report.pk, inline_parts=True)


@pytest.fixture
def samples(users: dict[str, Any], casino: Any, signing: Any) -> Samples:
    return build_samples(users, casino)


@pytest.fixture(scope="module")
def shared_samples(
    django_db_setup: None, django_db_blocker: Any, dev_cert: Any, tmp_path_factory: pytest.TempPathFactory
) -> Any:
    """The samples (and the users, the casino, the signed register) made once for a module (they
    take seconds). A module opts in by importing the ``module_*`` fixtures below; all its tests
    then see them."""
    from django.test import override_settings

    media = tmp_path_factory.mktemp("samples-media")

    def build() -> Samples:
        users = builders.users_by_role()
        made = build_samples(users, builders.casino_settings(users[roles.DIRECTOR]))
        with override_settings(
            SIGNING_PKCS12=str(dev_cert.pkcs12),
            SIGNING_PKCS12_PASSWORD=dev_cert.password,
            TIMESTAMP_URL="",
            MEDIA_ROOT=str(media),
        ):
            made.report  # noqa: B018 - the signed register, made once for the module
        made._media = media
        _sign_in_every_role(made)
        return made

    yield from builders.kept_for_module(django_db_blocker, build)


@pytest.fixture(name="samples")
def module_samples(db: None, shared_samples: Samples, signing: Any) -> Samples:
    """A test's copy of the samples made once for its module. A module whose tests all read the
    samples takes them so, with the users, the casino, the devices and the signed-in clients they
    were made with, by importing ``module_samples, module_users, module_casino, module_devices,
    module_clients`` from here (they override ``samples``, ``users``, ``casino``, ``devices`` and
    ``clients``): a build per test takes a second, a copy a millisecond."""
    return per_test_samples(shared_samples)


@pytest.fixture(name="users")
def module_users(samples: Samples) -> dict[str, Any]:
    return samples.users


@pytest.fixture(name="casino")
def module_casino(samples: Samples) -> Any:
    return samples.casino


def _sign_in_every_role(made: Samples) -> None:
    """Each role's TOTP device and a session signed in with it (the officer's also signed in with
    a password only), kept with the module's samples: a test then has only to show the cookie."""
    from tests.support.clients import make_devices, signed_in

    made.devices = make_devices(made.users)
    for role, user in made.users.items():
        made.sessions[role] = signed_in(user, made.devices.get(role)).session.session_key
    made.sessions["officer_password_only"] = signed_in(made.users[roles.OFFICER]).session.session_key


@pytest.fixture(name="devices")
def module_devices(samples: Samples) -> dict[str, Any]:
    return samples.devices


@pytest.fixture(name="clients")
def module_clients(samples: Samples) -> dict[str, Any]:
    """The ``clients`` of tests/inspection/portal/conftest.py, on the sessions signed in once for the module."""
    from django.conf import settings
    from django.test import Client

    made = {}
    for who, session_key in samples.sessions.items():
        made[who] = client = Client()
        client.cookies[settings.SESSION_COOKIE_NAME] = session_key
    made["anonymous"] = Client()
    return made


def per_test_samples(shared: Samples) -> Samples:
    """A test's own copy of the module's samples (its objects its own, as with setUpTestData),
    the module's files copied into the test's MEDIA_ROOT (the ``signing`` fixture's)."""
    import copy
    import shutil

    from django.conf import settings

    if shared._media is not None:
        shutil.copytree(shared._media, settings.MEDIA_ROOT, dirs_exist_ok=True)
    return copy.deepcopy(shared)


def worked_example() -> dict[str, Any]:
    return json.loads((FIXTURES / "worked-example.json").read_text())


#: The steps of the worked example's first round, as the replay page titles them.
WORKED_EXAMPLE_STEPS = [
    "Mises sur les cases",
    "Première carte à chaque case",
    "Carte du croupier",
    "Seconde carte à chaque case",
    "Assurances",
    "Case 2 : reste",
    "Case 5 : tire une carte",
    "Case 5 : reste",
    "Le croupier tire 6♥",
    "Le croupier termine à 17",
    "Paiements",
]
