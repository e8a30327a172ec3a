"""Tables of play (FR art. 42, 55-4, 55-5; LU art. 9, 32, 33)."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.TextChoices):
    BLACKJACK = "blackjack", _("Black-jack")


class Table(models.Model):
    """A table of play: its number is that of its cash box and advance book (FR art. 42)."""

    number = models.PositiveSmallIntegerField(_("numéro"), unique=True)
    code = models.CharField(
        _("code"), max_length=16, unique=True, help_text=_("Identifiant dans les journaux de mains, ex. BJ03.")
    )
    game = models.CharField(_("jeu"), max_length=16, choices=Game.choices, default=Game.BLACKJACK)
    boxes = models.PositiveSmallIntegerField(
        _("nombre de cases"),
        default=7,
        validators=[MinValueValidator(1), MaxValueValidator(7)],
    )
    in_service = models.BooleanField(_("en service"), default=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["number"]

    def __str__(self) -> str:
        return f"{self.code} — {self.get_game_display()} n° {self.number}"
