"""Tables of play (FR art. 42, 55-4, 55-5; LU art. 9, 32, 33)."""

import datetime as dt

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from casino_ops.validators import validate_date_window, validate_no_control_characters

from .blackjack.rules import MAX_BOXES


def _optional_user(label: str) -> models.ForeignKey:
    """A user who may be named on an entry (signer, witness, key holder…); never deleted."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=label,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )


class Game(models.TextChoices):
    BLACKJACK = "blackjack", _("Black-jack")


class Table(models.Model):
    """A table of play: its number is that of its cash box and advance book (FR art. 42)."""

    number = models.PositiveSmallIntegerField(_("numéro"), unique=True)
    code = models.CharField(
        _("code"),
        max_length=16,
        unique=True,
        help_text=_("Identifiant dans les journaux de mains, ex. BJ03."),
    )
    game = models.CharField(
        pgettext_lazy("game played at a table", "jeu"),
        max_length=16,
        choices=Game.choices,
        default=Game.BLACKJACK,
    )
    boxes = models.PositiveSmallIntegerField(
        _("nombre de cases"),
        default=MAX_BOXES,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_BOXES)],  # boxes 1 to 7 (hand-log §2)
    )
    in_service = models.BooleanField(_("en service"), default=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["number"]

    def __str__(self) -> str:
        return f"{self.code} — {self.get_game_display()} n° {self.number}"


class Delegation(models.Model):
    """The director's delegate for the direction of play (LU art. 51 V): a committee member,
    approved as such by the minister, who may fix the maximum in the director's place. A dated
    act, never changed; it ends on ``valid_until`` (or by a later act ending it)."""

    delegate = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("délégué"), on_delete=models.PROTECT, related_name="+"
    )
    approval_reference = models.CharField(_("référence de l'agrément du ministre"), max_length=200)
    approved_on = models.DateField(_("agréé le"))
    valid_from = models.DateField(_("en vigueur du"))
    valid_until = models.DateField(_("en vigueur jusqu'au"), null=True, blank=True)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("directeur responsable"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    at = models.DateTimeField(_("acte du"))

    class Meta:
        verbose_name = _("délégation pour la direction des jeux")
        verbose_name_plural = _("délégations pour la direction des jeux")
        ordering = ["-valid_from", "-at"]

    def __str__(self) -> str:
        return f"{self.delegate} — {self.approval_reference} ({self.valid_from:%d/%m/%Y})"

    def covers(self, day: dt.date) -> bool:
        return self.valid_from <= day and (self.valid_until is None or day <= self.valid_until)


class AuthorisedMinimum(models.Model):
    """The authorised minimum stake changed by the authorisation decree (FR art. 55-5; LU art. 26,
    33): an act citing the decree (reference, date in force), stamped by an officer before it
    takes effect. Until the first such act, the casino's setting holds."""

    minimum = models.DecimalField(_("mise minimale autorisée"), max_digits=10, decimal_places=2)
    decree_reference = models.CharField(_("référence de l'arrêté"), max_length=200)
    decree_date = models.DateField(_("arrêté du"))
    in_force_on = models.DateField(_("en vigueur le"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("inscrit par"), on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("inscrit le"))
    stamped_by = _optional_user(_("visé par"))
    stamped_at = models.DateTimeField(_("visé le"), null=True, blank=True)

    class Meta:
        verbose_name = _("minimum autorisé (arrêté)")
        verbose_name_plural = _("minima autorisés (arrêtés)")
        ordering = ["-in_force_on", "-recorded_at"]

    def __str__(self) -> str:
        return f"{self.minimum} — {self.decree_reference} ({self.in_force_on:%d/%m/%Y})"


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
        return f"{self.table.code} {self.day:%d/%m/%Y} #{self.pk}"


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

    class Meta:
        verbose_name = _("inscription au carnet d'avances")
        verbose_name_plural = _("carnet d'avances (modèle n° 10)")
        ordering = ["table__number", "line"]
        constraints = [models.UniqueConstraint(fields=["table", "line"], name="tables_advance_line_unique")]

    def __str__(self) -> str:
        return f"{self.table.code} ligne {self.line} — {self.get_kind_display()}"


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

    class Meta:
        verbose_name = _("changement du maximum")
        verbose_name_plural = _("changements du maximum")
        ordering = ["at"]

    def __str__(self) -> str:
        return f"{self.previous} → {self.maximum}"


class ControlDay(models.Model):
    """A day of the control register (registre de contrôle, FR model n° 12; FR art. 68, 72)."""

    day = models.DateField(_("journée"), unique=True)
    closed_at = models.DateTimeField(_("arrêtée le"), null=True, blank=True)
    closed_by = _optional_user(_("arrêtée par"))
    total = models.DecimalField(
        _("total de la journée"), max_digits=16, decimal_places=2, null=True, blank=True
    )

    class Meta:
        verbose_name = _("journée du registre de contrôle")
        verbose_name_plural = _("registre de contrôle (modèle n° 12)")
        ordering = ["-day"]

    def __str__(self) -> str:
        return f"{self.day:%d/%m/%Y}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


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

    class Meta:
        verbose_name = _("ligne du registre de contrôle")
        verbose_name_plural = _("lignes du registre de contrôle")
        ordering = ["control_day", "table__number", "id"]

    def __str__(self) -> str:
        return f"{self.table.code} {self.result}" + (" (correction)" if self.corrects_id else "")


class Shoe(models.Model):
    """A shoe of a session, filled from a sixain issued by the card depot (FR art. 40, 55-4; LU art. 7, 32).

    The decks' serials are copied on :class:`ShoeDeck` rows so that a deck's
    history shows every shoe and session it served.
    """

    session = models.ForeignKey(
        Session, verbose_name=_("séance"), on_delete=models.PROTECT, related_name="shoes"
    )
    number = models.PositiveSmallIntegerField(_("n° dans la séance"))
    label = models.CharField(
        _("identifiant du sabot"), max_length=64, unique=True, help_text=_("shoe_id des journaux de mains.")
    )
    filled_at = models.DateTimeField(_("garni le"))
    croupier = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("croupier"), on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("sabot")
        verbose_name_plural = _("sabots")
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="tables_shoe_number_unique")
        ]

    def __str__(self) -> str:
        return self.label


