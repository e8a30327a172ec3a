"""Set-up shared by the tests and the benches, made through the apps' own services: the card
depot's approved maker, key, sent order and decks received into the cabinet; a table's séance
open on its gaming day; a hand log uploaded and replayed. With them ``assert_refused``, the one
check of a refusal (its code, article, field; nothing recorded), from ``refusals.py``.

Plain functions (no fixture), so that a conftest, a test or a bench script can call them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

# the one check of a refusal (tests/support/refusals.py), offered with the set-up it checks
from tests.support.refusals import assert_refused as assert_refused

HANDLOG_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "handlog"
COLOURS = ("bleu", "rouge")


# -- people and the casino ----------------------------------------------------------------------


def users_by_role() -> dict[str, Any]:
    """One user per role, keyed by role name (``u_<role>``, password ``pw-<role>``; staff but
    for the officer and the machine). Written in three statements: a test makes them often."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import Group

    from casino_ops import roles

    User = get_user_model()
    groups = {group.name: group for group in Group.objects.filter(name__in=roles.ALL_ROLES)}
    made = dict(
        zip(
            roles.ALL_ROLES,
            User.objects.bulk_create(
                User(
                    username=f"u_{role}",
                    password=make_password("pw-" + role),
                    is_staff=role not in (roles.OFFICER, roles.MACHINE),
                )
                for role in roles.ALL_ROLES
            ),
            strict=True,
        )
    )
    User.groups.through.objects.bulk_create(
        User.groups.through(user_id=user.pk, group_id=groups[role].pk) for role, user in made.items()
    )
    enrol_officer(made[roles.OFFICER])
    return made


def enrol_officer(user: Any, **kwargs: Any) -> Any:
    """Enrol ``user`` as officer with the demo software passkey, the enrolment signed by the
    tests' demo authority (``kwargs``: ``valid_from``, ``valid_to``, ``serial``)."""
    from casino_ops import officers
    from casino_ops.demo import demo_enrolment

    # wide enough for the tests that travel in time (2000 to 2100) unless told
    kwargs.setdefault("valid_from", dt.datetime(2000, 1, 1, tzinfo=dt.UTC))
    kwargs.setdefault("valid_to", dt.datetime(2100, 1, 1, tzinfo=dt.UTC))
    row, _outcome = officers.import_document(
        demo_enrolment(user.get_username(), user.get_full_name(), **kwargs)
    )
    for cached in ("_casino_roles",):
        user.__dict__.pop(cached, None)
    return row


def casino_settings(director: Any) -> Any:
    """The casino's settings: FR, authorised minimum 5.00."""
    from house_books.services.casino import update_casino_settings

    return update_casino_settings(
        actor=director, name="Casino de test", profile="FR", authorised_min_stake=Decimal("5.00")
    )


# -- data made once for a module ---------------------------------------------------------------


def kept_for_module(django_db_blocker: Any, build: Callable[[], Any]) -> Iterator[Any]:
    """For a module-scoped fixture (``yield from``): what ``build`` makes stays for every later
    test of the module, each test rolling back only its own changes (it runs in a savepoint),
    and goes at the module's end (rolled back, as with Django's setUpTestData). Every later test
    of the module sees it, so a module using it holds only tests that want that data.

        @pytest.fixture(scope="module")
        def demo(django_db_setup, django_db_blocker):
            yield from kept_for_module(django_db_blocker, lambda: call_command("seed_demo"))
    """
    from django.db import transaction

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            made = build()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield made
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


# -- the card depot ------------------------------------------------------------------------------


def sixain(prefix: str, colours: tuple[str, str] = COLOURS) -> dict[str, Any]:
    """A sixain of six decks, three and three, with serials ``<prefix>-1`` … ``<prefix>-6``."""
    return {
        "serial": f"S{prefix}",
        "decks": [
            {"serial": f"{prefix}-{i}", "back_colour": colours[0] if i <= 3 else colours[1]}
            for i in range(1, 7)
        ],
    }


