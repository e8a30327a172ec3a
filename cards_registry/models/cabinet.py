"""The cabinet: its single key, its openings, demands, inventories and out-of-use declarations (FR art. 39, LU art. 6)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager
from casino_ops import dates

from .decks import Deck

USER = settings.AUTH_USER_MODEL


class KeyHandover(models.Model):
    """The single key of the cabinet passes from ``giver`` to ``receiver`` (FR art. 39, LU art. 6)."""

    giver = models.ForeignKey(
        USER, verbose_name=_("remise par"), null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    receiver = models.ForeignKey(
        USER, verbose_name=_("reçue par"), on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(_("le"))
    reason = models.CharField(_("motif"), max_length=300, blank=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("remise de la clé")
        verbose_name_plural = _("remises de la clé")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return _("Clé → %(receiver)s (%(at)s)") % {"receiver": self.receiver, "at": dates.moment(self.at)}


class OpeningPurpose(models.TextChoices):
    RECEPTION = "reception", _("prise en charge")
    ISSUE = "issue", _("remise à une table")
    RETURN = "return", _("retour d'une table")
    DESTRUCTION = "destruction", _("destruction")
    INSPECTION = "inspection", _("inspection demandée par un officier")
    INCIDENT = "incident", _("incident")
    OUT_OF_USE = "out_of_use", _("déclaration hors d'usage")


class CabinetOpening(models.Model):
    """Every opening of the cabinet: who, when, why."""

    opened_by = models.ForeignKey(
        USER, verbose_name=_("ouvert par"), on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(_("le"))
    purpose = models.CharField(_("motif"), max_length=16, choices=OpeningPurpose.choices)
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    day = models.DateField(_("journée"), null=True, blank=True)
    demand = models.ForeignKey(
        "CabinetDemand",
        verbose_name=_("demande de l'officier"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="openings",
    )
    demanded_by = models.ForeignKey(
        USER,
        verbose_name=_("demandée par (officier)"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    note = models.CharField(_("observations"), max_length=300, blank=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("ouverture du dépôt")
        verbose_name_plural = _("ouvertures du dépôt")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return _("Ouverture du %(at)s — %(purpose)s") % {
            "at": dates.moment(self.at),
            "purpose": self.get_purpose_display(),
        }


class CabinetDemand(models.Model):
    """An officer's demand to open the cabinet, recorded by the officer himself (FR art. 39, LU art. 6:
    "à tout moment")."""

    officer = models.ForeignKey(USER, verbose_name=_("officier"), on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("le"))
    reason = models.CharField(_("motif"), max_length=300, blank=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("demande d'ouverture du dépôt")
        verbose_name_plural = _("demandes d'ouverture du dépôt")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return _("Demande d'ouverture du %(at)s") % {"at": dates.moment(self.at)}


class CabinetInventory(models.Model):
    """The inventory at an opening demanded by an officer: decks found against the books."""

    opening = models.OneToOneField(
        CabinetOpening, verbose_name=_("ouverture"), on_delete=models.PROTECT, related_name="inventory"
    )
    at = models.DateTimeField(_("le"))
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inventaire par"), on_delete=models.PROTECT, related_name="+"
    )
    expected = models.PositiveIntegerField(_("jeux au dépôt selon les registres"))
    found = models.PositiveIntegerField(_("jeux trouvés"))
    missing = models.JSONField(_("jeux manquants"), default=list, blank=True)
    unexpected = models.JSONField(_("jeux trouvés en trop"), default=list, blank=True)
    incident = models.ForeignKey(
        "Incident",
        verbose_name=_("incident"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    objects = BookManager()

    class Meta:
        verbose_name = _("inventaire du dépôt")
        verbose_name_plural = _("inventaires du dépôt")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return _("Inventaire du %(at)s") % {"at": dates.moment(self.at)}


class OutOfUseDeclaration(models.Model):
    """Decks in the cabinet declared out of use by the casino (FR art. 39 §3, LU art. 6)."""

    opening = models.OneToOneField(
        CabinetOpening, verbose_name=_("ouverture"), on_delete=models.PROTECT, related_name="out_of_use"
    )
    at = models.DateTimeField(_("le"))
    declared_by = models.ForeignKey(
        USER, verbose_name=_("déclaré par"), on_delete=models.PROTECT, related_name="+"
    )
    reason = models.CharField(_("motif"), max_length=300)
    decks = models.ManyToManyField(Deck, verbose_name=_("jeux"), related_name="out_of_use_declarations")

    objects = BookManager()

    class Meta:
        verbose_name = _("déclaration hors d'usage")
        verbose_name_plural = _("déclarations hors d'usage")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return _("Hors d'usage le %(at)s") % {"at": dates.moment(self.at)}
