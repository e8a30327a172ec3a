"""The demo seeded by one pytest-xdist worker is taken by the others when it was seeded on the
rows their database holds, and seeded again when not (tests/support/demo_rows.py)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import pickle
import zoneinfo
from unittest import mock

import pytest
import time_machine

from tests.support import demo_rows

_DEC5, _DEC6 = dt.date(2026, 12, 5), dt.date(2026, 12, 6)


@pytest.mark.django_db
def test_a_demo_left_by_another_worker_is_taken_only_when_seeded_on_the_same_rows(
    tmp_path, monkeypatch
) -> None:
    demo = demo_rows.seed("FR")
    # the rows the demo's point at, the same in every worker's database; not migrate's log
    assert {"django_content_type", "auth_permission", "auth_group"} <= set(demo.base_tables)
    assert "django_migrations" not in demo.base_tables
    monkeypatch.setattr(demo_rows, "SHARED", tmp_path)
    kept = tmp_path / "FR.pickle"
    kept.write_bytes(pickle.dumps(demo))
    # seeding again (seconds, and seeded above) stands for itself: what it makes, left for the others
    seeded_here = [dataclasses.replace(demo, output="seeded here"), dataclasses.replace(demo, output="again")]
    with mock.patch.object(demo_rows, "seed", side_effect=seeded_here) as seed:
        assert demo_rows._shared_or_seeded("FR") == demo
        assert seed.call_count == 0

        kept.write_bytes(pickle.dumps(dataclasses.replace(demo, base="0" * 64)))  # other rows
        again = demo_rows._shared_or_seeded("FR")
        assert seed.call_count == 1 and again == seeded_here[0]
        assert pickle.loads(kept.read_bytes()) == again  # left for the next worker

        kept.unlink()  # none left yet: seeded, and left
        third = demo_rows._shared_or_seeded("FR")
        assert seed.call_count == 2 and third == seeded_here[1]
        assert pickle.loads(kept.read_bytes()) == third


@pytest.mark.django_db
def test_without_workers_nothing_is_shared(monkeypatch) -> None:
    monkeypatch.setattr(demo_rows, "SHARED", None)
    with mock.patch.object(demo_rows, "seed", return_value="seeded") as seed:
        assert demo_rows._shared_or_seeded("LU") == "seeded"
    seed.assert_called_once_with("LU")


def _paris(*moment: int) -> dt.datetime:
    return dt.datetime(*moment, tzinfo=zoneinfo.ZoneInfo("Europe/Paris"))


@pytest.mark.parametrize(
    "start, before, after",
    [  # (calendar day, gaming day): the roll-over at 06:00, then midnight
        (_paris(2026, 12, 6, 5, 59, 58), (_DEC6, _DEC5), (_DEC6, _DEC6)),
        (_paris(2026, 12, 5, 23, 59, 58), (_DEC5, _DEC5), (_DEC6, _DEC5)),
    ],
)
def test_a_demo_seeded_across_a_turn_of_the_day_is_seeded_again(start, before, after) -> None:
    """Seeded from 05:59:58 to 06:00:03, the demo's séances would be the evening's before while
    the tests read the day now as the next: it is seeded again, inside the new day."""
    seeded = []
    with time_machine.travel(start, tick=False) as traveller:

        def seeding(profile: str) -> demo_rows.Demo:
            seeded.append(demo_rows.day_now())
            traveller.shift(dt.timedelta(seconds=5))  # what seeding takes
            return demo_rows.Demo(profile, "", "", (), (), day=demo_rows.day_now())

        with mock.patch.object(demo_rows, "_seed_once", side_effect=seeding):
            demo = demo_rows.seed("FR")
    assert seeded == [before, after]
    assert demo.day == after


@pytest.mark.django_db
def test_a_demo_seeded_before_the_day_turned_is_seeded_again(tmp_path, monkeypatch) -> None:
    """Neither the demo this worker seeded before the turn nor the one another worker left is
    used after it."""
    demo = demo_rows.loaded("FR")
    day_before = dt.timedelta(days=1)
    old = dataclasses.replace(demo, day=(demo.day[0] - day_before, demo.day[1] - day_before))
    monkeypatch.setitem(demo_rows._seeded, "FR", old)
    monkeypatch.setattr(demo_rows, "SHARED", tmp_path)
    (tmp_path / "FR.pickle").write_bytes(pickle.dumps(old))
    with (
        mock.patch.object(demo_rows, "seed", return_value=demo) as seed,
        mock.patch.object(demo_rows, "load"),
    ):
        assert demo_rows.loaded("FR") is demo
    seed.assert_called_once_with("FR")
    assert pickle.loads((tmp_path / "FR.pickle").read_bytes()) == demo  # left for the others
