"""Demo data of the card depot (``manage.py seed_demo``), idempotent.

Two makers approved by the ministry, each approval stamped by the officer (and, under LU,
the ministry's sixain cap); a year of monthly orders, each stamped by the officer, delivered
and received into the receipt book (stamped too), in sixains of three blue and three red
decks; an order stamped and sent but not yet delivered, and one stamped not yet sent; the key
held by the director; today: a sixain issued to table 1, unsealed, returned, one of
its decks worn out and destroyed in front of the officer (:func:`destroyed_demo_deck`),
another marked and kept out of use; an incident at table 3 closed by the officer;
an inspection demanded by the officer that found a foreign card (incident closed by the
officer, the deck out of use); sixains issued to tables 1 and 2 for today's play.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from casino_ops import clock, roles

from . import services
from .models import Deck, Incident, Manufacturer, SixainCap

MAKER_CODE = "CDF"
OTHER_MAKER_CODE = "MVAL"
COLOURS = ("bleu", "rouge")
SIXAINS_PER_MONTH = 4


def _serial(month: dt.date, sixain: int, deck: int) -> str:
    return f"{MAKER_CODE}{month:%y%m}-{sixain}{deck}"


def _sixains(month: dt.date) -> list[services.SixainData]:
    return [
        {
            "serial": f"SX{month:%y%m}-{s}",
            "decks": [
                {"serial": _serial(month, s, d), "back_colour": COLOURS[0] if d <= 3 else COLOURS[1]}
                for d in range(1, 7)
            ],
        }
        for s in range(1, SIXAINS_PER_MONTH + 1)
    ]


def _months(today: dt.date) -> list[dt.date]:
    """The first day of each of the last twelve months, oldest first (this month last)."""
    months = []
    year, month = today.year, today.month
    for _ in range(12):
        months.append(dt.date(year, month, 1))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return months[::-1]


def destroyed_demo_deck(today: dt.date) -> str:
    """The serial of the deck the demo seeded on ``today`` wears out and destroys: the sixth
    deck of this month's first sixain (read from the day of seeding, never from the day the
    module was imported: a month may have turned in between)."""
    return _serial(_months(today)[-1], 1, 6)


def _marking_incident(director: Any, officer: Any, maker: Manufacturer, day: dt.date) -> Incident:
    """A card incident of ``day`` at table 2 (FR art. 40 §5, LU art. 7 §5): a deck received
    before it, reported on the spot to the officer, who closes it (the deck out of use)."""
    seen = timezone.make_aware(dt.datetime.combine(day, dt.time(22, 10)))
    deck = (
        Deck.objects.filter(manufacturer=maker, status="in_cabinet", reception__received_on__lt=day)
        .order_by("serial")
        .last()
    )
    assert deck is not None, "the demo's receptions come before its incidents"
    with clock.history_at(seen + dt.timedelta(minutes=5)):
        incident = services.report_incident(
            actor=director,
            kind="marked",
            occurred_at=seen,
            day=day,
            decks=[deck],
            officer_informed=officer,
            officer_informed_at=seen + dt.timedelta(minutes=2),
            circumstances="Un joueur surpris à marquer les cartes à l'ongle à la table 2 ; le jeu est retiré.",
            table_number=2,
        )
    with clock.history_at(seen + dt.timedelta(minutes=40)):
        services.close_incident(
            actor=officer,
            incident=incident,
            finding="Marques d'ongle confirmées au dos de trois cartes : jeu hors d'usage.",
        )
    return incident


def seed(context: dict[str, Any]) -> None:
    if Manufacturer.objects.filter(code=MAKER_CODE).exists():
        return
    users = context["users"]
    director, committee = users[roles.DIRECTOR], users[roles.COMMITTEE]
    officer, croupier = users[roles.OFFICER], users[roles.CROUPIER]
    today = clock.demo_today()
    ministry = "Ministère des Finances" if context.get("profile") == "LU" else "Ministère de l'Intérieur"

    maker = services.register_manufacturer(
        actor=director,
        code=MAKER_CODE,
        name="Cartes de France SA",
        approval_reference="Agrément NOR INTD2001234A",
        ministry=ministry,
        valid_from=dt.date(2020, 1, 1),
    )
    other = services.register_manufacturer(
        actor=director,
        code=OTHER_MAKER_CODE,
        name="Manufacture Valois",
        approval_reference="Agrément NOR INTD2305678A",
        ministry=ministry,
        valid_from=dt.date(2023, 6, 1),
        valid_until=dt.date(today.year + 2, 12, 31),
    )
    # the officer checks each approval against the ministry's act and stamps it (FR art. 39, LU art. 6)
    for approved in (maker, other):
        services.stamp_maker_approval(
            actor=officer, manufacturer=approved, remark="Agrément vérifié sur l'arrêté du ministère"
        )
    if context.get("profile") == "LU":  # the ministry's number, with its decision (LU art. 6)
        services.set_max_sixains(
            actor=director, max_sixains=500, reference="Ministère des Finances, décision MF/CARTES/2020-07"
        )
        services.stamp_sixain_cap(
            actor=officer,
            sixain_cap=SixainCap.objects.get(),
            remark="Décision du ministère vue",
        )
    services.hand_over_key(actor=director, receiver=director, reason="Détenteur de la clé unique du dépôt")

    decks_per_colour = SIXAINS_PER_MONTH * 3
    for month in _months(today):
        order = services.create_order(
            actor=director,
            manufacturer=maker,
            ordered_on=month,
            lines=[
                {"quantity": decks_per_colour, "unit": "deck", "back_colour": COLOURS[0]},
                {"quantity": decks_per_colour, "unit": "deck", "back_colour": COLOURS[1]},
            ],
            note=f"Approvisionnement de {month:%m/%Y}",
        )
        services.stamp_order(actor=officer, order=order)
        services.send_order(actor=director, order=order)
        # each month's delivery written the day it arrived (the demo's past, as it was then)
        with clock.history_at(dt.datetime.combine(month, dt.time(10, 0))):
            reception = services.receive(
                actor=director,
                order=order,
                received_on=month,
                sixains=_sixains(month),
                delivery_note=f"BL {month:%Y%m}-01",
            )
        services.stamp_reception(actor=officer, reception=reception)
    # Fourteen days ago at table 2, a player marked the cards: the incident behind his exclusion
    # (house_books' demo), reported on the spot, closed by the officer (the deck out of use).
    marking = _marking_incident(director, officer, maker, today - dt.timedelta(days=14))
    pending = services.create_order(
        actor=committee,
        manufacturer=other,
        ordered_on=today,
        lines=[{"quantity": 10, "unit": "sixain", "back_colour": "vert"}],
        note="Essai d'un second fabricant",
    )
    services.stamp_order(actor=officer, order=pending)
    services.send_order(actor=committee, order=pending)
    # an order of today, stamped by the officer, to be sent
    services.stamp_order(
        actor=officer,
        order=services.create_order(
            actor=director,
            manufacturer=maker,
            ordered_on=today,
            lines=[{"quantity": 24, "unit": "deck", "back_colour": "bleu"}],
            note="Réassort de jeux bleus, visé, à envoyer",
        ),
    )

    def sixain(month: dt.date, number: int) -> list[Deck]:
        return list(
            Deck.objects.filter(manufacturer=maker, sixain__serial=f"SX{month:%y%m}-{number}").order_by(
                "serial"
            )
        )

    months = _months(today)
    # Table 1 today: a sixain unsealed, played, returned; one deck worn (destroyed), one marked.
    played = sixain(months[-1], 1)
    services.issue_decks(actor=director, table_number=1, day=today, decks=played, received_by=croupier)
    for index, deck in enumerate(played, start=1):
        services.check_at_table(
            actor=croupier,
            deck=deck,
            table_number=1,
            day=today,
            witness="Inspecteur de salle M. Garnier",
            order_checked=True,
            cards_counted=52,
            band_intact=True,
            video_reference=f"CAM-BJ01-{today:%Y%m%d}-{index}",
        )
    worn = next(d for d in played if d.serial == destroyed_demo_deck(today))
    marked = played[0]
    # The marked deck found at the return is an incident, reported on the spot to the officer,
    # who examines the deck and closes the incident (deck out of use).
    services.return_decks(
        actor=director,
        table_number=1,
        day=today,
        results=[
            (d, "worn", "Coins usés", 52)
            if d == worn
            else (d, "marked", "Trace d'ongle au dos", 52)
            if d == marked
            else (d, "fit", "", 52)
            for d in played
        ],
        officer_informed=officer,
        officer_informed_at=timezone.now(),
    )
    returned_marked = Incident.objects.get(decks=marked, closure__isnull=True)
    services.close_incident(
        actor=officer,
        incident=returned_marked,
        finding="Trace d'ongle confirmée au dos : jeu hors d'usage, gardé complet jusqu'à sa destruction.",
    )
    destruction = services.destroy_decks(
        actor=director,
        officer=officer,
        checks=[{"deck": worn, "complete": True, "unmarked": True, "remark": "52 cartes, usure normale"}],
    )
    if destruction is not None:
        services.stamp_destruction(actor=officer, destruction=destruction)

    # Table 3 today: a marked card found during play; the officer closed the incident.
    at_three = sixain(months[-1], 2)
    services.issue_decks(actor=director, table_number=3, day=today, decks=at_three)
    now = timezone.now()
    incident = services.report_incident(
        actor=croupier,
        kind="marked",
        occurred_at=now - dt.timedelta(minutes=3),
        day=today,
        decks=[at_three[0]],
        officer_informed=officer,
        officer_informed_at=now - dt.timedelta(minutes=2),
        circumstances="Un roi de cœur présente une corne au coin supérieur, vue au ramassage.",
        table_number=3,
        shoe_reference="Sabot n° 2",
    )
    # Every deck comes back, the quarantined one too; then the officer closes the incident.
    services.return_decks(
        actor=director, table_number=3, day=today, results=[(d, "fit", "", 52) for d in at_three]
    )
    services.close_incident(
        actor=officer, incident=incident, finding="Corne confirmée, jeu retiré de l'usage."
    )

    # An inspection demanded by the officer: a foreign card in a cabinet deck; the officer
    # examines the deck and closes the incident (the deck out of use, FR art. 40 §5, LU art. 7 §5).
    services.open_for_inspection(actor=director, demanded_by=officer, note="Contrôle inopiné du dépôt")
    now = timezone.now()
    foreign = services.report_incident(
        actor=director,
        kind="foreign",
        occurred_at=now - dt.timedelta(minutes=1),
        day=today,
        decks=[sixain(months[-2], 1)[0]],
        officer_informed=officer,
        officer_informed_at=now,
        circumstances="Une carte d'un autre fabricant trouvée dans le jeu lors de l'inspection.",
    )
    services.close_incident(
        actor=officer,
        incident=foreign,
        finding="Carte étrangère confirmée : jeu hors d'usage, gardé jusqu'à sa destruction.",
    )

    # Today's play: sixains at tables 1 and 2 (one deck of table 2 already unsealed).
    # Table 1's second sixain is unsealed and checked at the table before it reaches a shoe.
    second = sixain(months[-1], 3)
    services.issue_decks(actor=director, table_number=1, day=today, decks=second)
    for index, deck in enumerate(second, start=7):
        services.check_at_table(
            actor=croupier,
            deck=deck,
            table_number=1,
            day=today,
            witness="Inspecteur de salle M. Garnier",
            order_checked=True,
            cards_counted=52,
            band_intact=True,
            video_reference=f"CAM-BJ01-{today:%Y%m%d}-{index}",
        )
    at_two = sixain(months[-1], 4)
    services.issue_decks(actor=director, table_number=2, day=today, decks=at_two)
    services.check_at_table(
        actor=croupier,
        deck=at_two[0],
        table_number=2,
        day=today,
        witness="Inspecteur de salle M. Garnier",
        order_checked=True,
        cards_counted=52,
        band_intact=True,
        video_reference=f"CAM-BJ02-{today:%Y%m%d}-1",
    )
    context["created"].append(
        "card depot (2 makers, 12 receptions, decks at tables 1-3, an incident, a destruction)"
    )
    context["depot"] = {
        "maker": maker,
        "destroyed_deck": destroyed_demo_deck(today),
        "marking_incident": marking,
    }
