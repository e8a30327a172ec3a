"""Corrections of registered entries (FR art. 68): a new entry, the old one stays."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager
from casino_ops import dates

from .at_tables import DeckReturn, ReturnLine, TableCheck, TableIssue
from .decks import Deck
from .destructions import Destruction
from .incidents import Incident
from .orders import Order
from .receptions import Reception, Sixain

USER = settings.AUTH_USER_MODEL


# The entries a correction may point at (exactly one per correction).
CORRECTED_ENTRIES = (
    "order",
    "reception",
    "incident",
    "destruction",
    "deck",
    "sixain",
    "table_issue",
    "table_check",
    "deck_return",
    "return_line",
)


def correction_key(model: type[models.Model]) -> str:
    """The field of :class:`Correction` pointing at an entry of ``model`` ("table_issue"…)."""
    import re

    return re.sub(r"(?<!^)(?=[A-Z])", "_", model.__name__).lower()


def _one_entry() -> models.Q:
    condition = models.Q()
    for name in CORRECTED_ENTRIES:
        condition |= models.Q(
            **{f"{name}__isnull": False},
            **{f"{other}__isnull": True for other in CORRECTED_ENTRIES if other != name},
        )
    return condition


class Correction(models.Model):
    """A correction of a registered entry (FR art. 68): a new entry, the old one stays."""

    order = models.ForeignKey(
        Order,
        verbose_name=_("bon"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="corrections",
    )
    reception = models.ForeignKey(
        Reception, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    incident = models.ForeignKey(
        Incident, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    destruction = models.ForeignKey(
        Destruction, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    deck = models.ForeignKey(
        Deck,
        verbose_name=_("jeu"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="corrections",
    )
    sixain = models.ForeignKey(
        Sixain, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    table_issue = models.ForeignKey(
        TableIssue,
        verbose_name=_("remise à une table"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="corrections",
    )
    table_check = models.ForeignKey(
        TableCheck,
        verbose_name=_("contrôle à la table"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="corrections",
    )
    deck_return = models.ForeignKey(
        DeckReturn,
        verbose_name=_("retour de table"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="corrections",
    )
    return_line = models.ForeignKey(
        ReturnLine,
        verbose_name=_("ligne de retour"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="corrections",
    )
    field = models.CharField(_("rubrique corrigée"), max_length=64)
    old_value = models.CharField(_("ancienne mention"), max_length=300)
    new_value = models.CharField(_("nouvelle mention"), max_length=300)
    reason = models.CharField(_("motif"), max_length=300)
    approval_words = models.CharField(_("approbation en toutes lettres"), max_length=300, blank=True)
    approved_by = models.ForeignKey(
        USER, verbose_name=_("approuvée par (directeur)"), on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(_("le"))

    objects = BookManager()

    class Meta:
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        ordering = ["at", "id"]
        constraints = [models.CheckConstraint(condition=_one_entry(), name="depot_correction_one_entry")]

    def __str__(self) -> str:
        return _("Correction de « %(field)s » (%(day)s)") % {"field": self.field, "day": dates.day(self.at)}
