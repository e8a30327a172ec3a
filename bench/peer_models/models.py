"""Identical 6-field models, one per contender (so that no table is shared)."""

import pghistory
from auditlog.registry import auditlog
from django.db import models
from simple_history.models import HistoricalRecords


class Thing(models.Model):
    serial = models.CharField(max_length=32)
    table_no = models.IntegerField()
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    currency = models.CharField(max_length=3)
    note = models.CharField(max_length=200)
    at = models.DateTimeField()

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.serial


class PlainThing(Thing):
    """Saved plainly, and with this project's audit.record()."""


class AuditedThing(Thing):
    """Saved with this project's audit.record() in the same transaction."""


@pghistory.track()
class PghThing(Thing):
    """Tracked by django-pghistory's triggers."""


class SimpleThing(Thing):
    """Tracked by django-simple-history."""

    history = HistoricalRecords()


class AuditlogThing(Thing):
    """Tracked by django-auditlog."""


auditlog.register(AuditlogThing)
