"""How the record seals is chosen once, at start-up (``audit.chain.sealing``): from
``AUDIT_SEALING`` and each database's backend; ``record()`` asks nothing again."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.db import transaction
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteWrapper

import audit
from audit.actions import Action
from audit.chain import sealing
from audit.models import AuditEvent
from casino_ops.postgresql.base import DatabaseWrapper


def test_each_mode_and_backend_has_its_strategy() -> None:
    assert type(sealing.pick("sealer", DatabaseWrapper)) is sealing.HeldForCommit
    assert type(sealing.pick("inline", DatabaseWrapper)) is sealing.SealedInOneTrip
    assert type(sealing.pick("sealer", SQLiteWrapper)) is sealing.InsertedNow
    assert type(sealing.pick("inline", SQLiteWrapper)) is sealing.SealedAfterInsert
    with pytest.raises(ValueError, match="AUDIT_SEALING"):
        sealing.pick("later", DatabaseWrapper)


def test_the_strategy_follows_the_settings_of_a_test(settings: Any) -> None:
    settings.AUDIT_SEALING = "inline"  # setting_changed: chosen again
    assert type(sealing.for_database("default")) is sealing.SealedInOneTrip
    settings.AUDIT_SEALING = "sealer"
    assert type(sealing.for_database("default")) is sealing.HeldForCommit


@pytest.mark.django_db
def test_record_uses_the_strategy_chosen_not_the_setting_read_again(settings: Any, monkeypatch: Any) -> None:
    from django.conf import settings as django_settings

    settings.AUDIT_SEALING = "inline"  # chosen (setting_changed)
    monkeypatch.setattr(django_settings, "AUDIT_SEALING", "sealer")  # no signal: nothing chosen again
    with transaction.atomic():
        group = Group.objects.create(name="t-chosen once")
        event = audit.record(actor=None, action=Action.TABLE_CREATED, obj=group, payload={"name": "t"})
    assert event is not None and event.seq is not None  # sealed inline, as chosen at start-up
    assert AuditEvent.objects.get(pk=event.pk).hash == event.hash


def test_a_database_added_after_start_up_gets_its_strategy_on_its_first_event() -> None:
    """A restore or a second cluster is added to the connections after start-up (the sealer's
    restart test adds one): its first event finds no strategy chosen, and one is picked, the
    one the settings and its backend call for (nothing else is changed: no state is left)."""
    from django.conf import settings
    from django.db import connections

    sealing._chosen.pop("default", None)
    chosen = sealing.for_database("default")
    assert type(chosen) is type(sealing.pick(settings.AUDIT_SEALING, type(connections["default"])))
    assert sealing._chosen["default"] is chosen  # picked once, then kept
