"""The tips (LU art. 57; under FR, an internal book).

Tips belong to the company: paid at once into a box by whoever receives them, counted
every day in a register, the day's whole amount entered in the account "pourboires".
The count is made by one approved person before an approved witness.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.regulations import cite

from ..models import TipsCount
from ..rules import tips as rules
from ..rules.common import money, required_text
from ._shared import create, profile
from .approvals import check_approved

RULE = "house.tips"


@declare_act(
    act=Act.COUNT_TIPS,
    action=Action.HOUSE_TIPS_COUNTED,
    article="house.tips",
    gate_cites_article=True,
)
@transaction.atomic
def count_tips(
    *,
    actor: User,
    day: dt.date,
    box: str,
    amount: Decimal | str,
    witness: Any,
    counted_at: dt.datetime | None = None,
    note: str = "",
) -> TipsCount:
    """The count of the day's tips box, entered in the register and the account "pourboires"."""
    current = profile()
    article = cite(RULE, current)
    now = timezone.now()
    moment = counted_at or now
    rules.check_count_day(day, moment, article, now=now)
    box = required_text(box, "box", _("la tirelire"), article)
    value = money(amount, "amount", article, allow_zero=True)
    rules.check_witness(actor, witness, article)
    check_approved(actor, day, current, field="actor")
    check_approved(witness, day, current, field="witness")
    rules.check_not_counted(day, TipsCount.objects.select_for_update().filter(day=day).exists(), article)
    count = create(
        TipsCount,
        article,
        day=day,
        box=box,
        amount=value,
        counted_by=actor,
        witness=witness,
        counted_at=moment,
        note=str(note or "").strip(),
    )
    audit.record(
        actor=actor,
        action=Action.HOUSE_TIPS_COUNTED,
        obj=count,
        payload={
            "day": day,
            "box": box,
            "amount": value,
            "witness": witness.get_username(),
            "counted_at": moment,
            "note": count.note,
        },
    )
    return count
