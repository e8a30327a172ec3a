"""Shoe devices (LU art. 32 §3, 40, 52)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager
from casino_ops import dates
from casino_ops.validators import (
    validate_date_window,
    validate_no_control_characters,
)

USER = settings.AUTH_USER_MODEL


# -- Shoe devices (LU art. 32 §3, 40, 52) -------------------------------------------------------


class DeviceState(models.TextChoices):
    CABINET = "cabinet", _("dans l'armoire")
    ASSIGNED = "assigned", _("affecté à une table")
    DISPOSED = "disposed", _("détruit ou remis au successeur")


class ShoeDevice(models.Model):
    """A shoe (sabot) of an approved model, numbered by the casino, kept in the card cabinet."""

    number = models.PositiveIntegerField(_("numéro du casino"), unique=True)
    approved_model = models.CharField(
        _("modèle agréé"), max_length=120, validators=[validate_no_control_characters]
    )
    approval_reference = models.CharField(
        _("décision d'agrément du modèle"), max_length=120, validators=[validate_no_control_characters]
    )
    state = models.CharField(
        _("état"), max_length=16, choices=DeviceState.choices, default=DeviceState.CABINET
    )
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inscrit par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrit le"), default=timezone.now)  # the act's moment

    objects = BookManager()

    class Meta:
        verbose_name = _("sabot")
        verbose_name_plural = _("sabots")
        ordering = ["number"]

    def __str__(self) -> str:
        return _("Sabot n° %(number)s") % {"number": self.number}


class DeviceAssignment(models.Model):
    """A shoe device assigned by the director to a table for a séance (gaming day)."""

    device = models.ForeignKey(
        ShoeDevice, verbose_name=_("sabot"), on_delete=models.PROTECT, related_name="assignments"
    )
    table_number = models.PositiveSmallIntegerField(_("table"))
    day = models.DateField(_("journée"), validators=[validate_date_window])
    assigned_by = models.ForeignKey(
        USER, verbose_name=_("affecté par"), on_delete=models.PROTECT, related_name="+"
    )
    assigned_at = models.DateTimeField(_("affecté le"), default=timezone.now)  # the act's moment
    returned_at = models.DateTimeField(_("rentré à l'armoire le"), null=True, blank=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("affectation d'un sabot")
        verbose_name_plural = _("affectations des sabots")
        ordering = ["day", "table_number"]
        constraints = [
            models.UniqueConstraint(fields=["device", "day"], name="house_device_once_a_day"),
        ]

    def __str__(self) -> str:
        return _("Sabot n° %(number)s — table %(table)s — %(day)s") % {
            "number": self.device.number,
            "table": self.table_number,
            "day": dates.day(self.day),
        }
