"""Who may act: every role given or taken back, and every change of a person's name, is an
entry of the book of roles (FR art. 68, 69; LU art. 10, 51, 54), written by an act of the
director and read by the officers. The Django groups that give the roles follow these entries;
a group or a name changed any other way is named by the self-inspection."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from audit.books import BookManager
from casino_ops import roles
from casino_ops.validators import validate_no_control_characters

USER = settings.AUTH_USER_MODEL


class RoleEntryKind(models.TextChoices):
    GRANT = "grant", _("attribution du rôle")
    WITHDRAWAL = "withdrawal", _("retrait du rôle")
    NAME = "name", _("changement de nom")


ROLE_CHOICES = [(role, label) for role, label in roles.LABELS.items()]


class RoleEntry(models.Model):
    """One line of the book of roles: who gave (or took back) which role to whom, and why; or a
    person's new name. ``person_name`` is the person's username and full name as the act left
    them, so that a name changed later without an act shows."""

    kind = models.CharField(_("acte"), max_length=16, choices=RoleEntryKind.choices)
    person = models.ForeignKey(USER, verbose_name=_("personne"), on_delete=models.PROTECT, related_name="+")
    role = models.CharField(_("rôle"), max_length=32, choices=ROLE_CHOICES, blank=True)
    person_name = models.CharField(
        _("nom de la personne"), max_length=400, validators=[validate_no_control_characters]
    )
    reason = models.CharField(_("motif"), max_length=500, validators=[validate_no_control_characters])
    recorded_by = models.ForeignKey(
        USER,
        verbose_name=_("inscrit par"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        help_text=_("Vide : le premier directeur, nommé à l'installation."),
    )
    recorded_at = models.DateTimeField(_("inscrit le"))

    objects = BookManager()

    class Meta:
        verbose_name = _("rôle attribué ou retiré")
        verbose_name_plural = _("livre des rôles (attributions, retraits, changements de nom)")
        ordering = ["recorded_at", "pk"]

    def __str__(self) -> str:
        what = self.get_role_display() if self.role else self.person_name
        return f"{self.get_kind_display()} — {self.person_name} — {what}"
