"""Shoes, hand logs, their replays and discrepancies (FR art. 55-4, 55-5; LU art. 32, 33)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager

from .floor import _optional_user
from .sessions import Session


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

    objects = BookManager()

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

    objects = BookManager()

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

    objects = BookManager()

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

    objects = BookManager()

    class Meta:
        verbose_name = _("rejeu")
        verbose_name_plural = _("rejeux")

    def __str__(self) -> str:
        return gettext("rejeu du journal %(log)s") % {"log": self.hand_log_id}


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

    objects = BookManager()

    class Meta:
        verbose_name = _("écart")
        verbose_name_plural = _("écarts")
        ordering = ["hand_log", "id"]
        indexes = [models.Index(fields=["session", "code"], name="tables_disc_session_code")]

    def __str__(self) -> str:
        # The code stays out of the title (the admin shows it as a caption, by its label).
        where = f", {gettext('manche')} {self.round}" if self.round is not None else ""
        return f"{gettext('écart')} n° {self.pk}{where}"


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

    objects = BookManager()

    class Meta:
        verbose_name = _("prise de connaissance d'un écart")
        verbose_name_plural = _("prises de connaissance des écarts")
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.discrepancy} — {self.by}"
