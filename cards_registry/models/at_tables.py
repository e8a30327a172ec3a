"""Decks given to a table, checked there and returned (FR art. 40, LU art. 7)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager
from casino_ops import dates
from casino_ops.validators import validate_no_control_characters

from .cabinet import CabinetOpening
from .decks import Deck

USER = settings.AUTH_USER_MODEL


class TableIssue(models.Model):
    """Decks taken out of the cabinet for a named table and day (FR art. 40, LU art. 7)."""

    table_number = models.PositiveSmallIntegerField(_("table"))
    day = models.DateField(_("journée"))
    opening = models.OneToOneField(
        CabinetOpening, verbose_name=_("ouverture"), on_delete=models.PROTECT, related_name="table_issue"
    )
    issued_by = models.ForeignKey(
        USER, verbose_name=_("remis par"), on_delete=models.PROTECT, related_name="+"
    )
    received_by = models.ForeignKey(
        USER, verbose_name=_("reçu par"), null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(_("le"))
    decks: models.ManyToManyField[Deck, IssueLine] = models.ManyToManyField(
        Deck, verbose_name=_("jeux"), through="IssueLine", related_name="issues"
    )

    objects = BookManager()

    class Meta:
        verbose_name = _("remise à une table")
        verbose_name_plural = _("remises aux tables")
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["table_number", "day"], name="depot_issue_table_day")]

    def __str__(self) -> str:
        return f"Table {self.table_number} — {dates.day(self.day)}"


class IssueLine(models.Model):
    issue = models.ForeignKey(
        TableIssue, verbose_name=_("remise"), on_delete=models.PROTECT, related_name="lines"
    )
    deck = models.ForeignKey(
        Deck, verbose_name=_("jeu"), on_delete=models.PROTECT, related_name="issue_lines"
    )

    objects = BookManager()

    class Meta:
        verbose_name = _("jeu remis")
        verbose_name_plural = _("jeux remis")
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["issue", "deck"], name="depot_issue_line_unique")]

    def __str__(self) -> str:
        return f"{self.deck} → table {self.issue.table_number}"


class TableCheck(models.Model):
    """The unsealing (new deck) or check (used deck) at the table (FR art. 40, LU art. 7)."""

    issue_line = models.OneToOneField(
        IssueLine, verbose_name=_("jeu remis"), on_delete=models.PROTECT, related_name="table_check"
    )
    at = models.DateTimeField(_("le"))
    checked_by = models.ForeignKey(
        USER, verbose_name=_("croupier"), on_delete=models.PROTECT, related_name="+"
    )
    witness = models.CharField(_("témoin"), max_length=150)
    new_deck = models.BooleanField(_("jeu neuf descellé"))
    band_intact = models.BooleanField(_("bande de contrôle intacte"), null=True)
    order_checked = models.BooleanField(_("ordre du fabricant vérifié"))
    cards_counted = models.PositiveSmallIntegerField(_("cartes comptées"))
    video_reference = models.CharField(_("référence vidéo"), max_length=150, blank=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("descellement / contrôle à la table")
        verbose_name_plural = _("descellements / contrôles à la table")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return _("Contrôle du jeu %(serial)s") % {"serial": self.issue_line.deck.serial}


class ReturnResult(models.TextChoices):
    FIT = "fit", _("apte, remis au dépôt")
    MARKED = "marked", _("hors d'usage : marqué")
    DAMAGED = "damaged", _("hors d'usage : abîmé")
    WORN = "worn", _("hors d'usage : usé")
    QUARANTINED = "quarantined", _("consigné : incident ouvert")


class DeckReturn(models.Model):
    """Decks back from a table after play, put back in maker's order and examined."""

    table_number = models.PositiveSmallIntegerField(_("table"))
    day = models.DateField(_("journée"))
    opening = models.OneToOneField(
        CabinetOpening, verbose_name=_("ouverture"), on_delete=models.PROTECT, related_name="deck_return"
    )
    returned_by = models.ForeignKey(
        USER, verbose_name=_("repris par"), on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(_("le"))

    objects = BookManager()

    class Meta:
        verbose_name = _("retour d'une table")
        verbose_name_plural = _("retours des tables")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return _("Retour de la table %(table)s — %(at)s") % {
            "table": self.table_number,
            "at": dates.moment(self.at),
        }


class ReturnLine(models.Model):
    deck_return = models.ForeignKey(
        DeckReturn, verbose_name=_("retour de table"), on_delete=models.PROTECT, related_name="lines"
    )
    issue_line = models.OneToOneField(
        IssueLine, verbose_name=_("jeu remis"), on_delete=models.PROTECT, related_name="return_line"
    )
    result = models.CharField(_("examen"), max_length=16, choices=ReturnResult.choices)
    order_restored = models.BooleanField(_("ordre du fabricant rétabli"), default=True)
    cards_counted = models.PositiveSmallIntegerField(_("cartes comptées"), default=52)
    remark = models.CharField(
        _("observations"), max_length=300, blank=True, validators=[validate_no_control_characters]
    )

    objects = BookManager()

    class Meta:
        verbose_name = _("jeu rendu")
        verbose_name_plural = _("jeux rendus")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.issue_line.deck} : {self.get_result_display()}"
