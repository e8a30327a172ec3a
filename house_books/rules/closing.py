"""The checks of the closing down (LU art. 52; under FR, the casino's internal rules): pure,
no query."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops.regulations import RegulationError

from ..models import ClosingDown, Disposal, DocumentsLeftAt
from .common import required_text


def check_closed_at(closed_at: Any, article: str) -> None:
    if not isinstance(closed_at, dt.datetime) or timezone.is_naive(closed_at):
        raise RegulationError(
            "FIELD_INVALID", _("Indiquez une date et une heure."), article, field="closed_at"
        )
    if closed_at > timezone.now():
        raise RegulationError("DATE_IN_FUTURE", _("Ce moment est dans le futur."), article, field="closed_at")


def check_documents_left_at(documents_left_at: str, article: str) -> None:
    if documents_left_at not in DocumentsLeftAt.values:
        raise RegulationError(
            "FIELD_INVALID",
            _("Les documents sont laissés au siège de l'établissement ou au service des agents."),
            article,
            field="documents_left_at",
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
        raise RegulationError(
            "FIELD_REQUIRED",
            _("Indiquez les documents laissés aux agents (un par ligne)."),
            article,
            field="documents",
        )
    return "\n".join(lines)


def disposal_successor(disposal: str, successor: Any, article: str) -> str:
    """Destroyed, or handed to a successor named only then."""
    if disposal not in Disposal.values:
        raise RegulationError(
            "FIELD_INVALID",
            _("Les cartes, les sabots et le fichier des exclus sont détruits ou remis au successeur."),
            article,
            field="disposal",
        )
    name = str(successor or "").strip()
    if disposal == Disposal.SUCCESSOR:
        name = required_text(name, "successor", _("le successeur"), article)
    elif name:
        raise RegulationError(
            "SUCCESSOR_NOT_EXPECTED",
            _("Un successeur n'est nommé que si les cartes et les sabots lui sont remis."),
            article,
            field="successor",
        )
    return name


def check_not_recorded(recorded: bool, article: str) -> None:
    if recorded:
        raise RegulationError(
            "CLOSING_RECORDED", _("La cessation de l'exploitation est déjà inscrite."), article
        )


def check_no_decks_out(decks_out: bool, article: str) -> None:
    if decks_out:
        raise RegulationError(
            "DECKS_AT_TABLES",
            _("Des jeux de cartes sont encore aux tables : rentrez-les au dépôt avant la cessation."),
            article,
            field="disposal",
        )


def check_no_devices_at_tables(at_tables: list[int], article: str) -> None:
    if at_tables:
        raise RegulationError(
            "DEVICES_AT_TABLES",
            _("Des sabots sont encore affectés à une table (n° %(numbers)s) : rentrez-les à l'armoire.")
            % {"numbers": ", ".join(str(n) for n in at_tables)},
            article,
            field="disposal",
        )


def check_not_stamped(closing: ClosingDown, article: str) -> None:
    if closing.visa_by_id is not None:
        raise RegulationError("ALREADY_STAMPED", _("La cessation est déjà visée."), article)