class ShoeDeck(models.Model):
    shoe = models.ForeignKey(Shoe, verbose_name=_("sabot"), on_delete=models.PROTECT, related_name="decks")
    deck = models.ForeignKey(
        "cards_registry.Deck", verbose_name=_("jeu"), on_delete=models.PROTECT, related_name="+"
    )
    serial = models.CharField(_("numéro de série"), max_length=64)
    back_colour = models.CharField(_("couleur du dos"), max_length=32)

    class Meta:
        verbose_name = _("jeu du sabot")
        verbose_name_plural = _("jeux du sabot")
        constraints = [models.UniqueConstraint(fields=["shoe", "deck"], name="tables_shoe_deck_unique")]

    def __str__(self) -> str:
        return f"{self.serial} ({self.back_colour})"


class HandLogSource(models.TextChoices):
    API = "api", _("API")
    ADMIN = "admin", _("administration")
    COMMAND = "command", _("commande")


class HandLog(models.Model):
    """A hand log (``casino-hand-log/1``), stored unchanged with its SHA-256 (FR art. 55-4, 55-5)."""

    session = models.ForeignKey(
        Session, verbose_name=_("séance"), on_delete=models.PROTECT, related_name="hand_logs"
    )
    shoe = models.ForeignKey(
        Shoe,
        verbose_name=_("sabot"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="hand_logs",
    )
    croupier = _optional_user(_("croupier"))
    sha256 = models.CharField(_("empreinte SHA-256"), max_length=64, unique=True)
    raw = models.TextField(_("journal tel que reçu"))
    shoe_label = models.CharField(_("shoe_id du journal"), max_length=200)
    table_code = models.CharField(_("table du journal"), max_length=64)
    profile = models.CharField(_("réglementation du journal"), max_length=2)
    limits_min = models.DecimalField(_("minimum du journal"), max_digits=14, decimal_places=2)
    limits_max = models.DecimalField(_("maximum du journal"), max_digits=14, decimal_places=2)
    house_rules = models.JSONField(_("règles du journal"), default=dict)
    rounds = models.PositiveIntegerField(_("manches"))
    source = models.CharField(_("origine"), max_length=8, choices=HandLogSource.choices)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("déposé par"), on_delete=models.PROTECT, related_name="+"
    )
    uploaded_at = models.DateTimeField(_("déposé le"))

    class Meta:
        verbose_name = _("journal de mains")
        verbose_name_plural = _("journaux de mains")
        ordering = ["-uploaded_at"]

    def __str__(self) -> str:
        return f"{self.shoe_label} ({self.sha256[:12]})"


