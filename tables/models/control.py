"""The control register's days and lines (FR art. 68, 72; LU art. 10)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager
from casino_ops import dates
from casino_ops.validators import validate_no_control_characters

from .floor import Table, _optional_user
from .sessions import Session


class ControlDay(models.Model):
    """A day of the control register (registre de contrôle, FR model n° 12; FR art. 68, 72)."""

    day = models.DateField(_("journée"), unique=True)
    closed_at = models.DateTimeField(_("arrêtée le"), null=True, blank=True)
    closed_by = _optional_user(_("arrêtée par"))
    total = models.DecimalField(
        _("total de la journée"), max_digits=16, decimal_places=2, null=True, blank=True
    )
    stamped_at = models.DateTimeField(_("visée le"), null=True, blank=True)
    stamped_by = _optional_user(_("visée par"))
    stamp_remark = models.TextField(
        _("observations du fonctionnaire"),
        blank=True,
        default="",
        validators=[validate_no_control_characters],
    )

    objects = BookManager()

    class Meta:
        verbose_name = _("journée du registre de contrôle")
        verbose_name_plural = _("registre de contrôle")
        ordering = ["-day"]

    def __str__(self) -> str:
        return f"{dates.day(self.day)}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    @property
    def is_stamped(self) -> bool:
        return self.stamped_at is not None


class ControlLine(models.Model):
    """A session's result carried from its advance book to the control register, or a correction of one.

    A correction (FR art. 68) is a new line: ``corrects`` points at the line
    it replaces, ``result`` is the corrected result, and the director's
    approval is written in words.
    """

    control_day = models.ForeignKey(
        ControlDay, verbose_name=_("journée"), on_delete=models.PROTECT, related_name="lines"
    )
    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="+")
    session = models.ForeignKey(
        Session, verbose_name=_("séance"), on_delete=models.PROTECT, related_name="control_lines"
    )
    advances = models.DecimalField(_("avances"), max_digits=14, decimal_places=2)
    closing_cash = models.DecimalField(_("encaisse"), max_digits=14, decimal_places=2)
    result = models.DecimalField(_("résultat"), max_digits=14, decimal_places=2)
    at = models.DateTimeField(_("reporté le"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("par"), on_delete=models.PROTECT, related_name="+"
    )
    corrects = models.ForeignKey(
        "self",
        verbose_name=_("corrige la ligne"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="corrections",
    )
    approval = models.TextField(
        _("approbation du directeur"), blank=True, validators=[validate_no_control_characters]
    )
    reason = models.TextField(_("motif"), blank=True, validators=[validate_no_control_characters])

    objects = BookManager()

    class Meta:
        verbose_name = _("ligne du registre de contrôle")
        verbose_name_plural = _("lignes du registre de contrôle")
        ordering = ["control_day", "table__number", "id"]

    def __str__(self) -> str:
        return f"{self.table.code} {self.result}" + (" (correction)" if self.corrects_id else "")
