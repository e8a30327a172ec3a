"""Orphans (LU art. 8), approvals (LU art. 51, 54, 63), tips (LU art. 57)."""

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


# -- Orphans (LU art. 8) ----------------------------------------------------------------------


class OrphanKind(models.TextChoices):
    FLOOR = "floor", _("trouvé à terre")
    TABLE = "table", _("laissé sur une table de jeu")
    ABANDONED = "abandoned", _("abandonné en cours de partie")


class OrphanEntry(models.Model):
    """A sum found, paid at once into the casino's cash: one line of the carnet des orphelins."""

    number = models.PositiveIntegerField(_("numéro"), unique=True)
    exercise = models.PositiveSmallIntegerField(_("exercice"))
    found_at = models.DateTimeField(_("trouvé le"), validators=[validate_date_window])
    kind = models.CharField(_("nature"), max_length=16, choices=OrphanKind.choices)
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    stake = models.DecimalField(_("mise oubliée"), null=True, blank=True, max_digits=12, decimal_places=2)
    winnings = models.DecimalField(_("gains cumulés"), null=True, blank=True, max_digits=12, decimal_places=2)
    amount = models.DecimalField(_("montant versé en caisse"), max_digits=12, decimal_places=2)
    description = models.TextField(_("circonstances"), validators=[validate_no_control_characters])
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inscrit par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrit le"), default=timezone.now)  # the act's moment

    objects = BookManager()

    class Meta:
        verbose_name = _("orphelin")
        verbose_name_plural = _("carnet des orphelins")
        ordering = ["number"]

    def __str__(self) -> str:
        return _("Orphelin n° %(number)s — %(amount)s") % {
            "number": self.number,
            "amount": dates.amount(self.amount),
        }


class OrphanRepayment(models.Model):
    """A sum given back to its rightful owner, who proved his right."""

    entry = models.ForeignKey(
        OrphanEntry,
        verbose_name=_("inscription primitive"),
        on_delete=models.PROTECT,
        related_name="repayments",
    )
    repaid_on = models.DateField(_("remboursé le"), validators=[validate_date_window])
    amount = models.DecimalField(_("montant remboursé"), max_digits=12, decimal_places=2)
    total_before = models.DecimalField(
        _("total des orphelins arrêté avant le remboursement"), max_digits=12, decimal_places=2
    )
    owner_name = models.CharField(
        _("nom du propriétaire"), max_length=200, validators=[validate_no_control_characters]
    )
    owner_address = models.TextField(
        _("adresse du propriétaire"), validators=[validate_no_control_characters]
    )
    proof = models.TextField(_("justifications produites"), validators=[validate_no_control_characters])
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inscrit par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrit le"), auto_now_add=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("remboursement d'un orphelin")
        verbose_name_plural = _("remboursements d'orphelins")
        ordering = ["repaid_on", "pk"]

    def __str__(self) -> str:
        return _("Remboursement de l'orphelin n° %(number)s — %(amount)s") % {
            "number": self.entry.number,
            "amount": dates.amount(self.amount),
        }


class OrphanTransfer(models.Model):
    """The year-end transfer of the balance to the commune's bureau de bienfaisance."""

    exercise = models.PositiveSmallIntegerField(_("exercice"), unique=True)
    transferred_on = models.DateField(_("versé le"), validators=[validate_date_window])
    amount = models.DecimalField(_("montant versé"), max_digits=12, decimal_places=2)
    commune = models.CharField(_("commune"), max_length=120, validators=[validate_no_control_characters])
    receipt = models.CharField(
        _("quittance du receveur communal"), max_length=120, validators=[validate_no_control_characters]
    )
    minister_notified_on = models.DateField(
        _("avis au Ministre des Finances le"), validators=[validate_date_window]
    )
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inscrit par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrit le"), auto_now_add=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("versement au bureau de bienfaisance")
        verbose_name_plural = _("versements au bureau de bienfaisance")
        ordering = ["exercise"]

    def __str__(self) -> str:
        return _("Versement de l'exercice %(exercise)s — %(amount)s") % {
            "exercise": self.exercise,
            "amount": dates.amount(self.amount),
        }


