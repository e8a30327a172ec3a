"""The audit record: one row per regulated act, chained by SHA-256.

An event is written in the transaction of the act it records, then sealed
into the chain: it receives its gapless sequence number, the previous event's
hash and its own hash (see :mod:`audit.chain`). The database refuses every
other change: no UPDATE of a sealed event, no DELETE, no TRUNCATE (FR art. 68:
books without erasure or overwriting).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditEvent(models.Model):
    id = models.BigAutoField(primary_key=True)
    seq = models.BigIntegerField(_("numéro d'ordre"), null=True, unique=True, editable=False)
    recorded_at = models.DateTimeField(_("enregistré le"), editable=False)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("auteur"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
    )
    actor_name = models.CharField(_("auteur (nom)"), max_length=150, editable=False)
    action = models.CharField(_("acte"), max_length=64, editable=False)
    object_type = models.CharField(_("type d'objet"), max_length=100, editable=False)
    object_id = models.CharField(_("identifiant de l'objet"), max_length=64, editable=False)
    payload = models.TextField(_("contenu (JSON canonique)"), editable=False)
    prev_hash = models.CharField(_("empreinte précédente"), max_length=64, null=True, editable=False)
    hash = models.CharField(_("empreinte SHA-256"), max_length=64, null=True, editable=False)
    sealed_at = models.DateTimeField(_("scellé le"), null=True, editable=False)

    class Meta:
        db_table = "audit_event"
        verbose_name = _("événement d'audit")
        verbose_name_plural = _("journal d'audit")
        ordering = ["seq"]
        indexes = [
            models.Index(fields=["object_type", "object_id"], name="audit_event_object"),
            models.Index(fields=["action"], name="audit_event_action"),
            models.Index(
                fields=["id"], name="audit_event_pending", condition=models.Q(seq__isnull=True)
            ),
        ]

    def __str__(self) -> str:
        number = self.seq if self.seq is not None else "…"
        return f"#{number} {self.action} {self.object_type}:{self.object_id}"
