"""Exclusions (LU art. 68, 69, 75)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager
from casino_ops import dates
from casino_ops.validators import (
    DateWindowValidator,
    validate_date_window,
    validate_no_control_characters,
)

USER = settings.AUTH_USER_MODEL


# -- Exclusions (LU art. 68, 69, 75) -----------------------------------------------------------


class BirthDateValidator(DateWindowValidator):
    """A birth date: from 1900 to today (the casino's own date window is for its acts)."""

    def bounds(self) -> tuple[dt.date, dt.date]:
        return dt.date(1900, 1, 1), timezone.localdate()


class ExclusionOrigin(models.TextChoices):
    MINISTER = "minister", _("prononcée par le Ministre de la Justice")
    CASINO = "casino", _("prononcée par la direction du casino")


class ExclusionKind(models.TextChoices):
    EXCLUSION = "exclusion", _("exclusion des salles de jeux")
    REFUSAL = "refusal", _("refus d'admission")


class ExclusionGround(models.TextChoices):
    REQUEST = "request", _("à sa demande")
    INCAPABLE = "incapable", _("incapable, à la demande de son représentant légal")
    CONVICTED = "convicted", _("condamné, interdiction de l'article 33 du code pénal")
    DISORDER = "disorder", _("présence de nature à troubler l'ordre ou le jeu")
    OWN = "own", _("décision de la direction")


class Exclusion(models.Model):
    """One line of the fichier des exclus: who may not enter the gaming rooms, since when, why.

    Only what the text needs is kept: the name, the birth date (to tell namesakes apart),
    the ground or the reasons, the dates and references of the decision, its notice, its end.
    """

    origin = models.CharField(_("origine"), max_length=16, choices=ExclusionOrigin.choices)
    kind = models.CharField(_("nature"), max_length=16, choices=ExclusionKind.choices)
    ground = models.CharField(_("motif"), max_length=16, choices=ExclusionGround.choices)
    last_name = models.CharField(_("nom"), max_length=120, validators=[validate_no_control_characters])
    first_names = models.CharField(_("prénoms"), max_length=200, validators=[validate_no_control_characters])
    birth_date = models.DateField(_("date de naissance"), validators=[BirthDateValidator()])
    decided_on = models.DateField(_("décidée le"), validators=[validate_date_window])
    reference = models.CharField(
        _("référence de la décision"), max_length=120, validators=[validate_no_control_characters]
    )
    reasons = models.TextField(_("motifs"), blank=True, validators=[validate_no_control_characters])
    director_notified_on = models.DateField(
        _("notifiée au directeur le"), null=True, blank=True, validators=[validate_date_window]
    )
    minister_notified_on = models.DateField(
        _("avis au Ministre de la Justice le"), null=True, blank=True, validators=[validate_date_window]
    )
    notice_reference = models.CharField(
        _("référence de l'avis au ministre"),
        max_length=120,
        blank=True,
        validators=[validate_no_control_characters],
    )
    lifted_on = models.DateField(_("radiée le"), null=True, blank=True, validators=[validate_date_window])
    lift_reference = models.CharField(
        _("référence de la radiation"),
        max_length=120,
        blank=True,
        validators=[validate_no_control_characters],
    )
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inscrite par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrite le"), auto_now_add=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("exclusion")
        verbose_name_plural = _("fichier des exclus")
        ordering = ["decided_on", "pk"]

    def __str__(self) -> str:
        return f"{self.last_name.upper()} {self.first_names} ({dates.day(self.birth_date)}) — {dates.day(self.decided_on)}"


class OwnExclusionEntry(Exclusion):
    """The exclusions and refusals of admission pronounced by the management (LU art. 69)."""

    class Meta:
        proxy = True
        verbose_name = _("exclusion par la direction")
        verbose_name_plural = _("exclusions et refus d'admission par la direction")


class ExclusionNoticeEntry(Exclusion):
    """The notices of the management's own exclusions to the Minister of Justice (LU art. 69)."""

    class Meta:
        proxy = True
        verbose_name = _("avis d'exclusion au ministre")
        verbose_name_plural = _("avis des exclusions au Ministre de la Justice")


class ExclusionLiftEntry(Exclusion):
    """The radiations from the list of the excluded (LU art. 68)."""

    class Meta:
        proxy = True
        verbose_name = _("radiation d'une exclusion")
        verbose_name_plural = _("radiations des exclusions")


class RefusedEntry(models.Model):
    """An entry refused at the door of the gaming rooms to a person under an exclusion
    (LU art. 67: the physionomiste controls the entrance; art. 75: nobody excluded enters).

    The entry names the exclusion it enforces, the person as identified at the door, the
    moment and the employee at the entrance; an exclusion lists the entries refused under it.
    """

    exclusion = models.ForeignKey(
        Exclusion,
        verbose_name=_("exclusion appliquée"),
        on_delete=models.PROTECT,
        related_name="refused_entries",
    )
    refused_at = models.DateTimeField(_("entrée refusée le"))
    last_name = models.CharField(_("nom"), max_length=120, validators=[validate_no_control_characters])
    first_names = models.CharField(_("prénoms"), max_length=200, validators=[validate_no_control_characters])
    birth_date = models.DateField(_("date de naissance"), validators=[BirthDateValidator()])
    physionomiste = models.CharField(
        _("physionomiste à l'entrée"), max_length=120, validators=[validate_no_control_characters]
    )
    remark = models.TextField(_("observations"), blank=True, validators=[validate_no_control_characters])
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inscrite par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrite le"), auto_now_add=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("entrée refusée")
        verbose_name_plural = _("entrées refusées aux exclus")
        ordering = ["refused_at", "pk"]

    def __str__(self) -> str:
        return f"{self.last_name.upper()} {self.first_names} — {dates.moment(self.refused_at)}"
