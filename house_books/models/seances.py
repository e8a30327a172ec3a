"""Séance hours (LU art. 71) and a bank failure (LU art. 11)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager
from casino_ops import dates
from casino_ops.validators import (
    validate_date_window,
    validate_no_control_characters,
)

USER = settings.AUTH_USER_MODEL


# -- Séance hours (LU art. 71) ------------------------------------------------------------------


class SeanceHours(models.Model):
    """The hours at which the séances of the counterpart games begin, notified to the Ministers
    of Justice and of Finance (a change at least 24 hours ahead), and the closing hour fixed by
    the authorisation."""

    weekday_start = models.TimeField(_("début des séances, jours ordinaires"))
    holiday_start = models.TimeField(_("début des séances, dimanches et jours fériés"))
    closing = models.TimeField(_("heure de fermeture fixée par l'autorisation"))
    effective_from = models.DateTimeField(_("en vigueur à partir du"), validators=[validate_date_window])
    notified_at = models.DateTimeField(_("avis aux ministres le"), validators=[validate_date_window])
    reference = models.CharField(
        _("référence de l'avis"), max_length=120, validators=[validate_no_control_characters]
    )
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inscrit par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrit le"), auto_now_add=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("heures des séances")
        verbose_name_plural = _("heures des séances notifiées")
        ordering = ["effective_from", "pk"]

    def __str__(self) -> str:
        return f"{self.weekday_start:%H:%M} / {self.holiday_start:%H:%M} – {self.closing:%H:%M}"


class EarlyStopReason(models.TextChoices):
    PLAYERS_LEFT = "players_left", _("les joueurs se sont retirés")
    NO_STAKE = "no_stake", _("trois coups de suite sans aucune mise")
    # LU art. 11: the counterpart games stop at once when the casino can no longer hold the bank
    BANK_FAILURE = "bank_failure", _("défaillance de la contrepartie : jeux arrêtés séance tenante")


class EarlyStop(models.Model):
    """A séance stopped before the closing hour, and why (LU art. 71)."""

    session = models.OneToOneField(
        "tables.Session", verbose_name=_("séance"), on_delete=models.PROTECT, related_name="early_stop"
    )
    stopped_at = models.DateTimeField(_("arrêtée le"), validators=[validate_date_window])
    reason = models.CharField(_("motif"), max_length=16, choices=EarlyStopReason.choices)
    note = models.CharField(
        _("observations"), max_length=300, blank=True, validators=[validate_no_control_characters]
    )
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inscrit par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrit le"), auto_now_add=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("arrêt avant l'heure de fermeture")
        verbose_name_plural = _("arrêts avant l'heure de fermeture")
        ordering = ["stopped_at", "pk"]

    def __str__(self) -> str:
        return f"{self.session} — {self.get_reason_display()}"


# -- Bank failure (LU art. 11) ------------------------------------------------------------------


class BankFailure(models.Model):
    """The casino could no longer hold the bank: the counterpart games stopped at once, the
    officer present and the Minister of Finances told at once; the authorisation lapsed."""

    occurred_at = models.DateTimeField(_("survenue le"), validators=[validate_date_window])
    description = models.TextField(_("circonstances"), validators=[validate_no_control_characters])
    officer_name = models.CharField(
        _("fonctionnaire présent avisé"), max_length=200, validators=[validate_no_control_characters]
    )
    officer_told_at = models.DateTimeField(_("fonctionnaire avisé le"), validators=[validate_date_window])
    minister_told_at = models.DateTimeField(
        _("Ministre des Finances avisé le"), validators=[validate_date_window]
    )
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inscrit par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrit le"), auto_now_add=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("défaillance de la contrepartie")
        verbose_name_plural = _("défaillances de la contrepartie")
        ordering = ["occurred_at", "pk"]

    def __str__(self) -> str:
        return _("Défaillance du %(at)s") % {"at": dates.moment(self.occurred_at)}


class NewAuthorisation(models.Model):
    """The new authorisation to play the counterpart games, granted after a bank failure."""

    failure = models.OneToOneField(
        BankFailure,
        verbose_name=_("défaillance"),
        on_delete=models.PROTECT,
        related_name="new_authorisation",
    )
    granted_on = models.DateField(_("accordée le"), validators=[validate_date_window])
    reference = models.CharField(
        _("référence de l'autorisation"), max_length=120, validators=[validate_no_control_characters]
    )
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inscrit par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrit le"), auto_now_add=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("nouvelle autorisation")
        verbose_name_plural = _("nouvelles autorisations")
        ordering = ["granted_on", "pk"]

    def __str__(self) -> str:
        return _("Autorisation %(reference)s du %(day)s") % {
            "reference": self.reference,
            "day": dates.day(self.granted_on),
        }
