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

from casino_ops import dates


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
        # No index: an event is never looked up by its author's id alone (the lists
        # filter by name, and users are never deleted); one index less to write. No
        # constraint in the database either: its check at every commit locks the
        # author's row (FOR KEY SHARE), which many acts by one person at once turn
        # into shared locks to manage. The chain does not rest on it (the author's
        # name is hashed); the ORM still refuses to delete a user with events (PROTECT).
        db_index=False,
        db_constraint=False,
    )
    actor_name = models.CharField(_("auteur (nom)"), max_length=150, editable=False)
    action = models.CharField(_("acte"), max_length=64, editable=False)
    object_type = models.CharField(_("type d'objet"), max_length=100, editable=False)
    object_id = models.CharField(_("identifiant de l'objet"), max_length=64, editable=False)
    payload = models.TextField(_("contenu (JSON canonique)"), editable=False)
    # HMAC-SHA256 of the event's canonical bytes, keyed by AUDIT_EVENT_KEY (audit.chain).
    # A genuine event copied into the table again is refused: (recorded_at, mac) is
    # unique. The moment leads the index, so that each new entry lands at its right
    # edge (a MAC alone is random: every insert would touch a page anywhere in an
    # index that outgrows memory); a copy with another moment fails its MAC instead.
    mac = models.CharField(_("code d'authentification (HMAC)"), max_length=64, null=True, editable=False)
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
            # The forged events' alarms only (the dashboard's count, the sealer's
            # "already reported"): a partial index, written once per alarm, not per event.
            models.Index(
                fields=["object_id"],
                name="audit_event_forged",
                condition=models.Q(action="audit.forged_event"),
            ),
            models.Index(fields=["id"], name="audit_event_pending", condition=models.Q(seq__isnull=True)),
            # The officers' audit trail filtered by act (a code or its beginning, "depot."), newest
            # first: without it, the page walks back the whole record for a rare act.
            models.Index(
                fields=["action", "seq"],
                name="audit_event_action",
                opclasses=["varchar_pattern_ops", "int8_ops"],
            ),
        ]
        constraints = [
            models.UniqueConstraint(fields=["recorded_at", "mac"], name="audit_event_copy_refused")
        ]

    def __str__(self) -> str:
        # Its number in the record, never its codes (the admin and the portal say the act in words).
        if self.seq is None:
            return str(_("événement d'audit en attente de scellement"))
        return str(_("événement d'audit n° %(n)s")) % {"n": self.seq}


class Checkpoint(models.Model):
    """A signed statement of the audit chain's head: sequence, hash, Merkle tree head, time.

    Kept outside the chain and exported to officers, it makes a chain
    rewritten afterwards with recomputed hashes detectable: the chain's hash
    at ``seq`` no longer equals the one the casino signed. Checkpoints are
    numbered without gaps, each statement names its predecessor's hash
    (``prev_hash``: the SHA-256 of the previous statement), and each is also
    written to the witness outside the database (audit.checkpoints). The
    database refuses any UPDATE, DELETE or TRUNCATE of this table.
    """

    number = models.BigIntegerField(_("numéro"), unique=True, editable=False)
    seq = models.BigIntegerField(_("numéro d'ordre de la tête"), unique=True, editable=False)
    head_hash = models.CharField(_("empreinte de la tête"), max_length=64, editable=False)
    root_hash = models.CharField(
        _("racine de l'arbre de Merkle (RFC 9162)"), max_length=64, blank=True, editable=False
    )
    prev_hash = models.CharField(_("empreinte du point de contrôle précédent"), max_length=64, editable=False)
    statement_hash = models.CharField(_("empreinte de la déclaration"), max_length=64, editable=False)
    made_at = models.DateTimeField(_("fait le"), editable=False)
    statement = models.TextField(_("déclaration signée (JSON canonique)"), editable=False)
    signature = models.BinaryField(_("signature CMS détachée (DER)"), editable=False)
    signer = models.CharField(_("signataire"), max_length=300, editable=False)

    class Meta:
        verbose_name = _("point de contrôle signé")
        verbose_name_plural = _("points de contrôle signés")
        ordering = ["-seq"]

    def __str__(self) -> str:
        return str(_("point de contrôle n° %(n)s, du %(at)s")) % {
            "n": self.seq,
            "at": dates.moment(self.made_at),
        }


