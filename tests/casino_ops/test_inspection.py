"""The self-inspection's frame: checks declared by the apps, the command's output and exit."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from casino_ops import checks as self_inspection


@pytest.fixture
def one_breach():
    def always(day):
        yield self_inspection.Breach("test.always", "FR art. 39", "jeu 1234", "absent de l'armoire")

    declared = self_inspection.Check("test.always", "a check that always finds one breach", always)
    with self_inspection.CHECKS.temporarily("test.always", declared):
        yield


@pytest.mark.django_db
def test_clean_books_exit_zero(capsys):
    call_command("inspect_books", "--json")
    out = json.loads(capsys.readouterr().out)
    assert out["breaches"] == []
    assert isinstance(out["checks"], list)


@pytest.mark.django_db
def test_a_breach_exits_one_naming_it(one_breach, capsys):
    with pytest.raises(SystemExit) as exit_:
        call_command("inspect_books", "--json")
    assert exit_.value.code == 1
    out = json.loads(capsys.readouterr().out)
    assert "test.always" in out["checks"]
    assert out["breaches"] == [
        {
            "check": "test.always",
            "article": "FR art. 39",
            "object": "jeu 1234",
            "detail": "absent de l'armoire",
            "url": "",
        }
    ]


@pytest.mark.django_db
def test_text_output_and_bad_day(one_breach, capsys):
    from django.core.management.base import CommandError

    with pytest.raises(SystemExit):
        call_command("inspect_books")
    assert "FR art. 39 · test.always · jeu 1234" in capsys.readouterr().out
    with pytest.raises(CommandError, match="--day"):
        call_command("inspect_books", "--day", "01/12/2026")


def test_a_name_declared_twice_is_refused(one_breach):
    with pytest.raises(ValueError):
        self_inspection.check("test.always", "other")(lambda day: [])
