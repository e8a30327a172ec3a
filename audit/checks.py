"""Self-inspection of the record itself (see casino_ops.checks): the chain and every book
against it, as ``verify_audit`` checks them, so that a row written behind the acts' back (SQL,
``loaddata``, a restored copy) is named the same day, with its article (FR art. 68; LU art. 10)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from django.utils.translation import gettext as _

from casino_ops.checks import Breach, check
from casino_ops.regulations import cite
from casino_ops.services import get_casino

from .verification import verify

#: The problems named one by one; beyond, one breach says how many more.
SHOWN = 50


@check("audit.books_bound", _("Registres différents de ce que la chaîne d'audit a scellé"), whole_record=True)
def books_bound(day: dt.date | None) -> Iterator[Breach]:
    """Every hash and MAC of the chain, then every book's row against the chain's last word on
    it: a row no act created, one changed or gone since, an event forged (FR art. 68)."""
    outcome = verify()
    problems = [] if outcome.chain.ok else [outcome.chain.describe()]
    problems += outcome.book_problems
    if not problems:
        return
    article = cite("books.no_erasure", get_casino().profile)
    for problem in problems[:SHOWN]:
        yield Breach("audit.books_bound", article, _("chaîne d'audit et registres"), problem)
    if len(problems) > SHOWN:
        yield Breach(
            "audit.books_bound",
            article,
            _("chaîne d'audit et registres"),
            _("et %(n)s autre(s) écart(s) : manage.py verify_audit") % {"n": len(problems) - SHOWN},
        )
