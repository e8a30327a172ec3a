"""``manage.py inspect_books [--day DATE] [--json]``: the books' self-inspection.

Every open breach an inspector would find, each with its article. Exit 0 when
nothing is open, 1 otherwise.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from casino_ops.checks import inspect
from casino_ops.commands import Writes


def _day(value: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise CommandError(
            _("--day : date attendue au format AAAA-MM-JJ, reçu « %(value)s ».") % {"value": value}
        ) from None


class Command(BaseCommand):
    writes = Writes.NOTHING
    help = "Inspects the books: every open breach with its article (exit 1 when any)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--day", type=str, help="the gaming day to inspect (AAAA-MM-JJ); default today")
        parser.add_argument("--json", action="store_true", help='print {"checks": [...], "breaches": [...]}')

    def handle(self, *args: Any, **options: Any) -> None:
        day = _day(options["day"]) if options["day"] else None
        result = inspect(day)
        if options["json"]:
            self.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False, indent=2))
        else:
            for breach in result.breaches:
                self.stdout.write(f"{breach.article} · {breach.check} · {breach.object} : {breach.detail}")
            if result.clean:
                self.stdout.write(_("Aucun manquement : %(n)d contrôles.") % {"n": len(result.checks)})
            else:
                self.stdout.write(
                    _("%(b)d manquement(s) sur %(n)d contrôles.")
                    % {"b": len(result.breaches), "n": len(result.checks)}
                )
        if not result.clean:
            sys.exit(1)