def approved_maker(
    director: Any,
    *,
    code: str = "GRIM",
    name: str = "Cartes Grimaud",
    approval_reference: str = "Agrément INT-2024-017",
    valid_from: dt.date = dt.date(2024, 1, 1),
    ministry: str = "Ministère de l'Intérieur",
    visa: bool = True,
) -> Any:
    """A card maker approved by the ministry from ``valid_from``, with no end; its approval stamped
    by the officer when there is one (``visa``: FR art. 39, LU art. 6)."""
    from django.contrib.auth import get_user_model

    from cards_registry import services as depot
    from casino_ops import roles

    maker = depot.register_manufacturer(
        actor=director,
        code=code,
        name=name,
        approval_reference=approval_reference,
        ministry=ministry,
        valid_from=valid_from,
        valid_until=None,
    )
    officer = get_user_model().objects.filter(groups__name=roles.OFFICER).order_by("pk").first()
    if visa and officer is not None:
        depot.stamp_maker_approval(actor=officer, manufacturer=maker)
    return maker


def cabinet_key(director: Any) -> Any:
    """The director takes the cabinet's key."""
    from cards_registry import services as depot

    return depot.hand_over_key(actor=director, receiver=director, reason="Ouverture du dépôt")


def sent_order(
    director: Any, officer: Any, maker: Any, *, decks_per_colour: int = 6, ordered_on: dt.date | None = None
) -> Any:
    """An order of ``decks_per_colour`` blue and as many red decks, stamped by the officer and sent."""
    from django.utils import timezone

    from cards_registry import services as depot

    order = depot.create_order(
        actor=director,
        manufacturer=maker,
        ordered_on=ordered_on or timezone.localdate(),
        lines=[
            {"quantity": decks_per_colour, "unit": "deck", "back_colour": "bleu"},
            {"quantity": decks_per_colour, "unit": "deck", "back_colour": "rouge"},
        ],
    )
    depot.stamp_order(actor=officer, order=order)
    return depot.send_order(actor=director, order=order)


def receive(
    director: Any,
    order: Any,
    *,
    prefixes: Sequence[str] = ("A1", "A2"),
    received_on: dt.date | None = None,
    delivery_note: str = "BL 4411",
) -> Any:
    """The sixains ``<prefix>-1..6`` of ``order`` received into the cabinet (on the day of the
    acts' clock: a reception is written the day the decks arrive)."""
    from cards_registry import services as depot
    from casino_ops import clock

    return depot.receive(
        actor=director,
        order=order,
        received_on=received_on or clock.today(),
        sixains=[sixain(p) for p in prefixes],
        delivery_note=delivery_note,
    )


@dataclass
class Depot:
    maker: Any
    order: Any
    reception: Any
    decks: list[Any] = field(default_factory=list)


def depot_with_decks(
    director: Any,
    officer: Any,
    *,
    prefixes: Sequence[str] = ("A1", "A2"),
    day: dt.date | None = None,
    delivery_note: str = "BL 4411",
) -> Depot:
    """An approved maker, the key taken, an order sent and its sixains (``prefixes``: A1-1..6 and
    A2-1..6 by default; three blue and three red backs each) received into the cabinet on ``day``
    (today by default). ``decks``: the decks received, by serial."""
    from cards_registry.models import Deck, Manufacturer
    from cards_registry.selectors import current_key_holder

    maker = Manufacturer.objects.filter(code="GRIM").first() or approved_maker(director)
    if current_key_holder() is None:
        cabinet_key(director)
    order = sent_order(director, officer, maker, decks_per_colour=3 * len(prefixes), ordered_on=day)
    reception = receive(director, order, prefixes=prefixes, received_on=day, delivery_note=delivery_note)
    decks = list(Deck.objects.filter(reception=reception).order_by("serial"))
    return Depot(maker=maker, order=order, reception=reception, decks=decks)


# -- the house books -----------------------------------------------------------------------------


