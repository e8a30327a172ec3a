"""A base for management commands: a refusal is printed as a clear line, not a traceback."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from .regulations import RegulationError


class RegulatedCommand(BaseCommand):
    """Subclasses implement ``act``; a RegulationError becomes a CommandError (exit 1)."""

    def handle(self, *args: Any, **options: Any) -> str | None:
        try:
            return self.act(*args, **options)
        except RegulationError as error:
            raise CommandError(f"{error.code}: {error}") from error

    def act(self, *args: Any, **options: Any) -> str | None:  # pragma: no cover - abstract
        raise NotImplementedError
