"""Destructions of decks and the officers' visas (FR art. 40, LU art. 7)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager
from casino_ops import dates

from .cabinet import CabinetOpening
from .decks import Deck
from .makers import Book
from .orders import Order
from .receptions import Reception

USER = settings.AUTH_USER_MODEL


class Destruction(models.Model):
    """Decks out of use destroyed in front of an officer (FR art. 39, LU art. 6)."""

    book = models.ForeignKey(
        Book, verbose_name=_("registre"), on_delete=models.PROTECT, related_name="destructions"
    )
    number = models.PositiveIntegerField(_("numéro"))
    at = models.DateTimeField(_("le"))
    officer = models.ForeignKey(
        USER, verbose_name=_("officier témoin"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("détruit par"), on_delete=models.PROTECT, related_name="+"
    )
    opening = models.OneToOneField(
        CabinetOpening, verbose_name=_("ouverture"), on_delete=models.PROTECT, related_name="destruction"
    )
    method = models.CharField(_("mode de destruction"), max_length=150, default="broyage")

    objects = BookManager()

    class Meta:
        verbose_name = _("destruction")
        verbose_name_plural = _("destructions")
        ordering = ["book__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["book", "number"], name="depot_destruction_unique_number")
        ]

    def __str__(self) -> str:
        return _("Destruction n° %(number)s") % {"number": self.number}


class DestructionLine(models.Model):
    """The officer's check of one deck: complete and unmarked."""

    destruction = models.ForeignKey(Destruction, on_delete=models.PROTECT, related_name="lines")
    deck = models.OneToOneField(
        Deck, verbose_name=_("jeu"), on_delete=models.PROTECT, related_name="destruction_line"
    )
    complete = models.BooleanField(_("complet"))
    unmarked = models.BooleanField(_("non marqué"))
    remark = models.CharField(_("observations"), max_length=300, blank=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("jeu détruit")
        verbose_name_plural = _("jeux détruits")
        ordering = ["id"]

    def __str__(self) -> str:
        return _("%(deck)s détruit") % {"deck": self.deck}


class Visa(models.Model):
    """An officer's stamp on an order, a receipt-book entry or a destruction."""

    order = models.OneToOneField(
        Order, verbose_name=_("bon"), null=True, blank=True, on_delete=models.PROTECT, related_name="visa"
    )
    reception = models.OneToOneField(
        Reception, null=True, blank=True, on_delete=models.PROTECT, related_name="visa"
    )
    destruction = models.OneToOneField(
        Destruction, null=True, blank=True, on_delete=models.PROTECT, related_name="visa"
    )
    officer = models.ForeignKey(USER, verbose_name=_("officier"), on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("visé le"))
    remark = models.CharField(_("observations"), max_length=300, blank=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("visa")
        verbose_name_plural = _("visas")
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(order__isnull=False, reception__isnull=True, destruction__isnull=True)
                    | models.Q(order__isnull=True, reception__isnull=False, destruction__isnull=True)
                    | models.Q(order__isnull=True, reception__isnull=True, destruction__isnull=False)
                ),
                name="depot_visa_one_entry",
            )
        ]

    def __str__(self) -> str:
        return _("Visa de %(officer)s (%(at)s)") % {"officer": self.officer, "at": dates.moment(self.at)}
