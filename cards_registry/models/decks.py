"""The decks of the depot and their states (FR art. 39-40, LU art. 6-7)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager
from casino_ops.validators import validate_no_control_characters

from ..colours import colour
from .makers import Manufacturer
from .receptions import Reception, Sixain


class DeckStatus(models.TextChoices):
    IN_CABINET = "in_cabinet", _("au dépôt")
    ISSUED = "issued", _("remis à une table")
    IN_PLAY = "in_play", _("en jeu")
    OUT_OF_USE = "out_of_use", _("hors d'usage (au dépôt)")
    QUARANTINED = "quarantined", _("consigné (incident)")
    DESTROYED = "destroyed", _("détruit")


class Deck(models.Model):
    """A deck of 52 cards, known by its maker's serial number (unique per maker)."""

    manufacturer = models.ForeignKey(
        Manufacturer, verbose_name=_("fabricant"), on_delete=models.PROTECT, related_name="decks"
    )
    serial = models.CharField(
        _("numéro de série"), max_length=64, validators=[validate_no_control_characters]
    )
    back_colour = models.CharField(
        _("couleur du dos"), max_length=32, validators=[validate_no_control_characters]
    )
    status = models.CharField(
        _("état"), max_length=16, choices=DeckStatus.choices, default=DeckStatus.IN_CABINET
    )
    reception = models.ForeignKey(
        Reception, verbose_name=_("prise en charge"), on_delete=models.PROTECT, related_name="decks"
    )
    sixain = models.ForeignKey(
        Sixain,
        verbose_name=_("sixain"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="decks",
    )
    unsealed_at = models.DateTimeField(_("descellé le"), null=True, blank=True)
    status_before_quarantine = models.CharField(
        _("état avant consignation"), max_length=16, blank=True, editable=False
    )

    objects = BookManager()

    class Meta:
        verbose_name = _("jeu de cartes")
        verbose_name_plural = _("jeux de cartes")
        ordering = ["manufacturer__code", "serial"]
        constraints = [
            models.UniqueConstraint(fields=["manufacturer", "serial"], name="depot_deck_unique_serial"),
        ]
        indexes = [models.Index(fields=["status"], name="depot_deck_status")]

    def __str__(self) -> str:
        return _("Jeu %(serial)s (%(colour)s)") % {"serial": self.serial, "colour": colour(self.back_colour)}
