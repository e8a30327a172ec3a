"""The carnet d'enregistrement des orphelins (LU art. 8; under FR, an internal book).

Sums found on the floor, left on a table or abandoned in play are paid at once into the
casino's cash and entered here; a rightful owner who proves his right is repaid; at the
end of the exercise (the calendar year) the balance is paid to the commune's bureau de
bienfaisance, the account is balanced to zero and the director notifies the Minister of
Finance.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.regulations import cite
from tables import selectors as tables

from ..models import OrphanEntry, OrphanRepayment, OrphanTransfer
from ..rules import orphans as rules
from ..rules.common import money, required_text
from ..selectors import orphan_balance, orphan_entry_balance
from ._shared import create, profile

RULE = "house.orphans"


def _lock() -> None:
    """Orphan acts queue on one lock: numbers and balances are read and written in turn."""
    if connection.vendor != "postgresql":
        return  # SQLite (the quick start) runs one writing transaction at a time
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('house_books.orphans'))")


def _refuse_closed(exercise: int, article: str, field: str) -> None:
    rules.check_exercise_open(
        exercise, OrphanTransfer.objects.filter(exercise=exercise).exists(), article, field
    )


@declare_act(
    act=Act.HOUSE_BOOKS,
    action=Action.HOUSE_ORPHAN_RECORDED,
    article="house.orphans",
    gate_cites_article=True,
)
@transaction.atomic
def record_orphan(
    *,
    actor: User,
    found_at: dt.datetime,
    kind: str,
    description: str,
    amount: Decimal | str | None = None,
    stake: Decimal | str | None = None,
    winnings: Decimal | str | None = None,
    table_number: int | None = None,
) -> OrphanEntry:
    """A sum found, paid at once into the casino's cash and entered in the carnet (LU art. 8).

    For a sum abandoned in play the amount is the forgotten stake plus its winnings up to
    the moment it is found abandoned (``stake`` and ``winnings``; ``amount`` is their sum).
    """
    article = cite(RULE, profile())
    rules.check_kind(kind, article)
    rules.check_found_at(found_at, tables.acts_now(), article)
    description = required_text(description, "description", _("les circonstances de la découverte"), article)
    stake_value, winnings_value, total = rules.amounts(
        kind=kind, amount=amount, stake=stake, winnings=winnings, table_number=table_number, article=article
    )
    exercise = timezone.localtime(found_at).year
    _lock()
    _refuse_closed(exercise, article, "found_at")
    number = (OrphanEntry.objects.aggregate(n=Max("number"))["n"] or 0) + 1
    entry = create(
        OrphanEntry,
        article,
        number=number,
        exercise=exercise,
        found_at=found_at,
        kind=kind,
        table_number=table_number,
        stake=stake_value,
        winnings=winnings_value,
        amount=total,
        description=description,
        recorded_by=actor,
        recorded_at=tables.acts_now(),  # when written: a late entry shows (LU art. 8, "immédiatement")
    )
    audit.record(
        actor=actor,
        action=Action.HOUSE_ORPHAN_RECORDED,
        obj=entry,
        payload={
            "number": number,
            "exercise": exercise,
            "found_at": found_at,
            "kind": kind,
            "table": table_number,
            "stake": stake_value,
            "winnings": winnings_value,
            "amount": total,
            "description": description,
        },
    )
    return entry


@declare_act(
    act=Act.HOUSE_BOOKS,
    action=Action.HOUSE_ORPHAN_REPAID,
    article="house.orphans",
    gate_cites_article=True,
)
@transaction.atomic
def repay_orphan(
    *,
    actor: User,
    entry: OrphanEntry,
    repaid_on: dt.date,
    amount: Decimal | str,
    owner_name: str,
    owner_address: str,
    proof: str,
) -> OrphanRepayment:
    """A sum given back to its rightful owner who proved his right (LU art. 8).

    The total of the orphans is struck at the date of the repayment and the repayment
    deducted from it, with the owner's name and address, his proof and the original entry.
    """
    article = cite(RULE, profile())
    _lock()
    entry = OrphanEntry.objects.get(pk=entry.pk)
    value = money(amount, "amount", article)
    owner_name = required_text(owner_name, "owner_name", _("le nom du propriétaire"), article)
    owner_address = required_text(owner_address, "owner_address", _("l'adresse du propriétaire"), article)
    proof = required_text(proof, "proof", _("les justifications produites"), article)
    rules.check_repaid_on(repaid_on, entry.found_at, entry.number, article, now=timezone.now())
    _refuse_closed(entry.exercise, article, "entry")
    left = orphan_entry_balance(entry)
    rules.check_repay_within(value, left, entry.number, article)
    total_before = orphan_balance(entry.exercise)
    repayment = create(
        OrphanRepayment,
        article,
        entry=entry,
        repaid_on=repaid_on,
        amount=value,
        total_before=total_before,
        owner_name=owner_name,
        owner_address=owner_address,
        proof=proof,
        recorded_by=actor,
    )
    audit.record(
        actor=actor,
        action=Action.HOUSE_ORPHAN_REPAID,
        obj=repayment,
        payload={
            "entry": entry.number,
            "repaid_on": repaid_on,
            "amount": value,
            "total_before": total_before,
            "owner_name": owner_name,
            "owner_address": owner_address,
            "proof": proof,
        },
    )
    return repayment


@declare_act(
    act=Act.TRANSFER_ORPHANS,
    action=Action.HOUSE_ORPHANS_TRANSFERRED,
    article="house.orphans",
    gate_cites_article=True,
)
@transaction.atomic
def transfer_orphans(
    *,
    actor: User,
    exercise: int,
    transferred_on: dt.date,
    amount: Decimal | str,
    commune: str,
    receipt: str,
    minister_notified_on: dt.date,
) -> OrphanTransfer:
    """The balance of the exercise paid to the commune's bureau de bienfaisance (LU art. 8).

    The receipt of the commune's receiver discharges the casino; the amount must be the
    whole balance (the account is left at zero); the director notifies the Minister of
    Finance at once.
    """
    article = cite(RULE, profile())

    exercise = rules.exercise_year(exercise, article)
    value = money(amount, "amount", article, allow_zero=True)
    commune = required_text(commune, "commune", _("la commune, siège du casino"), article)
    receipt = required_text(receipt, "receipt", _("la quittance du receveur communal"), article)
    rules.check_transfer_days(exercise, transferred_on, minister_notified_on, article, now=timezone.now())
    _lock()
    _refuse_closed(exercise, article, "exercise")
    balance = orphan_balance(exercise)
    rules.check_whole_balance(value, balance, exercise, article)
    transfer = create(
        OrphanTransfer,
        article,
        exercise=exercise,
        transferred_on=transferred_on,
        amount=value,
        commune=commune,
        receipt=receipt,
        minister_notified_on=minister_notified_on,
        recorded_by=actor,
    )
    audit.record(
        actor=actor,
        action=Action.HOUSE_ORPHANS_TRANSFERRED,
        obj=transfer,
        payload={
            "exercise": exercise,
            "transferred_on": transferred_on,
            "amount": value,
            "commune": commune,
            "receipt": receipt,
            "minister_notified_on": minister_notified_on,
        },
    )
    return transfer