# -- Approvals (LU art. 51, 54, 63) -------------------------------------------------------------


class ApprovalFunction(models.TextChoices):
    DIRECTOR = "director", _("directeur responsable")
    COMMITTEE = "committee", _("membre du comité de direction")
    STAFF = "staff", _("employé des salles de jeux")


class ApprovalEnd(models.TextChoices):
    REVOKED = "revoked", _("agrément retiré par le Ministre de la Justice")
    RESIGNED = "resigned", _("démission")
    DISMISSED = "dismissed", _("renvoi par la direction")


class Approval(models.Model):
    """The approval of a person by the Minister of Justice, and how it ended."""

    person = models.ForeignKey(
        USER, verbose_name=_("personne agréée"), on_delete=models.PROTECT, related_name="+"
    )
    function = models.CharField(_("fonction"), max_length=16, choices=ApprovalFunction.choices)
    job = models.CharField(
        _("emploi"), max_length=120, blank=True, validators=[validate_no_control_characters]
    )
    approved_on = models.DateField(_("agréé le"), validators=[validate_date_window])
    reference = models.CharField(
        _("référence de l'agrément"), max_length=120, validators=[validate_no_control_characters]
    )
    ended_on = models.DateField(_("fin le"), null=True, blank=True, validators=[validate_date_window])
    end_kind = models.CharField(_("fin"), max_length=16, choices=ApprovalEnd.choices, blank=True)
    end_reference = models.CharField(
        _("référence ou motifs de la fin"),
        max_length=500,
        blank=True,
        validators=[validate_no_control_characters],
    )
    minister_notified_on = models.DateField(
        _("avis au Ministre de la Justice le"), null=True, blank=True, validators=[validate_date_window]
    )
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inscrit par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrit le"), auto_now_add=True)
    ended_by = models.ForeignKey(
        USER,
        verbose_name=_("fin inscrite par"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )

    objects = BookManager()

    class Meta:
        verbose_name = _("agrément")
        verbose_name_plural = _("agréments de la direction et du personnel")
        ordering = ["approved_on", "pk"]

    def __str__(self) -> str:
        return f"{self.person.get_username()} — {self.get_function_display()} ({self.reference})"


class ApprovalEndEntry(Approval):
    """The ends of approvals (revocations, resignations, dismissals): the same rows, by their end."""

    class Meta:
        proxy = True
        verbose_name = _("fin d'agrément")
        verbose_name_plural = _("fins d'agrément (retraits, démissions, renvois)")


# -- Tips (LU art. 57) --------------------------------------------------------------------------


class TipsCount(models.Model):
    """The daily count of the tips box, and its line of the account "pourboires"."""

    day = models.DateField(_("journée"), unique=True, validators=[validate_date_window])
    box = models.CharField(_("tirelire"), max_length=60, validators=[validate_no_control_characters])
    amount = models.DecimalField(_("montant compté"), max_digits=12, decimal_places=2)
    counted_by = models.ForeignKey(
        USER, verbose_name=_("compté par"), on_delete=models.PROTECT, related_name="+"
    )
    witness = models.ForeignKey(USER, verbose_name=_("témoin"), on_delete=models.PROTECT, related_name="+")
    counted_at = models.DateTimeField(_("compté le"), validators=[validate_date_window])
    note = models.CharField(
        _("observations"), max_length=300, blank=True, validators=[validate_no_control_characters]
    )
    recorded_at = models.DateTimeField(_("inscrit le"), auto_now_add=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("comptage des pourboires")
        verbose_name_plural = _("registre des pourboires")
        ordering = ["day"]

    def __str__(self) -> str:
        return _("Pourboires du %(day)s — %(amount)s") % {
            "day": dates.day(self.day),
            "amount": dates.amount(self.amount),
        }