class ReplayState(models.TextChoices):
    DONE = "done", _("rejoué")


class Replay(models.Model):
    """The one replay of a hand log (a unique row per log: replaying twice stores one result)."""

    hand_log = models.OneToOneField(
        HandLog, verbose_name=_("journal"), on_delete=models.PROTECT, related_name="replay"
    )
    state = models.CharField(_("état"), max_length=8, choices=ReplayState.choices, default=ReplayState.DONE)
    ok = models.BooleanField(_("conforme"))
    rounds_replayed = models.PositiveIntegerField(_("manches rejouées en entier"))
    discrepancy_count = models.PositiveIntegerField(_("écarts"))
    overpaid = models.DecimalField(_("payé à tort aux joueurs"), max_digits=14, decimal_places=2)
    underpaid = models.DecimalField(_("payé à tort à la maison"), max_digits=14, decimal_places=2)
    finished_at = models.DateTimeField(_("rejoué le"))

    class Meta:
        verbose_name = _("rejeu")
        verbose_name_plural = _("rejeux")

    def __str__(self) -> str:
        return f"rejeu {self.hand_log_id}"


class Discrepancy(models.Model):
    """One discrepancy found by the replay, or between a log and its session (limits, profile, house rules)."""

    hand_log = models.ForeignKey(
        HandLog, verbose_name=_("journal"), on_delete=models.PROTECT, related_name="discrepancies"
    )
    session = models.ForeignKey(
        Session, verbose_name=_("séance"), on_delete=models.PROTECT, related_name="discrepancies"
    )
    code = models.CharField(_("code"), max_length=32)
    round = models.PositiveIntegerField(_("manche"), null=True, blank=True)
    box = models.PositiveSmallIntegerField(_("case"), null=True, blank=True)
    hand = models.PositiveSmallIntegerField(_("main"), null=True, blank=True)
    player = models.CharField(_("joueur"), max_length=64, blank=True)
    expected = models.DecimalField(_("montant dû"), max_digits=14, decimal_places=2, null=True, blank=True)
    recorded = models.DecimalField(
        _("montant enregistré"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    delta = models.DecimalField(
        _("écart de paiement"),
        max_digits=14,
        decimal_places=2,
        default=0,
        help_text=_("Enregistré moins dû : positif en faveur du joueur, négatif en faveur de la maison."),
    )
    article = models.CharField(_("article"), max_length=64)
    detail = models.JSONField(_("détail"), default=dict)

    class Meta:
        verbose_name = _("écart")
        verbose_name_plural = _("écarts")
        ordering = ["hand_log", "id"]
        indexes = [models.Index(fields=["session", "code"], name="tables_disc_session_code")]

    def __str__(self) -> str:
        return f"{self.code} manche {self.round}"


class DiscrepancyAcknowledgement(models.Model):
    """The director has taken note of a discrepancy found by the replay (a dated, signed act)."""

    discrepancy = models.OneToOneField(
        Discrepancy, verbose_name=_("écart"), on_delete=models.PROTECT, related_name="acknowledgement"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("directeur"), on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(_("pris en compte le"))
    note = models.TextField(_("observation"), blank=True)

    class Meta:
        verbose_name = _("prise de connaissance d'un écart")
        verbose_name_plural = _("prises de connaissance des écarts")
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.discrepancy} — {self.by}"
