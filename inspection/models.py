"""The printed registers (FR art. 68): a print requested and its progress (:class:`Report`,
:class:`ReportPart`), and the periods printed once and signed that later prints reuse
(:class:`RegisterPart`); see :mod:`inspection.registers`.

They were the audit app's models: their tables keep the names they had (``audit_report``,
``audit_reportpart``, ``audit_registerpart``) and the rows they hold, and the events recorded
before they moved name a report ``audit.report`` (:data:`FORMER_LABELS`).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino_ops import dates
from casino_ops.validators import validate_date_window


class Report(models.Model):
    """A register printed as a signed PDF, on someone's request (FR art. 68).

    ``key`` is derived from what is printed (register, period, table, part), so
    that a repeated request or a task delivered twice makes one report. A very
    large register is split by period into parts (``parent``), each its own
    signed PDF, so that a worker never holds too many pages at once.
    """

    #: the register's title, set by the views that show a report (not stored)
    title: str

    class State(models.TextChoices):
        PENDING = "pending", _("en attente")
        RUNNING = "running", _("en cours")
        SPLIT = "split", _("en plusieurs parties")
        DONE = "done", _("prêt")
        FAILED = "failed", _("échec")

    key = models.CharField(_("clé"), max_length=64, unique=True, editable=False)
    register = models.CharField(_("registre"), max_length=32)
    date_from = models.DateField(_("du"), validators=[validate_date_window])
    date_to = models.DateField(_("au"), validators=[validate_date_window])
    table_number = models.PositiveSmallIntegerField(_("table n°"), null=True, blank=True)
    parent = models.ForeignKey(
        "self",
        verbose_name=_("registre complet"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="parts",
    )
    part = models.PositiveSmallIntegerField(_("partie"), null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("demandé par"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    requested_at = models.DateTimeField(_("demandé le"), auto_now_add=True)
    state = models.CharField(_("état"), max_length=16, choices=State.choices, default=State.PENDING)
    progress = models.PositiveSmallIntegerField(_("avancement (%)"), default=0)
    attempts = models.PositiveSmallIntegerField(_("tentatives"), default=0)
    rows = models.PositiveIntegerField(_("lignes"), null=True, blank=True)
    pages = models.PositiveIntegerField(_("pages"), null=True, blank=True)
    head_seq = models.BigIntegerField(_("chaîne d'audit : n°"), null=True, blank=True)
    head_hash = models.CharField(_("chaîne d'audit : empreinte"), max_length=64, blank=True)
    sha256 = models.CharField(_("empreinte SHA-256 du PDF"), max_length=64, blank=True, db_index=True)
    file = models.FileField(_("fichier PDF signé"), upload_to="registers/", blank=True)
    error = models.TextField(_("erreur"), blank=True)
    started_at = models.DateTimeField(_("commencé le"), null=True, blank=True)
    finished_at = models.DateTimeField(_("terminé le"), null=True, blank=True)
    #: touched every few seconds by the process making the report (planning, a part, the
    #: assembly), cleared when it lets go: a heartbeat older than REPORT_HEARTBEAT_STALE_AFTER
    #: is a process that died (inspection.registers.heartbeat)
    heartbeat_at = models.DateTimeField(_("dernier signe de vie"), null=True, blank=True, editable=False)

    class Meta:
        db_table = "audit_report"
        verbose_name = _("registre imprimé")
        verbose_name_plural = _("registres imprimés")
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(date_from__lte=models.F("date_to")), name="audit_report_period"
            ),
            models.CheckConstraint(condition=models.Q(progress__lte=100), name="audit_report_progress"),
        ]

    def __str__(self) -> str:
        table = f" table {self.table_number}" if self.table_number is not None else ""
        part = " " + _("(partie %(part)s)") % {"part": self.part} if self.part else ""
        return f"{self.register}{table} {dates.day(self.date_from)}–{dates.day(self.date_to)}{part}"


class RegisterPart(models.Model):
    """One period of a register (a month, or a day for the daily books), printed once and signed.

    Stored with the hash of the books' content it was made from (``content_hash``)
    and reused by every later print of a period that covers it, until a correction
    or a late entry changes that content: then a new part is made for that period
    only (see :mod:`inspection.registers.parts`). ``checked_version`` is the version of
    the books at which the content was last found unchanged.
    """

    key = models.CharField(_("clé"), max_length=64, unique=True, editable=False)
    register = models.CharField(_("registre"), max_length=32)
    table_number = models.PositiveSmallIntegerField(_("table n°"), null=True, blank=True)
    date_from = models.DateField(_("du"))
    date_to = models.DateField(_("au"))
    content_hash = models.CharField(_("empreinte du contenu des livres"), max_length=64)
    checked_version = models.CharField(_("version des livres vérifiée"), max_length=100, blank=True)
    file = models.FileField(_("fichier PDF signé"), upload_to="registers/parts/")
    sha256 = models.CharField(_("empreinte SHA-256 du PDF"), max_length=64)
    pages = models.PositiveIntegerField(_("pages"))
    rows = models.PositiveIntegerField(_("lignes"))
    empty = models.BooleanField(_("sans inscription"), default=False)
    seconds = models.FloatField(_("durée de fabrication (s)"), default=0)
    made_at = models.DateTimeField(_("fait le"), auto_now_add=True)

    class Meta:
        db_table = "audit_registerpart"
        verbose_name = _("partie de registre")
        verbose_name_plural = _("parties de registre")
        ordering = ["register", "table_number", "date_from", "-made_at"]
        indexes = [
            models.Index(
                fields=["register", "table_number", "date_from", "date_to"], name="audit_part_period"
            )
        ]

    def __str__(self) -> str:
        table = f" table {self.table_number}" if self.table_number is not None else ""
        return f"{self.register}{table} {dates.day(self.date_from)}–{dates.day(self.date_to)}"


class ReportPartQuerySet(models.QuerySet["ReportPart"]):
    def done(self) -> int:
        """How many of these parts are made (``report.period_parts.done()``, in templates too)."""
        return self.filter(part__isnull=False).count()


class ReportPart(models.Model):
    """One period of a printed register: which stored part it takes (``part``, once made or found).

    A report's progress is ``report.period_parts.done()`` parts done over
    ``report.period_parts.count()``.
    """

    report = models.ForeignKey(
        Report, verbose_name=_("registre imprimé"), on_delete=models.CASCADE, related_name="period_parts"
    )
    number = models.PositiveSmallIntegerField(_("partie"))
    date_from = models.DateField(_("du"))
    date_to = models.DateField(_("au"))
    part = models.ForeignKey(
        RegisterPart, verbose_name=_("partie de registre"), null=True, blank=True, on_delete=models.PROTECT
    )
    reused = models.BooleanField(_("reprise sans refaire"), default=False)
    #: touched every few seconds by the process making this part, cleared when it lets go
    heartbeat_at = models.DateTimeField(_("dernier signe de vie"), null=True, blank=True, editable=False)

    objects = ReportPartQuerySet.as_manager()

    class Meta:
        db_table = "audit_reportpart"
        verbose_name = _("partie d'impression")
        verbose_name_plural = _("parties d'impression")
        ordering = ["report", "number"]
        constraints = [models.UniqueConstraint(fields=["report", "number"], name="audit_reportpart_number")]

    def __str__(self) -> str:
        return f"{self.report_id}/{self.number} {dates.day(self.date_from)}–{dates.day(self.date_to)}"


#: What the events recorded before these models moved here call them (the chain keeps what it
#: recorded): the former label -> the label now (``casino_ops.admin_display.FORMER_LABELS``).
FORMER_LABELS = {
    "audit.report": "inspection.report",
    "audit.reportpart": "inspection.reportpart",
    "audit.registerpart": "inspection.registerpart",
}


def report_types() -> tuple[str, ...]:
    """Every ``object_type`` a report's events carry: its label now, and the one before."""
    return (Report._meta.label_lower, "audit.report")
