"""Closing down (LU art. 52), table notices (LU art. 74), returns of shoe devices."""

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

from .devices import DeviceAssignment

USER = settings.AUTH_USER_MODEL

# -- Closing down (LU art. 52) -----------------------------------------------------------------


class DocumentsLeftAt(models.TextChoices):
    SEAT = "seat", _("au siège de l'établissement")
    AGENTS = "agents", _("au service des agents de surveillance et de contrôle")


class Disposal(models.TextChoices):
    DESTROYED = "destroyed", _("détruits")
    SUCCESSOR = "successor", _("remis au successeur")


class ClosingDown(models.Model):
    """The casino stops its operation: the books left to the agents, the cards, the shoe
    devices and the exclusion file destroyed or handed to the successor before an officer."""

    closed_at = models.DateTimeField(_("cessation le"), validators=[validate_date_window])
    documents_left_at = models.CharField(
        _("documents laissés"), max_length=16, choices=DocumentsLeftAt.choices
    )
    documents = models.TextField(
        _("documents remis (un par ligne)"), validators=[validate_no_control_characters]
    )
    disposal = models.CharField(
        _("cartes, sabots et fichier des exclus"), max_length=16, choices=Disposal.choices
    )
    successor = models.CharField(
        _("successeur"), max_length=200, blank=True, validators=[validate_no_control_characters]
    )
    officer_name = models.CharField(
        _("fonctionnaire présent (Gendarmerie)"),
        max_length=200,
        validators=[validate_no_control_characters],
    )
    decks = models.JSONField(_("jeux de cartes détenus"), default=list)
    devices = models.JSONField(_("sabots"), default=list)
    exclusion_entries = models.PositiveIntegerField(_("fiches du fichier des exclus"))
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inscrit par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrit le"), auto_now_add=True)
    visa_by = models.ForeignKey(
        USER,
        verbose_name=_("visa du fonctionnaire"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    visa_at = models.DateTimeField(_("visé le"), null=True, blank=True)
    visa_remark = models.CharField(
        _("observation du fonctionnaire"),
        max_length=300,
        blank=True,
        validators=[validate_no_control_characters],
    )

    objects = BookManager()

    class Meta:
        verbose_name = _("cessation de l'exploitation")
        verbose_name_plural = _("cessation de l'exploitation")
        ordering = ["closed_at"]

    def __str__(self) -> str:
        return _("Cessation du %(at)s") % {"at": dates.moment(self.closed_at)}

    def document_list(self) -> list[str]:
        return [line for line in self.documents.splitlines() if line.strip()]


# -- Table notices (LU art. 74, last paragraph) -------------------------------------------------


class TableNotice(models.Model):
    """The notice posted at a table: its number, its advance (encaisse), minimum and maximum."""

    table_number = models.PositiveSmallIntegerField(_("table"))
    table_code = models.CharField(_("code de la table"), max_length=16)
    day = models.DateField(_("journée"), validators=[validate_date_window])
    advance = models.DecimalField(_("montant de l'encaisse"), max_digits=14, decimal_places=2)
    minimum = models.DecimalField(_("minimum des mises"), max_digits=12, decimal_places=2)
    maximum = models.DecimalField(_("maximum par case"), max_digits=12, decimal_places=2)
    posted_by = models.ForeignKey(
        USER, verbose_name=_("apposé par"), on_delete=models.PROTECT, related_name="+"
    )
    posted_at = models.DateTimeField(_("apposé le"), auto_now_add=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("avis de table")
        verbose_name_plural = _("avis des tables")
        ordering = ["table_number", "posted_at"]

    def __str__(self) -> str:
        return _("Avis de la table %(table)s — %(day)s") % {
            "table": self.table_number,
            "day": dates.day(self.day),
        }


class DeviceReturnEntry(DeviceAssignment):
    """The shoes put back in the cabinet at the end of their séance: the same rows, by their return."""

    class Meta:
        proxy = True
        verbose_name = _("retour d'un sabot à l'armoire")
        verbose_name_plural = _("retours des sabots à l'armoire")
