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
