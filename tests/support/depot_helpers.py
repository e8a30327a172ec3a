"""The card depot's acts a shoe needs: decks issued to a table for a day, then unsealed there."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def issue_and_check(
    *, director: Any, croupier: Any, table_number: int, day: Any, decks: Sequence[Any], check: bool = True
) -> Any:
    """Issue ``decks`` to ``table_number`` for ``day`` and (``check``) unseal each at the table (FR: on video)."""
    from cards_registry import services as depot

    issue = depot.issue_decks(
        actor=director, table_number=table_number, day=day, decks=decks, received_by=croupier
    )
    if check:
        for deck in decks:
            depot.check_at_table(
                actor=croupier,
                deck=deck,
                table_number=table_number,
                day=day,
                witness="Chef de partie",
                order_checked=True,
                cards_counted=52,
                band_intact=True,
                video_reference="CAM-1",
            )
    return issue


def issue_today(director: Any, decks: list[Any], **kw: Any) -> None:
    """``decks`` issued to table 1 for the gaming day."""
    from cards_registry import services
    from tests.support.builders import gaming_day

    services.issue_decks(actor=director, table_number=1, day=gaming_day(), decks=decks, **kw)


def shoe_with_a_foreign_card(
    staff: dict[str, Any], depot_decks: Sequence[Any], session: Any
) -> tuple[Any, Any, dict[str, Any]]:
    """The A1 decks of the depot issued to ``session``'s table, unsealed there and put in a shoe
    of the séance by its croupier: the decks, the shoe, and the shoe's simulated log whose first
    card is no card (``ZZ``: a foreign card for the replay)."""
    from tables import services
    from tables.blackjack.simulator import simulate_shoe

    a1 = [d for d in depot_decks if d.serial.startswith("A1-")]
    issue_and_check(
        director=staff["director"],
        croupier=staff["croupier"],
        table_number=session.table.number,
        day=session.day,
        decks=a1,
    )
    shoe = services.fill_shoe(actor=staff["croupier"], session=session, deck_ids=[d.pk for d in a1])
    log = simulate_shoe(1, "FR", table="BJ03", shoe_id=shoe.label, limits=("10.00", "1000.00"))
    log["rounds"][0]["cards"][0] = "ZZ"
    return a1, shoe, log
