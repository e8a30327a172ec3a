"""Receipt-book entries and the sixains received (FR art. 39, model n° 19; LU art. 6)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager
from casino_ops.validators import validate_date_window, validate_no_control_characters

from .makers import Book, Manufacturer
from .orders import Order

USER = settings.AUTH_USER_MODEL


class Reception(models.Model):
    """An entry of the receipt book (FR model n° 19, carnet de prise en charge)."""

    book = models.ForeignKey(
        Book, verbose_name=_("carnet"), on_delete=models.PROTECT, related_name="receptions"
    )
    number = models.PositiveIntegerField(_("numéro"))
    order = models.ForeignKey(
        Order, verbose_name=_("bon de commande"), on_delete=models.PROTECT, related_name="receptions"
    )
    manufacturer = models.ForeignKey(
        Manufacturer, verbose_name=_("fabricant"), on_delete=models.PROTECT, related_name="receptions"
    )
    received_on = models.DateField(_("date de réception"), validators=[validate_date_window])
    delivery_note = models.CharField(
        _("bordereau de livraison"), max_length=100, blank=True, validators=[validate_no_control_characters]
    )
    over_delivery = models.BooleanField(_("livraison excédentaire"), default=False)
    recorded_at = models.DateTimeField(_("enregistré le"), auto_now_add=True)
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("pris en charge par"), on_delete=models.PROTECT, related_name="+"
    )

    objects = BookManager()

    class Meta:
        verbose_name = _("prise en charge")
        verbose_name_plural = _("carnet de prise en charge")
        ordering = ["book__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["book", "number"], name="depot_reception_unique_number"),
        ]

    def __str__(self) -> str:
        return _("Prise en charge n° %(number)s") % {"number": self.number}


class Sixain(models.Model):
    """Six decks for blackjack: three of one back colour, three of the other (FR art. 55-4, LU art. 32)."""

    manufacturer = models.ForeignKey(
        Manufacturer, verbose_name=_("fabricant"), on_delete=models.PROTECT, related_name="sixains"
    )
    serial = models.CharField(
        _("numéro de série"), max_length=64, validators=[validate_no_control_characters]
    )
    reception = models.ForeignKey(
        Reception, verbose_name=_("prise en charge"), on_delete=models.PROTECT, related_name="sixains"
    )

    objects = BookManager()

    class Meta:
        verbose_name = _("sixain")
        verbose_name_plural = _("sixains")
        ordering = ["manufacturer__code", "serial"]
        constraints = [
            models.UniqueConstraint(fields=["manufacturer", "serial"], name="depot_sixain_unique_serial"),
        ]

    def __str__(self) -> str:
        return f"Sixain {self.serial}"
