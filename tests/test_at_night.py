"""The casino at night, whatever hour the suite runs at.

Between midnight and the roll-over hour (06:00 by default) the gaming day is still the
evening's: a séance opened at 01:30 belongs to it, its decks are issued for it and the
control register closes it (FR art. 42, 69; LU art. 10). The clock is moved to 01:30 in
Paris (time-machine, ticking), so these run the procedure and both demos in that window
on every run, not only when the suite happens to run at night.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
import time_machine
from django.core.management import call_command

from tests.support import builders
from tests.support.tampering import every_book_written

pytestmark = pytest.mark.django_db

#: 01:30 in Paris on 2 December: the gaming day of 1 December.
NIGHT = dt.datetime(2026, 12, 2, 0, 30, tzinfo=dt.UTC)
EVENING = dt.date(2026, 12, 1)


@pytest.fixture
def night() -> Iterator[None]:
    with time_machine.travel(NIGHT, tick=True):
        yield


def _exit_code(capsys: pytest.CaptureFixture[str], command: str, *args: str) -> tuple[int, str]:
    try:
        call_command(command, *args)
        code = 0
    except SystemExit as exit_info:
        code = int(exit_info.code or 0)
    out = capsys.readouterr()
    return code, out.out + out.err


def test_a_seance_after_midnight_is_the_evenings_and_the_books_verify_clean(
    night: None, users: dict[str, Any], casino: Any, django_capture_on_commit_callbacks: Any, capsys: Any
) -> None:
    assert builders.gaming_day() == EVENING
    done = every_book_written(users, django_capture_on_commit_callbacks)
    assert done["session"].day == EVENING
    assert done["control_line"].control_day.day == EVENING
    assert done["control_line"].control_day.closed_at is not None
    code, out = _exit_code(capsys, "verify_audit")
    assert code == 0, out


#: 05:30 in Paris on 2 December: the last hour before the roll-over, after the LU demo's
#: closing hour of the gaming day (an hour before the roll-over).
BEFORE_ROLLOVER = dt.datetime(2026, 12, 2, 4, 30, tzinfo=dt.UTC)


@pytest.mark.parametrize("profile", ["FR", "LU"])
def test_the_demo_seeded_at_night_inspects_and_verifies_clean(
    night: None, profile: str, capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("seed_demo", profile=profile, verbosity=0)
    capsys.readouterr()
    for command in ("inspect_books", "verify_audit"):
        code, out = _exit_code(capsys, command)
        assert code == 0, f"{command}: {out}"


def test_the_lu_demo_seeded_in_the_hour_before_the_rollover_inspects_clean(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Between the LU demo's closing hour (05:00) and the roll-over (06:00) no séance of the
    demo's gaming day is open past its hours (LU art. 71)."""
    with time_machine.travel(BEFORE_ROLLOVER, tick=True):
        call_command("seed_demo", profile="LU", verbosity=0)
        capsys.readouterr()
        for command in ("inspect_books", "verify_audit"):
            code, out = _exit_code(capsys, command)
            assert code == 0, f"{command}: {out}"