def closing_down(director: Any) -> Any:
    """The casino's closing down an hour ago (LU art. 52): the books left with the officers,
    the cards and shoes to a successor."""
    from django.utils import timezone

    from house_books.services import record_closing

    return record_closing(
        actor=director,
        closed_at=timezone.now() - dt.timedelta(hours=1),
        documents_left_at="agents",
        documents="Carnets de prise en charge, carnets d'avances, registre de contrôle",
        disposal="successor",
        successor="Société du Nouveau Casino SA",
        officer_name="Adjudant Weber",
    )


# -- the tables ----------------------------------------------------------------------------------


def gaming_day() -> dt.date:
    """The current gaming day: between midnight and the roll-over hour it is still yesterday's,
    so a test acting now opens its session and issues its decks for this day, not the date."""
    from django.utils import timezone

    from casino_ops.services import get_casino

    return get_casino().gaming_day(timezone.now())


def at_day(day: dt.date, hour: int = 14) -> Any:
    """Acts written as if done on ``day`` at ``hour`` (a past gaming day for the tests' fixed dates)."""
    from tables.clock import history_at

    return history_at(dt.datetime.combine(day, dt.time(hour)))


def ministry_notice(
    minimum: Any,
    day: dt.date,
    *,
    days_before: int = 9,
    sent_on: dt.date | None = None,
    reference: str = "MF/2026/014",
    director: Any | None = None,
) -> Any:
    """Under LU, the director's notice to the minister of the raised ``minimum`` for the séance of
    ``day``, recorded ``days_before`` it (LU art. 26: eight days ahead at least), declared sent
    that day unless ``sent_on`` says otherwise."""
    from decimal import Decimal

    from casino_ops import roles
    from tables import services as tables

    recorded_on = day - dt.timedelta(days=days_before)
    with at_day(recorded_on, 12):
        return tables.record_ministry_notice(
            actor=director or _someone(roles.DIRECTOR),
            minimum=Decimal(minimum),
            sent_on=sent_on or recorded_on,
            reference=reference,
        )


def shoe_for(table: Any, day: dt.date, director: Any | None = None) -> Any:
    """Under LU, the shoe the director assigns to ``table`` for the séance of ``day`` (LU art.
    32 §3, 40: no séance opens without it); a new one of the cabinet each time. Nothing under FR."""
    from casino_ops import roles
    from casino_ops.services import get_casino
    from house_books.models import DeviceAssignment
    from house_books.services.devices import assign_device, register_device

    if get_casino().profile != "LU":
        return None
    number = getattr(table, "number", table)
    found = DeviceAssignment.objects.filter(table_number=number, day=day).first()
    if found is not None:
        return found
    if director is None:
        from django.contrib.auth import get_user_model

        director = get_user_model().objects.filter(groups__name=roles.DIRECTOR).first()
    with at_day(day, 12):  # in the cabinet's book on the day it serves, not after
        device = register_device(
            actor=director, approved_model="Sabot ACME 6", approval_reference="MF/SAB/12"
        )
        return assign_device(actor=director, device=device, table_number=number, day=day)


def open_session(
    table: Any,
    *,
    director: Any,
    croupier: Any,
    day: dt.date,
    minimum: str = "10.00",
    maximum: str = "1000.00",
    advance: str = "30000.00",
) -> Any:
    """A séance of ``table`` opened on its gaming day ``day`` (limits and initial advance as given)."""
    from tables import services as tables

    shoe_for(table, day, director)
    with at_day(day):
        return tables.open_session(
            actor=director,
            table=table,
            day=day,
            minimum=Decimal(minimum),
            maximum=Decimal(maximum),
            advance_amount=Decimal(advance),
            croupier=croupier,
        )


def _someone(role: str) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(groups__name=role).order_by("pk").first()


