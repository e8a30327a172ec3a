"""A base for management commands: a refusal is printed as a clear line, not a traceback.

Each of the project's commands says what it writes into the books (:class:`Writes`): only acts
through the services (each checked, refused with its article, recorded in the chain), the
record's own machinery (sealing, signed checkpoints), nothing, or demo data. A command of demo or
development data (:class:`DemoCommand`) is refused on a database in service, one that holds any
act (FR art. 68; LU art. 10): demo rows would back-date whole gaming days into the books, and a
demo key or certificate would sign in the casino's name. ``tests/test_commands_in_service.py``
walks every command and holds each to what it says.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from casino_ops.refusals import Refusal

from .regulations import RegulationError
from .services import get_casino


class Writes(StrEnum):
    """What a command writes into the regulated books."""

    ACTS = "acts"  # only through the services' acts: checked, refused with their article, recorded
    RECORD = "record"  # the record's own machinery (seals, signed checkpoints), after verifying it
    NOTHING = "nothing"  # reads the books, prints, or writes files outside the database
    DEMO = "demo"  # demo or development data: refused on a database in service


#: How many acts the database holds (0 before it is migrated). The record (``audit``, above this
#: layer) sets it in its AppConfig.ready(), as a higher app adds its checks to a lower one's acts.
acts_held: Callable[[], int] = lambda: 0  # noqa: E731


def held() -> int:
    """The acts the database holds; 0 when it holds no record yet (not migrated, no database)."""
    try:
        return acts_held()
    except DatabaseError:
        return 0


class RegulatedCommand(BaseCommand):
    """Subclasses implement ``act``; a RegulationError becomes a CommandError (exit 1)."""

    #: what the command writes into the books (every command of the project says it)
    writes: Writes

    def handle(self, *args: Any, **options: Any) -> str | None:
        try:
            return self.act(*args, **options)
        except RegulationError as error:
            raise CommandError(f"{error.code}: {error}") from error

    def act(self, *args: Any, **options: Any) -> str | None:  # pragma: no cover - abstract
        raise NotImplementedError


class DemoCommand(RegulatedCommand):
    """A command of demo or development data: refused on a database that holds any act."""

    writes = Writes.DEMO

    def handle(self, *args: Any, **options: Any) -> str | None:
        try:
            refuse_in_service(self.demo_of)
        except RegulationError as error:
            raise CommandError(f"{error.code}: {error}") from error
        return super().handle(*args, **options)

    #: what the command makes, named in its refusal
    demo_of: Any = ""


def refuse_in_service(what: str) -> None:
    """Demo or development data (``what``) is never written beside the books of a casino in service."""
    count = held()
    if count:
        raise Refusal.DEMO_IN_SERVICE.error(get_casino().profile, n=count, what=what)
