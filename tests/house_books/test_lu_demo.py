"""The Luxembourg demo: ``seed_demo --profile LU`` builds a casino whose books inspect clean."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from casino_ops.models import CasinoSettings

pytestmark = pytest.mark.django_db


def _inspect_exit_code(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        call_command("inspect_books")
        code = 0
    except SystemExit as exit_info:
        code = exit_info.code or 0
    out = capsys.readouterr()
    return int(code), out.out + out.err


def test_the_lu_demo_is_luxembourg_and_inspects_clean(capsys: pytest.CaptureFixture[str]) -> None:
    from house_books.models import Approval, OrphanEntry, TipsCount

    call_command("seed_demo", "--profile", "LU")
    capsys.readouterr()
    assert CasinoSettings.objects.get().profile == "LU"
    assert Approval.objects.exists() and OrphanEntry.objects.exists() and TipsCount.objects.exists()
    code, out = _inspect_exit_code(capsys)
    assert code == 0, out
    call_command("seed_demo", "--profile", "LU")
    assert "nothing changed" in capsys.readouterr().out


def test_seed_demo_alone_stays_french() -> None:
    call_command("seed_demo")
    assert CasinoSettings.objects.get().profile == "FR"