def shoe(session: Any, *, croupier: Any = None, label: str = "", hour: int = 15, prefix: str = "") -> Any:
    """A shoe of ``session`` filled at ``hour`` of its day from a sixain received into the depot's
    cabinet (maker ``SABOT``), issued to its table for its day and unsealed there (FR art. 40,
    55-4; LU art. 7, 32): a séance records rounds or a result only with one."""
    from cards_registry.models import Deck, Manufacturer
    from cards_registry.selectors import current_key_holder
    from casino_ops import roles
    from tables import services as tables
    from tests.support.depot_helpers import issue_and_check

    director = _someone(roles.DIRECTOR)
    croupier = croupier or _someone(roles.CROUPIER)
    # a sixain of its own, received for this shoe (never a deck a test meant for something else)
    from casino_ops.services import get_casino

    ministry = "Ministère des Finances" if get_casino().profile == "LU" else "Ministère de l'Intérieur"
    maker = Manufacturer.objects.filter(code="SABOT").first() or approved_maker(
        director,
        code="SABOT",
        name="Cartes du sabot",
        approval_reference="Agrément INT-2024-099",
        ministry=ministry,
    )
    if current_key_holder() is None:
        cabinet_key(director)
    name = prefix or f"Z{session.pk}-{session.shoes.count() + 1}"
    order = sent_order(director, _someone(roles.OFFICER), maker, decks_per_colour=3)
    reception = receive(director, order, prefixes=(name,), delivery_note=f"BL {name}")
    decks = list(Deck.objects.filter(reception=reception).order_by("serial"))
    with at_day(session.day, hour):
        issue_and_check(
            director=current_key_holder(),
            croupier=croupier,
            table_number=session.table.number,
            day=session.day,
            decks=decks,
        )
        return tables.fill_shoe(actor=croupier, session=session, deck_ids=[d.pk for d in decks], label=label)


def return_decks(session: Any, *, hour: int = 22) -> Any:
    """Every deck issued to the séance's table for its day brought back to the cabinet fit,
    counted 52 cards (before the séance closes, FR art. 40, LU art. 7)."""
    from cards_registry import services as depot
    from cards_registry.selectors import current_key_holder, decks_out

    out = list(decks_out(table_number=session.table.number, day=session.day))
    if not out:
        return None
    with at_day(session.day, hour):
        return depot.return_decks(
            actor=current_key_holder(),
            table_number=session.table.number,
            day=session.day,
            results=[(d, "fit", "", 52) for d in out],
        )


def play(session: Any, *, croupier: Any = None) -> Any:
    """The séance played: a shoe of the depot's decks (:func:`shoe`), the decks then brought
    back to the cabinet (:func:`return_decks`), so that it may record its result and close."""
    filled = shoe(session, croupier=croupier)
    return_decks(session)
    return filled


def hand_log(
    session: Any, croupier: Any, *, fixture: str = "worked-example.json", replay: bool = True
) -> Any:
    """The hand log ``fixture`` uploaded for ``session`` by its croupier, and (``replay``) replayed;
    the séance is given a shoe of the depot's decks first when it has none, named as the log's."""
    import json

    from tables import services as tables
    from tables.models import Shoe

    raw = (HANDLOG_FIXTURES / fixture).read_bytes()
    label = json.loads(raw).get("shoe_id", "")
    if not session.shoes.exists():
        shoe(session, croupier=croupier, label="" if Shoe.objects.filter(label=label).exists() else label)
    if Shoe.objects.filter(label=label).exclude(session_id=session.pk).exists():
        # the fixture's shoe is another séance's (refused, HAND_LOG_SHOE_OF_ANOTHER_SESSION): the
        # log names this séance's first shoe instead
        doc = json.loads(raw)
        doc["shoe_id"] = session.shoes.order_by("number").first().label
        raw = json.dumps(doc).encode()
    log = tables.upload_hand_log(actor=croupier, session=session, raw=raw, source="api")
    if replay:
        tables.replay_hand_log(hand_log_id=log.pk)
    return log


def books_read_under(profile: str) -> Any:
    """Tests only: the casino's books, kept so far under the other regulation, read from now on
    under ``profile``. No act does this (the regulation is fixed from the books' first act,
    ``PROFILE_FIXED``); a test that sets up the depot under FR to check a refusal under LU uses it.
    The row is written through its book's queryset: the next act binds it to the chain."""
    from casino_ops.models import CasinoSettings
    from casino_ops.services import get_casino

    CasinoSettings.objects.filter(pk=1).update(profile=profile)
    return get_casino()


