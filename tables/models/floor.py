"""Games, tables, delegations and the limits in force (FR art. 42, 53, 55-5; LU art. 9, 26, 33)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from audit.books import BookManager
from casino_ops import dates
from casino_ops.validators import validate_date_window, validate_no_control_characters

from ..blackjack.rules import MAX_BOXES

if TYPE_CHECKING:  # the stubs' helper types are a development dependency
    from django_stubs_ext import StrOrPromise


def _optional_user(label: StrOrPromise) -> models.ForeignKey[Any, Any]:
    """A user who may be named on an entry (signer, witness, key holder…); never deleted."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=label,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )


class Game(models.TextChoices):
    BLACKJACK = "blackjack", _("Black-jack")


class Table(models.Model):
    """A table of play: its number is that of its cash box and advance book (FR art. 42)."""

    number = models.PositiveSmallIntegerField(_("numéro"), unique=True)
    code = models.CharField(
        _("code"),
        max_length=16,
        unique=True,
        help_text=_("Identifiant dans les journaux de mains, ex. BJ03."),
    )
    game = models.CharField(
        pgettext_lazy("game played at a table", "jeu"),
        max_length=16,
        choices=Game.choices,
        default=Game.BLACKJACK,
    )
    boxes = models.PositiveSmallIntegerField(
        _("nombre de cases"),
        default=MAX_BOXES,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_BOXES)],  # boxes 1 to 7 (hand-log §2)
    )
    in_service = models.BooleanField(_("en service"), default=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["number"]

    def __str__(self) -> str:
        return f"{self.code} — {self.get_game_display()} n° {self.number}"


class Delegation(models.Model):
    """The director's delegate for the direction of play (LU art. 51 V): a committee member,
    approved as such by the minister, who may fix the maximum in the director's place. A dated
    act, never changed; it ends on ``valid_until`` (or by a later act ending it)."""

    delegate = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("délégué"), on_delete=models.PROTECT, related_name="+"
    )
    approval_reference = models.CharField(_("référence de l'agrément du ministre"), max_length=200)
    approved_on = models.DateField(_("agréé le"))
    valid_from = models.DateField(_("en vigueur du"))
    valid_until = models.DateField(_("en vigueur jusqu'au"), null=True, blank=True)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("directeur responsable"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    at = models.DateTimeField(_("acte du"))

    objects = BookManager()

    class Meta:
        verbose_name = _("délégation pour la direction des jeux")
        verbose_name_plural = _("délégations pour la direction des jeux")
        ordering = ["-valid_from", "-at"]

    def __str__(self) -> str:
        return f"{self.delegate} — {self.approval_reference} ({dates.day(self.valid_from)})"

    def covers(self, day: dt.date) -> bool:
        return self.valid_from <= day and (self.valid_until is None or day <= self.valid_until)


class AuthorisedMinimum(models.Model):
    """The authorised minimum stake changed by the authorisation decree (FR art. 55-5; LU art. 26,
    33): an act citing the decree (reference, date in force), stamped by an officer before it
    takes effect. Until the first such act, the casino's setting holds."""

    minimum = models.DecimalField(_("mise minimale autorisée"), max_digits=10, decimal_places=2)
    decree_reference = models.CharField(_("référence de l'arrêté"), max_length=200)
    decree_date = models.DateField(_("arrêté du"))
    in_force_on = models.DateField(_("en vigueur le"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("inscrit par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrit le"))
    stamped_by = _optional_user(_("visé par"))
    stamped_at = models.DateTimeField(_("visé le"), null=True, blank=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("minimum autorisé (arrêté)")
        verbose_name_plural = _("minima autorisés (arrêtés)")
        ordering = ["-in_force_on", "-recorded_at"]

    def __str__(self) -> str:
        return f"{dates.amount(self.minimum)} — {self.decree_reference} ({dates.day(self.in_force_on)})"


class MinistryNotice(models.Model):
    """LU art. 26 (by art. 33): a raised minimum is told to the Minister of Finances (or his
    delegate) eight days ahead. The notice is an act of its own, recorded when it is sent: the
    moment of its recording is the system's, the day the director says he sent it is his word,
    kept beside it; a séance opened with a raised minimum cites it."""

    minimum = models.DecimalField(_("minimum annoncé"), max_digits=12, decimal_places=2)
    sent_on = models.DateField(
        _("envoyée le (déclaré)"),
        validators=[validate_date_window],
        help_text=_("Le jour où le directeur dit avoir informé le ministre."),
    )
    reference = models.CharField(
        _("référence de l'information"),
        max_length=120,
        validators=[validate_no_control_characters],
        help_text=_("Le courrier ou l'accusé de réception."),
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("inscrite par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrite le"))

    objects = BookManager()

    class Meta:
        verbose_name = _("information du ministre (relèvement du minimum)")
        verbose_name_plural = _("informations du ministre (relèvement du minimum)")
        ordering = ["-recorded_at"]

    def __str__(self) -> str:
        return _("%(r)s — minimum %(m)s, inscrite le %(at)s") % {
            "r": self.reference,
            "m": dates.amount(self.minimum),
            "at": dates.moment(self.recorded_at),
        }
