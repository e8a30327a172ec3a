"""The other books of the casino (LU art. 8, 51, 54, 57, 63; under FR, internal books).

Every row is written by one act of :mod:`house_books.services`, with its audit event
in the same transaction; entries are never edited nor deleted.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino_ops.validators import (
    DateWindowValidator,
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
    recorded_at = models.DateTimeField(_("inscrit le"), auto_now_add=True)

    class Meta:
        verbose_name = _("orphelin")
        verbose_name_plural = _("carnet des orphelins")
        ordering = ["number"]

    def __str__(self) -> str:
        return f"Orphelin n° {self.number} — {self.amount}"


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

    class Meta:
        verbose_name = _("remboursement d'un orphelin")
        verbose_name_plural = _("remboursements d'orphelins")
        ordering = ["repaid_on", "pk"]

    def __str__(self) -> str:
        return f"Remboursement de l'orphelin n° {self.entry.number} — {self.amount}"


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

    class Meta:
        verbose_name = _("versement au bureau de bienfaisance")
        verbose_name_plural = _("versements au bureau de bienfaisance")
        ordering = ["exercise"]

    def __str__(self) -> str:
        return f"Versement {self.exercise} — {self.amount}"


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

    class Meta:
        verbose_name = _("comptage des pourboires")
        verbose_name_plural = _("registre des pourboires")
        ordering = ["day"]

    def __str__(self) -> str:
        return f"Pourboires du {self.day:%d/%m/%Y} — {self.amount}"


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

    class Meta:
        verbose_name = _("heures des séances")
        verbose_name_plural = _("heures des séances notifiées")
        ordering = ["effective_from", "pk"]

    def __str__(self) -> str:
        return f"{self.weekday_start:%H:%M} / {self.holiday_start:%H:%M} – {self.closing:%H:%M}"


class EarlyStopReason(models.TextChoices):
    PLAYERS_LEFT = "players_left", _("les joueurs se sont retirés")
    NO_STAKE = "no_stake", _("trois coups de suite sans aucune mise")


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

    class Meta:
        verbose_name = _("défaillance de la contrepartie")
        verbose_name_plural = _("défaillances de la contrepartie")
        ordering = ["occurred_at", "pk"]

    def __str__(self) -> str:
        return f"Défaillance du {self.occurred_at:%d/%m/%Y %H:%M}"


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

    class Meta:
        verbose_name = _("nouvelle autorisation")
        verbose_name_plural = _("nouvelles autorisations")
        ordering = ["granted_on", "pk"]

    def __str__(self) -> str:
        return f"Autorisation {self.reference} du {self.granted_on:%d/%m/%Y}"


# -- Shoe devices (LU art. 32 §3, 40, 52) -------------------------------------------------------


class DeviceState(models.TextChoices):
    CABINET = "cabinet", _("dans l'armoire")
    ASSIGNED = "assigned", _("affecté à une table")
    DISPOSED = "disposed", _("détruit ou remis au successeur")


class ShoeDevice(models.Model):
    """A shoe (sabot) of an approved model, numbered by the casino, kept in the card cabinet."""

    number = models.PositiveIntegerField(_("numéro du casino"), unique=True)
    approved_model = models.CharField(
        _("modèle agréé"), max_length=120, validators=[validate_no_control_characters]
    )
    approval_reference = models.CharField(
        _("décision d'agrément du modèle"), max_length=120, validators=[validate_no_control_characters]
    )
    state = models.CharField(
        _("état"), max_length=16, choices=DeviceState.choices, default=DeviceState.CABINET
    )
    recorded_by = models.ForeignKey(
        USER, verbose_name=_("inscrit par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrit le"), auto_now_add=True)

    class Meta:
        verbose_name = _("sabot")
        verbose_name_plural = _("sabots")
        ordering = ["number"]

    def __str__(self) -> str:
        return f"Sabot n° {self.number}"


class DeviceAssignment(models.Model):
    """A shoe device assigned by the director to a table for a séance (gaming day)."""

    device = models.ForeignKey(
        ShoeDevice, verbose_name=_("sabot"), on_delete=models.PROTECT, related_name="assignments"
    )
    table_number = models.PositiveSmallIntegerField(_("table"))
    day = models.DateField(_("journée"), validators=[validate_date_window])
    assigned_by = models.ForeignKey(
        USER, verbose_name=_("affecté par"), on_delete=models.PROTECT, related_name="+"
    )
    assigned_at = models.DateTimeField(_("affecté le"), auto_now_add=True)
    returned_at = models.DateTimeField(_("rentré à l'armoire le"), null=True, blank=True)

    class Meta:
        verbose_name = _("affectation d'un sabot")
        verbose_name_plural = _("affectations des sabots")
        ordering = ["day", "table_number"]
        constraints = [
            models.UniqueConstraint(fields=["device", "day"], name="house_device_once_a_day"),
        ]

    def __str__(self) -> str:
        return f"Sabot n° {self.device.number} — table {self.table_number} — {self.day:%d/%m/%Y}"


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

    class Meta:
        verbose_name = _("exclusion")
        verbose_name_plural = _("fichier des exclus")
        ordering = ["decided_on", "pk"]

    def __str__(self) -> str:
        return f"{self.last_name.upper()} {self.first_names} ({self.birth_date:%d/%m/%Y}) — {self.decided_on:%d/%m/%Y}"


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

    class Meta:
        verbose_name = _("cessation de l'exploitation")
        verbose_name_plural = _("cessation de l'exploitation")
        ordering = ["closed_at"]

    def __str__(self) -> str:
        return f"Cessation du {timezone.localtime(self.closed_at):%d/%m/%Y %H:%M}"

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

    class Meta:
        verbose_name = _("avis de table")
        verbose_name_plural = _("avis des tables")
        ordering = ["table_number", "posted_at"]

    def __str__(self) -> str:
        return f"Avis table {self.table_number} — {self.day:%d/%m/%Y}"


class DeviceReturnEntry(DeviceAssignment):
    """The shoes put back in the cabinet at the end of their séance: the same rows, by their return."""

    class Meta:
        proxy = True
        verbose_name = _("retour d'un sabot à l'armoire")
        verbose_name_plural = _("retours des sabots à l'armoire")
