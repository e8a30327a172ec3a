"""Closing down (LU art. 52; under FR, the casino's internal rules).

When the director stops the operation, he leaves the books (the special accounts of the
games, the players' index, the receipt and inventory book of cards, dice and shoes, the
order book of dice, the observations register) at the seat of the casino or with the
agents of control; the exclusion file, the cards, the shoes and the dice are destroyed or
handed to the successor before an officer of the Gendarmerie's special service, who sets
his visa on the act. After the closing down no séance opens.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from cards_registry import selectors as depot
from casino_ops import access
from casino_ops.access import Act
from casino_ops.regulations import RegulationError, cite

from ..models import ClosingDown, DeviceState, Disposal, DocumentsLeftAt, Exclusion, ShoeDevice
from ..rules.common import required_text
from ._shared import create, profile

RULE = "house.closing"


def _lock_book() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext('house_books.closing'))")


def _documents(value: Any, article: str) -> str:
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


@transaction.atomic
def record_closing(
    *,
    actor: User,
    closed_at: dt.datetime,
    documents_left_at: str,
    documents: Iterable[str] | str,
    disposal: str,
    officer_name: str,
    successor: str = "",
) -> ClosingDown:
    """The director closes the casino down: the books left, and every deck still held, every
    shoe device and the exclusion file destroyed or handed to ``successor`` before
    ``officer_name``. The devices leave the cabinet's book (state ``disposed``)."""
    article = cite(RULE, profile())
    access.require(actor, Act.CLOSE_DOWN, article=article)
    if not isinstance(closed_at, dt.datetime) or timezone.is_naive(closed_at):
        raise RegulationError(
            "FIELD_INVALID", _("Indiquez une date et une heure."), article, field="closed_at"
        )
    if closed_at > timezone.now():
        raise RegulationError("DATE_IN_FUTURE", _("Ce moment est dans le futur."), article, field="closed_at")
    if documents_left_at not in DocumentsLeftAt.values:
        raise RegulationError(
            "FIELD_INVALID",
            _("Les documents sont laissés au siège de l'établissement ou au service des agents."),
            article,
            field="documents_left_at",
        )
    documents_text = _documents(documents, article)
    if disposal not in Disposal.values:
        raise RegulationError(
            "FIELD_INVALID",
            _("Les cartes, les sabots et le fichier des exclus sont détruits ou remis au successeur."),
            article,
            field="disposal",
        )
    successor = str(successor or "").strip()
    if disposal == Disposal.SUCCESSOR:
        successor = required_text(successor, "successor", _("le successeur"), article)
    elif successor:
        raise RegulationError(
            "SUCCESSOR_NOT_EXPECTED",
            _("Un successeur n'est nommé que si les cartes et les sabots lui sont remis."),
            article,
            field="successor",
        )
    officer_name = required_text(
        officer_name, "officer_name", _("le fonctionnaire de la Gendarmerie présent"), article
    )
    _lock_book()
    if ClosingDown.objects.exists():
        raise RegulationError(
            "CLOSING_RECORDED", _("La cessation de l'exploitation est déjà inscrite."), article
        )
    if depot.decks_out().exists():
        raise RegulationError(
            "DECKS_AT_TABLES",
            _("Des jeux de cartes sont encore aux tables : rentrez-les au dépôt avant la cessation."),
            article,
            field="disposal",
        )
    devices = list(ShoeDevice.objects.select_for_update().exclude(state=DeviceState.DISPOSED))
    at_tables = [d.number for d in devices if d.state == DeviceState.ASSIGNED]
    if at_tables:
        raise RegulationError(
            "DEVICES_AT_TABLES",
            _("Des sabots sont encore affectés à une table (n° %(numbers)s) : rentrez-les à l'armoire.")
            % {"numbers": ", ".join(str(n) for n in at_tables)},
            article,
            field="disposal",
        )
    decks = [
        {"manufacturer": deck.manufacturer.code, "serial": deck.serial}
        for deck in depot.decks_in_cabinet_per_books()
    ]
    numbers = [device.number for device in devices]
    closing = create(
        ClosingDown,
        article,
        closed_at=closed_at,
        documents_left_at=documents_left_at,
        documents=documents_text,
        disposal=disposal,
        successor=successor,
        officer_name=officer_name,
        decks=decks,
        devices=numbers,
        exclusion_entries=Exclusion.objects.count(),
        recorded_by=actor,
    )
    ShoeDevice.objects.filter(pk__in=[d.pk for d in devices]).update(state=DeviceState.DISPOSED)
    audit.record(
        actor=actor,
        action=Action.HOUSE_CLOSING_RECORDED,
        obj=closing,
        payload={
            "closed_at": closed_at,
            "documents_left_at": documents_left_at,
            "documents": documents_text,
            "disposal": disposal,
            "successor": successor,
            "officer_name": officer_name,
            "decks": decks,
            "devices": numbers,
            "exclusion_entries": closing.exclusion_entries,
        },
    )
    return closing


@transaction.atomic
def stamp_closing(*, actor: User, closing: ClosingDown, remark: str = "") -> ClosingDown:
    """The officer who attended the closing down sets his visa on it."""
    article = cite(RULE, profile())
    access.require(
        actor,
        Act.VISA,
        code="VISA_OFFICER_ONLY",
        message=_("Seul un officier de police ou de contrôle vise la cessation de l'exploitation."),
        article=article,
        field="officer",
    )
    closing = ClosingDown.objects.select_for_update().get(pk=closing.pk)
    if closing.visa_by_id is not None:
        raise RegulationError("ALREADY_STAMPED", _("La cessation est déjà visée."), article)
    remark = str(remark or "").strip()
    closing.visa_by = actor
    closing.visa_at = timezone.now()
    closing.visa_remark = remark
    closing.full_clean(exclude=["decks", "devices"])
    closing.save(update_fields=["visa_by", "visa_at", "visa_remark"])
    audit.record(
        actor=actor,
        action=Action.HOUSE_CLOSING_STAMPED,
        obj=closing,
        payload={"officer": actor.get_username(), "remark": remark},
    )
    return closing
