"""The casino's own settings: one row, changed by the director only."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_otp.models import Device

from casino_ops import dates
from casino_ops.bookrows import BookManager
from tables.blackjack.rules import HOUSE_RULE_DEFAULTS, HOUSE_RULE_PROFILES, INTEGER_RULE_MINIMUM

from .regulations import Profile

# Hand-log §4, written once in the rules engine: the keys a house may change, under
# which profiles (key -> profiles), and their defaults. One model field per key below.
HOUSE_RULE_KEYS: dict[str, frozenset[str]] = HOUSE_RULE_PROFILES


#: The first day of the first rule (a casino's books start after it).
BEGINNING = dt.date(1, 1, 1)


def _latest_start(day: dt.date, month: int, start_day: int) -> dt.date:
    """The latest ``month``/``start_day`` on or before ``day``."""
    start = dt.date(day.year, month, start_day)
    return start if start <= day else start.replace(year=day.year - 1)


class CasinoSettings(models.Model):
    """The casino, its regulation profile and its règlement intérieur.

    A single row (pk 1). The authorised minimum stake comes from the casino's
    authorisation decree (FR art. 55-5, LU art. 33).
    """

    name = models.CharField(_("nom du casino"), max_length=200)
    profile = models.CharField(_("réglementation"), max_length=2, choices=Profile.choices, default=Profile.FR)
    authorised_min_stake = models.DecimalField(
        _("mise minimale autorisée"),
        max_digits=10,
        decimal_places=2,
        default=Decimal("5.00"),
        validators=[MinValueValidator(Decimal("0.10"))],
        help_text=_("Fixée par l'arrêté d'autorisation du casino."),
    )
    authorisation_reference = models.CharField(
        _("référence de l'arrêté d'autorisation"), max_length=200, blank=True
    )
    # House rules (hand-log §4); the profile limits which may differ from default.
    # (defaults and minima from the rules engine)
    double_after_split = models.BooleanField(
        _("doubler après séparation"), default=HOUSE_RULE_DEFAULTS["double_after_split"]
    )
    split_identical_only = models.BooleanField(
        _("séparer uniquement des cartes identiques"), default=HOUSE_RULE_DEFAULTS["split_identical_only"]
    )
    max_hands_after_split = models.PositiveSmallIntegerField(
        _("nombre maximal de mains après séparation"),
        null=True,
        blank=True,
        validators=[MinValueValidator(INTEGER_RULE_MINIMUM["max_hands_after_split"])],
        help_text=_("Vide : sans limite."),
    )
    resplit_aces = models.BooleanField(_("re-séparer les as"), default=HOUSE_RULE_DEFAULTS["resplit_aces"])
    surrender = models.BooleanField(_("abandon (surrender)"), default=HOUSE_RULE_DEFAULTS["surrender"])
    hit_on_21_forbidden = models.BooleanField(
        _("pas de carte sur 21"), default=HOUSE_RULE_DEFAULTS["hit_on_21_forbidden"]
    )
    single_player_two_boxes = models.BooleanField(
        _("un joueur seul joue deux cases"), default=HOUSE_RULE_DEFAULTS["single_player_two_boxes"]
    )
    max_boxes_per_player = models.PositiveSmallIntegerField(
        _("nombre maximal de cases par joueur"),
        null=True,
        blank=True,
        validators=[MinValueValidator(INTEGER_RULE_MINIMUM["max_boxes_per_player"])],
        help_text=_("Vide : sans limite."),
    )
    # The gaming day and the exercise (FR art. 42, 49; LU art. 9, 26).
    gaming_day_rollover = models.TimeField(
        _("heure de changement de journée de jeu"),
        default=dt.time(6, 0),
        blank=True,
        help_text=_(
            "Une séance commencée avant cette heure appartient à la journée de jeu de la veille "
            "(ex. 06:00 : une séance ouverte à 01:30 appartient à la soirée où elle a commencé)."
        ),
    )
    exercise_start_month = models.PositiveSmallIntegerField(
        _("début de l'exercice : mois"),
        default=1,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(12)],
        help_text=_("L'avance, le minimum relevé et le maximum (LU) sont fixés pour l'exercice."),
    )
    exercise_start_day = models.PositiveSmallIntegerField(
        _("début de l'exercice : jour"),
        default=1,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(28)],
    )
    updated_at = models.DateTimeField(_("modifié le"), auto_now=True)

    objects = BookManager()

    class Meta:
        verbose_name = _("paramètres du casino")
        verbose_name_plural = _("paramètres du casino")

    def __str__(self) -> str:
        return f"{self.name} ({self.profile})"

    def clean(self) -> None:
        """Once set, the authorised minimum changes only by an act citing the decree, stamped by an
        officer (FR art. 55-5; LU art. 26, 33), not by editing the settings."""
        if self.pk is not None:
            stored = (
                CasinoSettings.objects.filter(pk=self.pk)
                .values_list("authorised_min_stake", flat=True)
                .first()
            )
            if (
                stored is not None
                and self.authorised_min_stake is not None
                and stored != self.authorised_min_stake
            ):
                raise ValidationError(
                    {
                        "authorised_min_stake": _(
                            "La mise minimale autorisée est celle de l'arrêté d'autorisation : elle ne change "
                            "que par un acte citant l'arrêté (référence, date d'entrée en vigueur), visé par "
                            "un fonctionnaire."
                        )
                    }
                )

    # --- The gaming day and the exercise, as they stood on each day -----------------------
    #
    # A change of the roll-over or of the exercise's start governs only the days not yet
    # opened (FR art. 42, 49; LU art. 9, 26): each change is a CalendarRule row, and a
    # moment or a day is read under the rule in force on its own day, so no séance,
    # maximum or advance already written moves to another day or exercise. Without any
    # row (a casino that never changed them), the fields above are the rule.

    def calendar_rules(self) -> list[CalendarRule]:
        rules: list[CalendarRule] | None = self.__dict__.get("_calendar_rules")
        if rules is None:
            rules = list(CalendarRule.objects.order_by("effective_from", "pk")) if self.pk else []
            if self.pk:
                # read once per instance, none found included (a casino that never changed
                # them reads the fields below, as they stand now): forget_calendar() reads again
                self.__dict__["_calendar_rules"] = rules
        if rules:
            return rules
        return [
            CalendarRule(
                effective_from=BEGINNING,
                exercise_from=BEGINNING,
                gaming_day_rollover=self.gaming_day_rollover,
                exercise_start_month=self.exercise_start_month,
                exercise_start_day=self.exercise_start_day,
            )
        ]

    def forget_calendar(self) -> None:
        self.__dict__.pop("_calendar_rules", None)

    def rollover_on(self, day: dt.date) -> dt.time:
        """The roll-over hour that opens the gaming day ``day``."""
        rule = self.calendar_rules()[0]
        for candidate in self.calendar_rules():
            if candidate.effective_from <= day:
                rule = candidate
        return rule.gaming_day_rollover

    def gaming_day(self, moment: dt.datetime) -> dt.date:
        """The gaming day a moment belongs to: its local date, less one day before the roll-over
        hour of that date (the hour in force on that day, not today's)."""
        local = timezone.localtime(moment)
        day = local.date()
        return day - dt.timedelta(days=1) if local.time() < self.rollover_on(day) else day

    def exercise_start(self, day: dt.date) -> dt.date:
        """The first day of the exercise (fiscal year, season) that ``day`` belongs to.

        A change of the exercise's start takes effect at the start of the next exercise
        (its ``exercise_from``); an exercise is named by the year it starts in, so when the
        new rule's first start falls in the same year, that stretch joins the exercise
        that began at ``exercise_from`` (one longer exercise, never two of one name)."""
        rules = sorted(self.calendar_rules(), key=lambda r: (r.exercise_from, r.pk or 0))
        rule = rules[0]
        for candidate in rules:
            if candidate.exercise_from <= day:
                rule = candidate
        floor = rule.exercise_from
        start = _latest_start(day, rule.exercise_start_month, rule.exercise_start_day)
        if start <= floor:
            return floor
        before = max(
            floor,
            _latest_start(start - dt.timedelta(days=1), rule.exercise_start_month, rule.exercise_start_day),
        )
        return before if before.year == start.year else start

    def exercise_of(self, day: dt.date) -> int:
        """The exercise of ``day``, named by the year it starts in."""
        return self.exercise_start(day).year

    def next_exercise_start(self, after: dt.date) -> dt.date:
        """The first day after ``after`` that starts an exercise under the rules as they stand."""
        candidates = {r.exercise_from for r in self.calendar_rules() if r.exercise_from > after}
        for rule in self.calendar_rules():
            for year in range(after.year, after.year + 4):
                candidates.add(dt.date(year, rule.exercise_start_month, rule.exercise_start_day))
        for candidate in sorted(c for c in candidates if c > after):
            if self.exercise_start(candidate) == candidate:
                return candidate
        raise ValueError("no exercise starts within three years")  # pragma: no cover

    def house_rules(self) -> dict[str, object]:
        """The hand-log ``house_rules`` object: the keys that differ from default."""
        return {
            key: getattr(self, key)
            for key, default in HOUSE_RULE_DEFAULTS.items()
            if getattr(self, key) != default
        }


class CalendarRule(models.Model):
    """A change of the gaming day's roll-over or of the exercise's start (FR art. 42, 49; LU
    art. 9, 26), never updated: the roll-over governs the gaming days from ``effective_from``,
    the exercise's start the exercises from ``exercise_from`` (a day that starts one), both
    days not yet opened when the director made the change; the days already opened keep the
    rule they were opened under."""

    effective_from = models.DateField(_("journée de jeu à partir de laquelle l'heure s'applique"))
    exercise_from = models.DateField(_("premier jour du premier exercice régi"))
    gaming_day_rollover = models.TimeField(_("heure de changement de journée de jeu"))
    exercise_start_month = models.PositiveSmallIntegerField(
        _("début de l'exercice : mois"), validators=[MinValueValidator(1), MaxValueValidator(12)]
    )
    exercise_start_day = models.PositiveSmallIntegerField(
        _("début de l'exercice : jour"), validators=[MinValueValidator(1), MaxValueValidator(28)]
    )
    recorded_at = models.DateTimeField(_("enregistré le"))

    objects = BookManager()

    class Meta:
        verbose_name = _("changement de journée de jeu ou d'exercice")
        verbose_name_plural = _("changements de journée de jeu ou d'exercice")
        ordering = ("effective_from", "pk")

    def __str__(self) -> str:
        return f"{dates.day(self.effective_from)} {self.gaming_day_rollover:%H:%M}"


class OfficerEnrolment(Device, models.Model):  # type: ignore[misc,django-manager-missing]  # django-otp has no types
    """An officer's enrolment, as the supervising authority signed it (``document``): who, for
    which casino, from when to when, and his passkey (a django-otp device: signing in with it
    verifies the session). The columns repeat the document for the queries; every check reads
    the document and its signature (:mod:`casino_ops.officers`), never the columns alone."""

    serial = models.CharField(_("numéro d'habilitation"), max_length=64, unique=True)
    casino = models.CharField(_("casino"), max_length=64)
    valid_from = models.DateTimeField(_("habilité du"))
    valid_to = models.DateTimeField(_("habilité jusqu'au"))
    rp_id = models.CharField(_("site de la clé d'accès"), max_length=253)
    credential_id = models.CharField(_("identifiant de la clé d'accès"), max_length=1400)
    document = models.TextField(_("habilitation signée par l'autorité"))
    imported_at = models.DateTimeField(_("enregistrée le"))
    revoked_at = models.DateTimeField(_("révoquée le"), null=True, blank=True)
    revocation = models.TextField(_("révocation signée par l'autorité"), blank=True)

    class Meta:
        verbose_name = _("habilitation d'officier")
        verbose_name_plural = _("habilitations d'officiers")
        ordering = ("valid_from", "pk")

    def __str__(self) -> str:
        return _("Habilitation %(serial)s de %(user)s") % {"serial": self.serial, "user": self.user}


class OfficerChallenge(models.Model):
    """A challenge an officer's passkey has signed: each is accepted once (no replay)."""

    digest = models.CharField(max_length=64, unique=True)
    at = models.DateTimeField()

    class Meta:
        verbose_name = _("défi signé par un officier")
        verbose_name_plural = _("défis signés par les officiers")

    def __str__(self) -> str:
        return self.digest
