"""The book of the shoe devices' cleanings (LU art. 40): the recipe's model, a book declared on
itself (``@book``: its fields bound to the audit chain, no ``books.py`` to add to)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager, book
from casino_ops.validators import validate_date_window
from house_books.models import ShoeDevice


@book("device", "cleaned_on", "recorded_by", "recorded_at")
class DeviceCleaning(models.Model):
    """A cleaning of a shoe device, recorded by the director."""

    device = models.ForeignKey(
        ShoeDevice, verbose_name=_("sabot"), on_delete=models.PROTECT, related_name="+"
    )
    cleaned_on = models.DateField(_("nettoyé le"), validators=[validate_date_window])
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("inscrit par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrit le"))

    objects = BookManager()

    class Meta:
        verbose_name = _("nettoyage d'un sabot")
        verbose_name_plural = _("nettoyages des sabots")
        ordering = ["recorded_at", "pk"]

    def __str__(self) -> str:
        return _("Nettoyage du sabot n° %(n)s") % {"n": self.device.number}
