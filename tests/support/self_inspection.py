"""One check of the self-inspection at a time.

``casino_ops.checks.inspect`` runs every check of every app (fifty, the record's own among
them) and lists their breaches in the order of the checks' names; a test about one check reads
that check's share of it: :func:`breaches_of` runs that check alone, as ``inspect`` runs it,
so that a test pays for one check, not fifty. Each check words its breaches under its own name
(``tests/test_inspection_checks.py`` holds every app to it), so the share is the same."""

from __future__ import annotations

import datetime as dt

from casino_ops.checks import CHECKS, Breach


def breaches_of(name: str, day: dt.date | None = None) -> list[Breach]:
    """What ``inspect(day)`` names under the check ``name``: ``[b for b in inspect(day).breaches
    if b.check == name]``, that check alone run."""
    check = CHECKS.get(name)
    assert check is not None, f"no check of the self-inspection is named {name!r}"
    found = list(check.run(day))
    assert all(b.check == name for b in found), (name, {b.check for b in found})
    return found
