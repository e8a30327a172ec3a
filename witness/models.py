"""What the witness keeps: the logs it serves, what it cosigned, what it refused."""

from __future__ import annotations

from django.db import models


class Log(models.Model):
    """One casino's log: its origin line, its note keys, and the latest checkpoint cosigned.

    ``size`` and ``root`` change only in the transaction that checked a request against them,
    the row locked (``SELECT … FOR UPDATE``): two requests at once never roll the size back.
    """

    origin = models.CharField("origine", max_length=255, unique=True)
    name = models.CharField("casino", max_length=200, blank=True)
    vkeys = models.TextField("clés du journal (vkey, une par ligne)")
    size = models.BigIntegerField("taille cosignée", default=0)
    root = models.CharField("racine cosignée (hex)", max_length=64, blank=True)
    checkpoint = models.TextField("dernier point de contrôle cosigné", blank=True)
    cosigned_at = models.DateTimeField("cosigné le", null=True, blank=True)
    added_at = models.DateTimeField("ajouté le", auto_now_add=True)

    # Declared: mypy reads the casino's settings, where this app is not installed.
    objects: models.Manager[Log] = models.Manager()

    class Meta:
        verbose_name = "journal"
        verbose_name_plural = "journaux"
        ordering = ["origin"]

    def __str__(self) -> str:
        return self.origin


class Cosigned(models.Model):
    """Each checkpoint cosigned, with the time the witness put in its cosignature."""

    log = models.ForeignKey(Log, on_delete=models.PROTECT, related_name="cosigned", verbose_name="journal")
    size = models.BigIntegerField("taille")
    root = models.CharField("racine (hex)", max_length=64)
    timestamp = models.BigIntegerField("horodatage (secondes POSIX)")
    checkpoint = models.TextField("point de contrôle cosigné")

    objects: models.Manager[Cosigned] = models.Manager()

    class Meta:
        verbose_name = "cosignature"
        verbose_name_plural = "cosignatures"
        ordering = ["log", "-size", "-timestamp"]
        indexes = [models.Index(fields=["log", "size"], name="witness_cosigned_size")]

    def __str__(self) -> str:
        return f"{self.log.origin} {self.size}"


class Refusal(models.Model):
    """A request refused from a known log whose signature held (C2SP tlog-witness: "it might be
    proof of log misbehavior"): the body as received, the answer, and the size the witness held."""

    log = models.ForeignKey(Log, on_delete=models.PROTECT, related_name="refusals", verbose_name="journal")
    status = models.PositiveSmallIntegerField("réponse HTTP")
    reason = models.TextField("motif")
    held_size = models.BigIntegerField("taille tenue")
    held_root = models.CharField("racine tenue (hex)", max_length=64, blank=True)
    old_size = models.BigIntegerField("ancienne taille présentée")
    size = models.BigIntegerField("taille présentée")
    root = models.CharField("racine présentée (hex)", max_length=64)
    body = models.TextField("requête reçue")
    received_at = models.DateTimeField("reçue le", auto_now_add=True)

    objects: models.Manager[Refusal] = models.Manager()

    class Meta:
        verbose_name = "refus"
        verbose_name_plural = "refus"
        ordering = ["-received_at", "-id"]

    def __str__(self) -> str:
        return f"{self.log.origin} {self.status} {self.size}"

    @property
    def split_view(self) -> bool:
        """The same size as the one cosigned, another root: two views of one log."""
        return self.size == self.held_size and self.root != self.held_root and bool(self.held_root)


class SplitView(models.Model):
    """Two checkpoints of one log, of the same size with different roots, both signed by the
    log's key: one cosigned here, the other served by a peer witness (the log showed each
    witness its own view). The two signed checkpoints are the evidence."""

    log = models.ForeignKey(Log, on_delete=models.PROTECT, related_name="split_views", verbose_name="journal")
    size = models.BigIntegerField("taille")
    root_here = models.CharField("racine cosignée ici (hex)", max_length=64)
    root_there = models.CharField("racine chez l'autre témoin (hex)", max_length=64)
    peer = models.CharField("autre témoin", max_length=300)
    checkpoint_here = models.TextField("point de contrôle cosigné ici")
    checkpoint_there = models.TextField("point de contrôle de l'autre témoin")
    found_at = models.DateTimeField("constatée le", auto_now_add=True)

    objects: models.Manager[SplitView] = models.Manager()

    class Meta:
        verbose_name = "vue divergente"
        verbose_name_plural = "vues divergentes"
        ordering = ["-found_at"]
        constraints = [
            models.UniqueConstraint(fields=["log", "size", "root_there", "peer"], name="witness_split_once")
        ]

    def __str__(self) -> str:
        return f"{self.log.origin} {self.size}"
