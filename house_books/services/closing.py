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

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import audit
from audit.actions import Action
from cards_registry import selectors as depot
from casino_ops import officers
from casino_ops.access import Act
from casino_ops.acts import OfficerGate, declare_act
from casino_ops.officers import OfficerSignature
from casino_ops.regulations import cite

from ..models import ClosingDown, DeviceState, Exclusion, ShoeDevice
from ..rules import closing as rules
from ..rules.common import required_text
from ._shared import create, profile

RULE = "house.closing"


def _lock_book() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext('house_books.closing'))")


@declare_act(
    act=Act.CLOSE_DOWN,
    action=Action.HOUSE_CLOSING_RECORDED,
    article="house.closing",
    gate_cites_article=True,
)
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
    rules.check_closed_at(closed_at, article, now=timezone.now())
    rules.check_documents_left_at(documents_left_at, article)
    documents_text = rules.documents(documents, article)
    successor = rules.disposal_successor(disposal, successor, article)
    officer_name = required_text(
        officer_name, "officer_name", _("le fonctionnaire de la Gendarmerie présent"), article
    )
    _lock_book()
    rules.check_not_recorded(ClosingDown.objects.exists(), article)
    rules.check_no_decks_out(depot.decks_out().exists(), article)
    devices = list(ShoeDevice.objects.select_for_update().exclude(state=DeviceState.DISPOSED))
    rules.check_no_devices_at_tables([d.number for d in devices if d.state == DeviceState.ASSIGNED], article)
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


@declare_act(
    act=Act.VISA,
    action=Action.HOUSE_CLOSING_STAMPED,
    article=RULE,
    gate=OfficerGate(
        "VISA_OFFICER_ONLY",
        message=gettext_lazy(
            "Seul un officier de police ou de contrôle vise la cessation de l'exploitation."
        ),
    ),
)
@transaction.atomic
def stamp_closing(
    *, actor: User, closing: ClosingDown, remark: str = "", signature: OfficerSignature | None = None
) -> ClosingDown:
    """The officer who attended the closing down sets his visa on it."""
    article = cite(RULE, profile())
    closing = ClosingDown.objects.select_for_update().get(pk=closing.pk)
    rules.check_not_stamped(closing, article)
    remark = str(remark or "").strip()
    sealed = officers.seal(
        officer=actor,
        act=Action.HOUSE_CLOSING_STAMPED,
        target=closing,
        fields={"remark": remark},
        signature=signature,
    )
    closing.visa_by = actor
    closing.visa_at = timezone.now()
    closing.visa_remark = remark
    closing.full_clean(exclude=["decks", "devices"])
    closing.save(update_fields=["visa_by", "visa_at", "visa_remark"])
    audit.record(
        actor=actor,
        action=Action.HOUSE_CLOSING_STAMPED,
        obj=closing,
        payload={"officer": actor.get_username(), "remark": remark, officers.SIGNATURE_KEY: sealed},
    )
    return closing
