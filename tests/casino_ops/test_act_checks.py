"""The acts the apps above may bind are named by an enum: a typo fails, it never skips a check."""

import datetime as dt

import pytest

from casino_ops import act_checks
from casino_ops.act_checks import Hook


def test_an_unknown_act_name_is_refused_before_any_check_runs() -> None:
    seen: list[str] = []
    with act_checks.CHECKS.temporarily("test.spy", lambda **kw: seen.append(kw["act"]), alone=True):
        with pytest.raises(ValueError, match="sesion.open"):
            act_checks.run("sesion.open", day=dt.date(2026, 1, 1), profile="FR", people={})
        assert seen == []
        act_checks.run("session.open", day=dt.date(2026, 1, 1), profile="FR", people={})
    assert seen == [Hook.SESSION_OPEN]
    assert isinstance(seen[0], Hook)


def test_every_act_the_services_name_is_a_member() -> None:
    """The services pass members, never strings: a misspelt member fails at import."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2]
    calls = []
    for path in root.glob("*/services/*.py"):
        calls += re.findall(r"act_checks\.run\(\s*([^,\s]+)", path.read_text())
    assert calls, "no act_checks.run call found"
    for name in calls:
        assert name.startswith("act_checks.Hook.") or name.startswith("Hook."), name
        assert name.rsplit(".", 1)[1] in Hook.__members__, name
