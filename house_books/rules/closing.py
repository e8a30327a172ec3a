"""The checks of the closing down (LU art. 52; under FR, the casino's internal rules): pure,
no query."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops.refusals import Refusal

from ..models import ClosingDown, Disposal, DocumentsLeftAt
from .common import required_text


def check_closed_at(closed_at: Any, article: str, *, now: dt.datetime) -> None:
    if not isinstance(closed_at, dt.datetime) or timezone.is_naive(closed_at):
        raise Refusal.FIELD_INVALID.error(article=article, field="closed_at")
    if closed_at > now:
        raise Refusal.DATE_IN_FUTURE_HOUSE_CLOSING.error(article=article)


def check_documents_left_at(documents_left_at: str, article: str) -> None:
    if documents_left_at not in DocumentsLeftAt.values:
        raise Refusal.FIELD_INVALID.error(
            article=article,
            field="documents_left_at",
            message=_("Les documents sont laissés au siège de l'établissement ou au service des agents."),
        )


def documents(value: Any, article: str) -> str:
    """The documents left, one a line."""
    if isinstance(value, str):
        lines = value.splitlines()
    elif isinstance(value, Iterable):
        lines = [str(item) for item in value]
    else:
        lines = []
    lines = [line.strip() for line in lines if line.strip()]
    if not lines:
        raise Refusal.FIELD_REQUIRED_HOUSE_CLOSING.error(article=article)
    return "\n".join(lines)


def disposal_successor(disposal: str, successor: Any, article: str) -> str:
    """Destroyed, or handed to a successor named only then."""
    if disposal not in Disposal.values:
        raise Refusal.FIELD_INVALID.error(
            article=article,
            field="disposal",
            message=_(
                "Les cartes, les sabots et le fichier des exclus sont détruits ou remis au successeur."
            ),
        )
    name = str(successor or "").strip()
    if disposal == Disposal.SUCCESSOR:
        name = required_text(name, "successor", _("le successeur"), article)
    elif name:
        raise Refusal.SUCCESSOR_NOT_EXPECTED.error(article=article)
    return name


def check_not_recorded(recorded: bool, article: str) -> None:
    if recorded:
        raise Refusal.CLOSING_RECORDED.error(article=article)


def check_no_decks_out(decks_out: bool, article: str) -> None:
    if decks_out:
        raise Refusal.DECKS_AT_TABLES.error(article=article)


def check_no_devices_at_tables(at_tables: list[int], article: str) -> None:
    if at_tables:
        raise Refusal.DEVICES_AT_TABLES.error(article=article, numbers=", ".join(str(n) for n in at_tables))


def check_not_stamped(closing: ClosingDown, article: str) -> None:
    if closing.visa_by_id is not None:
        raise Refusal.ALREADY_STAMPED_HOUSE_CLOSING.error(article=article)
