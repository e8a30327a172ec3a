"""Purchase orders and their lines (FR art. 39, model n° 21; LU art. 6)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import npgettext

from audit.books import BookManager
from casino_ops.validators import validate_date_window, validate_no_control_characters

from ..colours import colour
from .makers import Book, Manufacturer

USER = settings.AUTH_USER_MODEL


class Unit(models.TextChoices):
    DECK = "deck", _("jeu")
    SIXAIN = "sixain", _("sixain")


class Order(models.Model):
    """A purchase order from the order book (FR model n° 21), numbered without gaps."""

    book = models.ForeignKey(Book, verbose_name=_("carnet"), on_delete=models.PROTECT, related_name="orders")
    number = models.PositiveIntegerField(_("numéro"))
    manufacturer = models.ForeignKey(
        Manufacturer, verbose_name=_("fabricant"), on_delete=models.PROTECT, related_name="orders"
    )
    ordered_on = models.DateField(_("date du bon"), validators=[validate_date_window])
    recorded_at = models.DateTimeField(_("enregistré le"), auto_now_add=True)
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("établi par"), on_delete=models.PROTECT, related_name="+"
    )
    note = models.CharField(
        _("observations"), max_length=300, blank=True, validators=[validate_no_control_characters]
    )
    sent_at = models.DateTimeField(_("envoyé le"), null=True, blank=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("bon de commande")
        verbose_name_plural = _("bons de commande")
        ordering = ["book__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["book", "number"], name="depot_order_unique_number"),
        ]

    def __str__(self) -> str:
        # as the portal and the registers name it: its book and its number in the book
        return _("Bon de commande n° %(book)s/%(number)s — %(maker)s") % {
            "book": self.book.number,
            "number": self.number,
            "maker": self.manufacturer.code,
        }


class OrderLine(models.Model):
    order = models.ForeignKey(Order, verbose_name=_("bon"), on_delete=models.PROTECT, related_name="lines")
    quantity = models.PositiveIntegerField(_("quantité"))
    unit = models.CharField(_("unité"), max_length=8, choices=Unit.choices)
    back_colour = models.CharField(
        _("couleur du dos"), max_length=32, validators=[validate_no_control_characters]
    )

    objects = BookManager()

    class Meta:
        verbose_name = _("ligne de commande")
        verbose_name_plural = _("lignes de commande")
        ordering = ["id"]

    def __str__(self) -> str:
        if self.unit == Unit.SIXAIN:
            unit = npgettext("order line", "sixain", "sixains", self.quantity)
        else:
            unit = npgettext("order line", "jeu", "jeux", self.quantity)
        return f"{self.quantity} {unit} {colour(self.back_colour)}"

    @property
    def decks(self) -> int:
        return self.quantity * (6 if self.unit == Unit.SIXAIN else 1)
