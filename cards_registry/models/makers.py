"""The approved makers, the numbered books and the depot's settings (FR art. 39, LU art. 6)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager
from casino_ops.validators import DateWindowValidator

USER = settings.AUTH_USER_MODEL


class Manufacturer(models.Model):
    """A card maker approved by the ministry (FR art. 39, LU art. 6)."""

    code = models.CharField(_("code"), max_length=32, unique=True)
    name = models.CharField(_("raison sociale"), max_length=200)
    approval_reference = models.CharField(_("référence de l'agrément"), max_length=200)
    ministry = models.CharField(_("ministère"), max_length=200)
    valid_from = models.DateField(_("agréé du"), validators=[DateWindowValidator(years_ahead=50)])
    valid_until = models.DateField(
        _("agréé jusqu'au"), null=True, blank=True, validators=[DateWindowValidator(years_ahead=50)]
    )
    registered_at = models.DateTimeField(_("enregistré le"), auto_now_add=True)
    registered_by = models.ForeignKey(
        USER, verbose_name=_("enregistré par"), on_delete=models.PROTECT, related_name="+"
    )

    objects = BookManager()

    class Meta:
        verbose_name = _("fabricant agréé")
        verbose_name_plural = _("fabricants agréés")
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def approved_on(self, day: dt.date) -> bool:
        return self.valid_from <= day and (self.valid_until is None or day <= self.valid_until)


class BookKind(models.TextChoices):
    ORDER = "order", _("carnet de bons de commande (modèle n° 21)")
    RECEIPT = "receipt", _("carnet de prise en charge (modèle n° 19)")
    INCIDENT = "incident", _("registre des incidents")
    DESTRUCTION = "destruction", _("registre des destructions")


class Book(models.Model):
    """A numbered book; its row is the counter of its entries (locked FOR UPDATE)."""

    kind = models.CharField(_("registre"), max_length=16, choices=BookKind.choices)
    number = models.PositiveIntegerField(_("numéro du carnet"))
    opened_at = models.DateTimeField(_("ouvert le"), auto_now_add=True)
    closed_at = models.DateTimeField(_("clos le"), null=True, blank=True)
    last_number = models.PositiveIntegerField(_("dernier numéro attribué"), default=0)

    class Meta:
        verbose_name = _("carnet numéroté")
        verbose_name_plural = _("carnets numérotés")
        ordering = ["kind", "number"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "number"], name="depot_book_unique_number"),
            models.UniqueConstraint(
                fields=["kind"], condition=models.Q(closed_at__isnull=True), name="depot_book_one_open"
            ),
        ]

    def __str__(self) -> str:
        return _("%(book)s n° %(number)s") % {"book": self.get_kind_display(), "number": self.number}


class DepotSettings(models.Model):
    """What the ministry fixed for the depot (LU art. 6: the most sixains the casino may hold)."""

    max_sixains = models.PositiveIntegerField(
        _("nombre maximal de sixains (LU)"), null=True, blank=True, help_text=_("Vide : sans limite.")
    )
    incident_report_minutes = models.PositiveIntegerField(
        _("délai d'avis d'un incident (minutes)"),
        default=15,
        help_text=_("Au-delà, l'avis à l'officier est signalé en retard."),
    )
    visa_within_days = models.PositiveIntegerField(
        _("délai de visa (jours)"),
        default=7,
        help_text=_("Au-delà, un bon, une prise en charge ou une destruction non visé est un manquement."),
    )

    objects = BookManager()

    class Meta:
        verbose_name = _("paramètres du dépôt")
        verbose_name_plural = _("paramètres du dépôt")

    def __str__(self) -> str:
        return str(self._meta.verbose_name)


class SixainCap(models.Model):
    """The ministry's decision fixing the most sixains the casino may hold (LU art. 6), as the
    director recorded it with the decision's reference; it awaits the officer's visa
    (:class:`AuthorityVisa`). The depot's settings keep the number in force."""

    max_sixains = models.PositiveIntegerField(_("nombre maximal de sixains"))
    reference = models.CharField(_("référence de la décision du ministère"), max_length=200)
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inscrit par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrit le"))

    objects = BookManager()

    class Meta:
        verbose_name = _("nombre de sixains fixé par le ministère")
        verbose_name_plural = _("nombres de sixains fixés par le ministère")
        ordering = ["recorded_at", "id"]

    def __str__(self) -> str:
        return f"{self.max_sixains} sixains — {self.reference}"


class AuthorityVisa(models.Model):
    """The officer's visa on a fact that comes from an authority, recorded by the director: a
    maker's approval by the ministry (FR art. 39, LU art. 6) or the LU sixain cap (LU art. 6).
    The director alone never makes such a fact hold: until the officer has checked the
    authority's reference and stamped it, ``inspect_books`` names it."""

    manufacturer = models.OneToOneField(
        Manufacturer, null=True, blank=True, on_delete=models.PROTECT, related_name="approval_visa"
    )
    sixain_cap = models.OneToOneField(
        SixainCap, null=True, blank=True, on_delete=models.PROTECT, related_name="visa"
    )
    officer = models.ForeignKey(USER, verbose_name=_("officier"), on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("visé le"))
    remark = models.CharField(_("observations"), max_length=300, blank=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("visa d'un fait de l'autorité")
        verbose_name_plural = _("visas des faits de l'autorité")
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(manufacturer__isnull=False, sixain_cap__isnull=True)
                    | models.Q(manufacturer__isnull=True, sixain_cap__isnull=False)
                ),
                name="depot_authority_visa_one_fact",
            )
        ]

    def __str__(self) -> str:
        return f"{_('visa')} {self.manufacturer or self.sixain_cap}"
