"""What the acts of these books share: the profile, who may act, checked creation."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any, TypeVar

from django.db.models import Model
from django.utils.translation import gettext as _

from casino_ops import access
from casino_ops.access import Act
from casino_ops.regulations import RegulationError
from casino_ops.services import get_casino
from casino_ops.validation import validate_fields

M = TypeVar("M", bound=Model)
CENT = Decimal("0.01")


def profile() -> str:
    return get_casino().profile


def require_management(actor: Any, article: str) -> None:
    """The books are kept by the director or a committee member; a refusal cites the book's
    own article (``article``), never an empty one."""
    access.require(actor, Act.HOUSE_BOOKS, article=article)


def create(model: type[M], article: str, /, **values: Any) -> M:
    """``model.objects.create(**values)``, its values checked first against their fields."""
    instance = model(**values)
    validate_fields(instance, article)
    instance.save(force_insert=True)
    return instance


def money(value: Any, field: str, article: str, *, allow_zero: bool = False) -> Decimal:
    """A positive amount in cents, or a refusal naming ``field``."""
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError, TypeError):
        amount = None
    if amount is None or not amount.is_finite() or amount != amount.quantize(CENT) or amount < 0:
        raise RegulationError(
            "AMOUNT_INVALID",
            _("Le montant « %(value)s » n'est pas une somme positive en centimes.") % {"value": value},
            article,
            field=field,
        )
    if amount == 0 and not allow_zero:
        raise RegulationError("AMOUNT_ZERO", _("Le montant ne peut pas être nul."), article, field=field)
    return amount


def required_text(value: Any, field: str, label: str, article: str) -> str:
    text = str(value or "").strip()
    if not text:
        raise RegulationError(
            "FIELD_REQUIRED", _("Indiquez %(what)s.") % {"what": label}, article, field=field
        )
    return text
