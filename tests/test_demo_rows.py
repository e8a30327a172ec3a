"""The demo seeded by one pytest-xdist worker is taken by the others when it was seeded on the
rows their database holds, and seeded again when not (tests/support/demo_rows.py)."""

from __future__ import annotations

import dataclasses
import pickle
from unittest import mock

import pytest

from tests.support import demo_rows


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