class MerkleNode(models.Model):
    """The hash of one perfect subtree of the record's Merkle tree (RFC 9162), kept
    so that proofs stay fast: ``level`` (the subtree holds ``2**level`` events),
    ``index`` (its position at that level). Written when a checkpoint is made,
    append-only; see audit.merkle."""

    level = models.PositiveSmallIntegerField(_("niveau"), editable=False)
    index = models.BigIntegerField(_("position"), editable=False)
    hash = models.CharField(_("empreinte"), max_length=64, editable=False)

    class Meta:
        db_table = "audit_merkle_node"
        verbose_name = _("nœud de l'arbre de Merkle")
        verbose_name_plural = _("nœuds de l'arbre de Merkle")
        constraints = [models.UniqueConstraint(fields=["level", "index"], name="audit_merkle_node_position")]

    def __str__(self) -> str:
        return f"{self.level}/{self.index} {self.hash[:16]}…"


class CheckpointNote(models.Model):
    """A checkpoint in the standard form (C2SP tlog-checkpoint v1.0.0): a note of three lines
    (the casino's origin, the tree size, the base64 Merkle root) signed with the casino's
    Ed25519 note key, which the authority's witnesses cosign (audit.witnesses)."""

    # No constraint in the database: the record's own tables stay as they were (their guards,
    # not this table, stop a truncation); a note whose checkpoint is gone is named by verify_audit.
    checkpoint = models.OneToOneField(
        Checkpoint,
        verbose_name=_("point de contrôle signé"),
        on_delete=models.PROTECT,
        related_name="tlog_note",
        db_constraint=False,
    )
    origin = models.CharField(_("origine"), max_length=255, editable=False)
    size = models.BigIntegerField(_("taille de l'arbre"), unique=True, editable=False)
    root = models.CharField(_("racine (hex)"), max_length=64, editable=False)
    note = models.TextField(_("note signée (C2SP)"), editable=False)
    made_at = models.DateTimeField(_("faite le"), auto_now_add=True)

    class Meta:
        verbose_name = _("point de contrôle C2SP")
        verbose_name_plural = _("points de contrôle C2SP")
        ordering = ["-size"]

    def __str__(self) -> str:
        return f"{self.origin} {self.size}"


class Cosignature(models.Model):
    """A witness's cosignature of a checkpoint (C2SP tlog-cosignature, cosignature/v1): its
    signature line and the witness's time in it (``timestamp``, seconds since the Epoch)."""

    note = models.ForeignKey(
        CheckpointNote,
        verbose_name=_("point de contrôle"),
        on_delete=models.PROTECT,
        related_name="cosignatures",
    )
    witness = models.CharField(_("témoin"), max_length=200)
    timestamp = models.BigIntegerField(_("heure du témoin (secondes POSIX)"))
    line = models.TextField(_("ligne de cosignature"))
    received_at = models.DateTimeField(_("reçue le"), auto_now_add=True)

    class Meta:
        verbose_name = _("cosignature")
        verbose_name_plural = _("cosignatures")
        ordering = ["note", "witness"]
        constraints = [models.UniqueConstraint(fields=["note", "witness"], name="audit_cosignature_once")]

    def __str__(self) -> str:
        return f"{self.witness} {self.note.size} {self.timestamp}"


class WitnessState(models.Model):
    """What the casino knows of one witness of its policy: the size it last cosigned, since when
    it fails, whether the alarm of that failure is sealed, and whether it is retired (a witness
    that lost its state is retired, not rewound)."""

    witness = models.CharField(_("témoin"), max_length=200, unique=True)
    size = models.BigIntegerField(_("taille cosignée"), default=0)
    cosigned_at = models.DateTimeField(_("cosigné le"), null=True, blank=True)
    failing_since = models.DateTimeField(_("en échec depuis"), null=True, blank=True)
    last_error = models.TextField(_("dernière erreur"), blank=True)
    alarmed = models.BooleanField(_("alarme scellée"), default=False)
    retired_at = models.DateTimeField(_("retiré le"), null=True, blank=True)
    retired_reason = models.TextField(_("motif du retrait"), blank=True)

    class Meta:
        verbose_name = _("témoin de l'autorité")
        verbose_name_plural = _("témoins de l'autorité")
        ordering = ["witness"]

    def __str__(self) -> str:
        return self.witness


class NoteTimeStamp(models.Model):
    """An RFC 3161 time-stamp over a checkpoint note (the time-stamp server of ``TIMESTAMP_URL``):
    a second time from outside the casino, beside the witnesses' cosignatures."""

    note = models.OneToOneField(
        CheckpointNote,
        verbose_name=_("point de contrôle"),
        on_delete=models.PROTECT,
        related_name="time_stamp",
    )
    response = models.BinaryField(_("réponse RFC 3161 (DER)"))
    gen_time = models.DateTimeField(_("heure du serveur d'horodatage"))

    class Meta:
        verbose_name = _("horodatage RFC 3161")
        verbose_name_plural = _("horodatages RFC 3161")
        ordering = ["note"]

    def __str__(self) -> str:
        return f"{self.note.size} {self.gen_time:%Y-%m-%d %H:%M:%S}"
