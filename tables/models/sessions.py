"""Sessions of play, the advance book's entries and changes of the maximum (FR art. 42, 49, 53, 69; LU art. 9, 15, 21, 26)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager
from casino_ops import dates
from casino_ops.validators import validate_date_window, validate_no_control_characters

from .floor import Delegation, Table, _optional_user


class SessionStatus(models.TextChoices):
    OPEN = "open", _("ouverte")
    INTERRUPTED = "interrupted", _("interrompue")
    CLOSED = "closed", _("clôturée")


class Session(models.Model):
    """A session (séance) of one table on one gaming day, with its limits and advance.

    The limits and the advance are fixed at opening (FR art. 42, 49, 55-5;
    LU art. 9, 21, 33); the profile and house rules in force are copied from
    the casino at opening, so that hand logs are checked against what held
    then. The entries of the advance book are :class:`AdvanceEntry` rows; the
    status and the closing fields below only mirror them for fast reading.
    """

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="sessions"
    )
    day = models.DateField(_("journée de jeu"), validators=[validate_date_window])
    fiscal_year = models.PositiveSmallIntegerField(_("exercice"))
    profile = models.CharField(_("réglementation"), max_length=2)
    house_rules = models.JSONField(_("règlement intérieur en vigueur"), default=dict)
    minimum = models.DecimalField(_("minimum des mises"), max_digits=12, decimal_places=2)
    maximum = models.DecimalField(_("maximum par case"), max_digits=12, decimal_places=2)
    advance_amount = models.DecimalField(_("montant de l'avance"), max_digits=14, decimal_places=2)
    guarantee_fund = models.DecimalField(
        _("fonds de garantie justifié"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    ministry_notified_on = models.DateField(
        _("ministre informé le"),
        null=True,
        blank=True,
        validators=[validate_date_window],
        help_text=_("LU art. 26 : huit jours avant un relèvement du minimum."),
    )
    ministry_notice_reference = models.CharField(
        _("référence de l'information du ministre"),
        max_length=120,
        blank=True,
        default="",
        validators=[validate_no_control_characters],
        help_text=_("LU art. 26 : la référence de l'information (courrier, accusé de réception)."),
    )
    ministry_notice = models.ForeignKey(
        "tables.MinistryNotice",
        verbose_name=_("information du ministre"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="sessions",
        help_text=_("LU art. 26 : l'information inscrite huit jours au moins avant un minimum relevé."),
    )
    croupier = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("chef de table"), on_delete=models.PROTECT, related_name="+"
    )
    opened_at = models.DateTimeField(_("ouverte le"))
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("signataire de l'ouverture"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    delegation = models.ForeignKey(
        Delegation,
        verbose_name=_("maximum fixé par délégation"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    status = models.CharField(
        _("état"), max_length=12, choices=SessionStatus.choices, default=SessionStatus.OPEN
    )
    closed_at = models.DateTimeField(_("clôturée le"), null=True, blank=True)
    closing_cash = models.DecimalField(
        _("encaisse de clôture"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    advances_total = models.DecimalField(_("total des avances"), max_digits=14, decimal_places=2, default=0)
    result = models.DecimalField(_("résultat"), max_digits=14, decimal_places=2, null=True, blank=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("séance")
        verbose_name_plural = _("séances")
        ordering = ["-day", "table__number", "opened_at"]
        indexes = [models.Index(fields=["table", "day"], name="tables_session_table_day")]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=~models.Q(status="closed"),
                name="tables_one_running_session_per_table",
            )
        ]

    def __str__(self) -> str:
        # The table, the day and the hour it opened: a séance in words, never its database id.
        opened = dates.moment(self.opened_at)[-5:] if self.opened_at else "—"
        return str(_("%(table)s, journée du %(day)s, ouverte à %(opened)s")) % {
            "table": self.table.code,
            "day": dates.day(self.day),
            "opened": opened,
        }


class EntryKind(models.TextChoices):
    INITIAL_ADVANCE = "initial_advance", _("avance initiale")
    FURTHER_ADVANCE = "further_advance", _("avance complémentaire")
    INTERRUPTION_COUNTED = "interruption_counted", _("interruption : encaisse comptée")
    INTERRUPTION_LOCKED = "interruption_locked", _("interruption : encaisse sous clé")
    RESUMPTION = "resumption", _("reprise")
    CLOSING = "closing", _("encaisse de clôture certifiée exacte")
    CORRECTION = "correction", _("correction")


class AdvanceEntry(models.Model):
    """A line of a table's advance book (carnet d'avances, FR model n° 10; FR art. 42, 69; LU art. 9, 10).

    Lines are numbered per table without gaps and never changed: a correction
    is a new line pointing at the one it corrects, approved by the director
    (FR art. 68).
    """

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="advance_entries"
    )
    line = models.PositiveIntegerField(_("n° de ligne"))
    session = models.ForeignKey(
        Session, verbose_name=_("séance"), on_delete=models.PROTECT, related_name="entries"
    )
    kind = models.CharField(_("nature"), max_length=24, choices=EntryKind.choices)
    amount = models.DecimalField(_("montant"), max_digits=14, decimal_places=2, null=True, blank=True)
    at = models.DateTimeField(_("inscrite le"))
    counted_by = _optional_user(_("compté par"))
    signed_by = _optional_user(_("signé par"))
    cashier = _optional_user(_("caissier présent"))
    key_holder = _optional_user(_("détenteur de la clé"))
    corrects = models.ForeignKey(
        "self",
        verbose_name=_("corrige la ligne"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="corrections",
    )
    note = models.TextField(_("mention"), blank=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("inscription au carnet d'avances")
        verbose_name_plural = _("carnet d'avances")
        ordering = ["table__number", "line"]
        constraints = [models.UniqueConstraint(fields=["table", "line"], name="tables_advance_line_unique")]

    def __str__(self) -> str:
        return _("%(table)s ligne %(line)s — %(kind)s") % {
            "table": self.table.code,
            "line": self.line,
            "kind": self.get_kind_display(),
        }


class MaximumChange(models.Model):
    """The maximum changed during a session, shown on the table display (FR art. 55-5)."""

    session = models.ForeignKey(
        Session, verbose_name=_("séance"), on_delete=models.PROTECT, related_name="maximum_changes"
    )
    previous = models.DecimalField(_("ancien maximum"), max_digits=12, decimal_places=2)
    maximum = models.DecimalField(_("nouveau maximum"), max_digits=12, decimal_places=2)
    at = models.DateTimeField(_("modifié le"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("par"), on_delete=models.PROTECT, related_name="+"
    )
    display_changed = models.BooleanField(_("affichage de la table modifié"))
    delegation = models.ForeignKey(
        Delegation,
        verbose_name=_("par délégation"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    objects = BookManager()

    class Meta:
        verbose_name = _("changement du maximum")
        verbose_name_plural = _("changements du maximum")
        ordering = ["at"]

    def __str__(self) -> str:
        return f"{dates.amount(self.previous)} → {dates.amount(self.maximum)}"