#: The checks of who acts and of the record itself: the users of :func:`users_by_role` hold their
#: roles without an act of the book of roles (``people.role_without_act``), and a row written
#: behind the guard is named by the record's check too (``audit.books_bound``); both are tested in
#: ``tests/house_books/test_book_of_roles.py`` and ``test_procedure_holds.py``.
PEOPLE_AND_RECORD_CHECKS = ("people.", "audit.books_bound")


def books_breaches(code: int, breaches: list[Any]) -> tuple[int, list[Any]]:
    """``inspect_books``' exit code and breaches (dicts), without those of who acts and of the
    record itself: what a test of one book's checks compares."""
    kept = [b for b in breaches if not str(b["check"]).startswith(PEOPLE_AND_RECORD_CHECKS)]
    assert code == (1 if breaches else 0)
    return (1 if kept else 0), kept


def close_even(staff: dict[str, Any], session: Any, hour: int = 23) -> None:
    """The séance closed with no result (the closing cash is the advance), by ``staff``'s
    director and croupier."""
    from tables import services

    with at_day(session.day, hour):
        services.close_session(
            actor=staff["director"],
            session=session,
            closing_cash=session.advances_total,
            counted_by=staff["croupier"],
            certified_exact=True,
        )


def ministerial_exclusion(actor: Any, today: dt.date, **kw: Any) -> Any:
    """The minister's exclusion of Marc Kieffer (at his own request) decided ten days before
    ``today`` and notified to the director two days later, recorded by ``actor``; ``kw``
    replaces any of its values."""
    from house_books import services

    values = {
        "last_name": "Kieffer",
        "first_names": "Marc",
        "birth_date": dt.date(1971, 4, 2),
        "ground": "request",
        "decided_on": today - dt.timedelta(days=10),
        "reference": "MJ/EXCL/1",
        "director_notified_on": today - dt.timedelta(days=8),
        **kw,
    }
    return services.record_ministerial_exclusion(actor=actor, **values)


def marked_deck_incident(director: Any, officer: Any, deck: Any) -> Any:
    """An incident reported five minutes ago on ``deck`` (a marked card), ``officer`` told a
    minute later."""
    from django.utils import timezone

    from cards_registry import services

    now = timezone.now()
    return services.report_incident(
        actor=director,
        kind="marked",
        occurred_at=now - dt.timedelta(minutes=5),
        day=gaming_day(),
        decks=[deck],
        officer_informed=officer,
        officer_informed_at=now - dt.timedelta(minutes=4),
        circumstances="Corne au dos d'un roi",
    )


def late_reported_incident(director: Any, officer: Any, deck: Any, day: dt.date) -> Any:
    """An incident on ``deck`` (a marked card) of gaming day ``day`` that occurred three days ago
    and is reported to ``officer`` only now."""
    from django.utils import timezone

    from cards_registry import services

    now = timezone.now()
    return services.report_incident(
        actor=director,
        kind="marked",
        occurred_at=now - dt.timedelta(days=3),
        day=day,
        decks=[deck],
        officer_informed=officer,
        officer_informed_at=now,
        circumstances="Signalé trois jours après",
    )


def close_session(staff: dict[str, Any], session: Any, cash: str = "31000.00", **kw: Any) -> Any:
    """The séance closed by ``staff``'s director (or ``actor``) with ``cash`` counted by its
    croupier (or ``counted_by``) and certified exact; played first when the cash differs from
    the advances and it has no shoe (a result only with the depot's decks in a shoe)."""
    from tables import services

    if Decimal(cash) != session.advances_total and not session.shoes.exists():
        play(session)
    return services.close_session(
        actor=kw.pop("actor", staff["director"]),
        session=session,
        closing_cash=Decimal(cash),
        counted_by=kw.pop("counted_by", staff["croupier"]),
        certified_exact=kw.pop("certified_exact", True),
        **kw,
    )


def other_passkey_pem() -> bytes:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    return ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
