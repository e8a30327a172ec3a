"""The checks of the carnet d'enregistrement des orphelins (LU art. 8; under FR, internal
rules): pure, no query."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from casino_ops.regulations import RegulationError

from ..models import OrphanKind
from .common import money


def check_kind(kind: str, article: str) -> None:
    if kind not in OrphanKind.values:
        raise RegulationError(
            "ORPHAN_KIND_UNKNOWN",
            _(
                "Nature inconnue « %(kind)s » : trouvé à terre, laissé sur une table ou abandonné en cours de partie."
            )
            % {"kind": kind},
            article,
            field="kind",
        )


def check_found_at(found_at: Any, now: dt.datetime, article: str) -> None:
    """A moment, not after the acts' clock (``now``)."""
    if not isinstance(found_at, dt.datetime):
        raise RegulationError(
            "FIELD_INVALID", _("Indiquez la date et l'heure de la découverte."), article, field="found_at"
        )
    if found_at > now:
        raise RegulationError(
            "ORPHAN_IN_FUTURE",
            _("Une somme ne peut pas être trouvée dans le futur."),
            article,
            field="found_at",
        )


def amounts(
    *,
    kind: str,
    amount: Any,
    stake: Any,
    winnings: Any,
    table_number: int | None,
    article: str,
) -> tuple[Decimal | None, Decimal | None, Decimal]:
    """The stake, winnings and amount of a sum found: for a sum abandoned in play, the stake
    forgotten plus its winnings at its table; otherwise the amount alone."""
    stake_value: Decimal | None
    winnings_value: Decimal | None
    if kind == OrphanKind.ABANDONED:
        if stake is None:
            raise RegulationError(
                "ORPHAN_STAKE_REQUIRED",
                _("Pour une mise abandonnée en cours de partie, indiquez la mise initialement oubliée."),
                article,
                field="stake",
            )
        stake_value = money(stake, "stake", article)
        winnings_value = money(winnings if winnings is not None else 0, "winnings", article, allow_zero=True)
        total = stake_value + winnings_value
        if amount is not None and money(amount, "amount", article) != total:
            raise RegulationError(
                "ORPHAN_AMOUNT_MISMATCH",
                _("Le montant d'une mise abandonnée est la mise oubliée plus ses gains cumulés : %(total)s.")
                % {"total": total},
                article,
                field="amount",
            )
        if table_number is None:
            raise RegulationError(
                "ORPHAN_TABLE_REQUIRED",
                _("Indiquez la table où la mise a été abandonnée."),
                article,
                field="table_number",
            )
    else:
        if stake is not None or winnings is not None:
            raise RegulationError(
                "ORPHAN_STAKE_NOT_IN_PLAY",
                _("Mise et gains ne s'indiquent que pour une somme abandonnée en cours de partie."),
                article,
                field="stake",
            )
        if amount is None:
            raise RegulationError("FIELD_REQUIRED", _("Indiquez le montant trouvé."), article, field="amount")
        stake_value = winnings_value = None
        total = money(amount, "amount", article)
    return stake_value, winnings_value, total
