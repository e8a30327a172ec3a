"""The incident book: incidents, their reports and closures (FR art. 40, LU art. 7)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager
from casino_ops import clock
from casino_ops.validators import validate_date_window, validate_no_control_characters

from .decks import Deck
from .makers import Book

USER = settings.AUTH_USER_MODEL


class IncidentKind(models.TextChoices):
    MISSING = "missing", _("carte manquante")
    EXTRA = "extra", _("carte en trop")
    MARKED = "marked", _("carte marquée")
    FOREIGN = "foreign", _("carte étrangère")
    DAMAGED = "damaged", _("carte abîmée")
    BAND_BROKEN = "band", _("bande de contrôle rompue")


class IncidentRoute(models.TextChoices):
    """Where the card was found: every route opens the same incident (FR art. 40, LU art. 7)."""

    REPORT = "report", _("signalement")
    RETURN = "return", _("retour d'une table")
    DESTRUCTION = "destruction", _("destruction")
    REPLAY = "replay", _("rejeu d'un journal de mains")
    INSPECTION = "inspection", _("inventaire à l'ouverture du dépôt")
    TABLE_CHECK = "table_check", _("contrôle à la table")


class Incident(models.Model):
    """An incident reported at once to the officer (FR art. 40, LU art. 7)."""

    book = models.ForeignKey(
        Book, verbose_name=_("registre"), on_delete=models.PROTECT, related_name="incidents"
    )
    number = models.PositiveIntegerField(_("numéro"))
    kind = models.CharField(_("nature"), max_length=16, choices=IncidentKind.choices)
    occurred_at = models.DateTimeField(_("survenu le"), validators=[validate_date_window])
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    day = models.DateField(_("journée"), validators=[validate_date_window])
    shoe_reference = models.CharField(_("sabot"), max_length=64, blank=True)
    decks = models.ManyToManyField(
        Deck, verbose_name=_("jeux concernés"), blank=True, related_name="incidents"
    )
    route = models.CharField(
        _("constaté lors de"), max_length=16, choices=IncidentRoute.choices, default=IncidentRoute.REPORT
    )
    card = models.CharField(
        _("carte en cause"), max_length=150, blank=True, validators=[validate_no_control_characters]
    )
    officer_informed = models.ForeignKey(
        USER,
        verbose_name=_("officier avisé"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    authority_informed = models.CharField(
        _("autorité avisée (chef du service territorial de police judiciaire)"),
        max_length=150,
        blank=True,
        validators=[validate_no_control_characters],
    )
    officer_informed_at = models.DateTimeField(
        _("avisé le"), null=True, blank=True, validators=[validate_date_window]
    )
    circumstances = models.TextField(_("circonstances"), validators=[validate_no_control_characters])
    reported_by = models.ForeignKey(
        USER,
        verbose_name=_("signalé par"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Vide : relevé par le rejeu d'un journal de mains."),
    )
    recorded_at = models.DateTimeField(_("enregistré le"), default=clock.now, editable=False)

    objects = BookManager()

    class Meta:
        verbose_name = _("incident")
        verbose_name_plural = _("incidents")
        ordering = ["book__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["book", "number"], name="depot_incident_unique_number")
        ]

    def __str__(self) -> str:
        return _("Incident n° %(number)s — %(kind)s") % {
            "number": self.number,
            "kind": self.get_kind_display(),
        }

    @property
    def report(self) -> IncidentReport | None:
        """The later record of whom the incident was reported to (when not told on the spot)."""
        return getattr(self, "later_report", None)

    @property
    def told_at(self) -> dt.datetime | None:
        """When the officer (or the police judiciaire) was told, as the system knows it: the
        recording of the report (with the incident when told on the spot, or the later report,
        the officer's own acknowledgement included), never a moment typed (FR art. 40 §5, LU
        art. 7 §5); ``None`` while not yet told. The typed moment is :attr:`declared_told_at`."""
        if self.officer_informed_at is not None:
            return self.recorded_at
        report = self.report
        return report.recorded_at if report else None

    @property
    def declared_told_at(self) -> dt.datetime | None:
        """The moment the report declares the officer was told (kept beside :attr:`told_at`)."""
        if self.officer_informed_at is not None:
            return self.officer_informed_at
        report = self.report
        return report.informed_at if report else None

    @property
    def declared_gap(self) -> dt.timedelta | None:
        """How long after the moment it declares the report was recorded (``None`` while not told)."""
        told, declared = self.told_at, self.declared_told_at
        return None if told is None or declared is None else told - declared

    @property
    def told_whom(self) -> str:
        report = self.report if self.officer_informed_at is None else None
        officer = report.officer if report else self.officer_informed
        authority = report.authority if report else self.authority_informed
        if officer is not None:
            return officer.get_full_name() or officer.get_username()
        return authority

    @property
    def report_delay(self) -> dt.timedelta | None:
        """The time between the finding and the report (``None`` while not yet reported)."""
        told = self.told_at
        return None if told is None else told - self.occurred_at


class IncidentReport(models.Model):
    """The report of an incident recorded after it was opened (an incident found by a return,
    a destruction or a replay): whom it was reported to and when (FR art. 40, LU art. 7)."""

    incident = models.OneToOneField(
        Incident, verbose_name=_("incident"), on_delete=models.PROTECT, related_name="later_report"
    )
    officer = models.ForeignKey(
        USER,
        verbose_name=_("officier avisé"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    authority = models.CharField(
        _("autorité avisée (chef du service territorial de police judiciaire)"), max_length=150, blank=True
    )
    informed_at = models.DateTimeField(_("avisé le"))
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("enregistré par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("enregistré le"), default=clock.now, editable=False)

    objects = BookManager()

    class Meta:
        verbose_name = _("avis d'incident")
        verbose_name_plural = _("avis d'incidents")

    def __str__(self) -> str:
        return _("Avis de l'incident n° %(number)s") % {"number": self.incident.number}


class IncidentClosure(models.Model):
    """The officer closes an incident; the decks leave quarantine (fit, or out of use)."""

    incident = models.OneToOneField(
        Incident, verbose_name=_("incident"), on_delete=models.PROTECT, related_name="closure"
    )
    officer = models.ForeignKey(USER, verbose_name=_("officier"), on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("clos le"))
    finding = models.TextField(_("constatations"), validators=[validate_no_control_characters])
    decks_fit = models.ManyToManyField(
        Deck, verbose_name=_("jeux rendus à l'usage"), blank=True, related_name="+"
    )

    objects = BookManager()

    class Meta:
        verbose_name = _("clôture d'incident")
        verbose_name_plural = _("clôtures d'incidents")

    def __str__(self) -> str:
        return _("Clôture de l'incident n° %(number)s") % {"number": self.incident.number}
