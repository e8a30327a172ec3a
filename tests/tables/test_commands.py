"""``import_hand_logs``: logs from files, refusals with file, line and field."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from tables.blackjack.simulator import simulate_shoe
from tables.models import HandLog, Replay


@pytest.mark.django_db
def test_import_hand_logs_receives_good_logs_and_names_bad_ones(
    tmp_path, staff, open_session, capsys, django_capture_on_commit_callbacks
):
    good = simulate_shoe(41, "FR", table="BJ03", limits=("10.00", "1000.00"))
    bad = simulate_shoe(42, "FR", table="BJ03", limits=("10.00", "1000.00"))
    bad["decks"] = "six"
    path = tmp_path / "logs.jsonl"
    path.write_text(json.dumps(good) + "\n\n" + json.dumps(bad) + "\n")
    single = tmp_path / "one.json"
    single.write_text(json.dumps(simulate_shoe(43, "FR", table="BJ03", limits=("10.00", "1000.00"))))
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(CommandError) as info:
        call_command(
            "import_hand_logs",
            str(path),
            str(single),
            session=open_session.pk,
            user=staff["croupier"].username,
        )
    assert info.value.returncode == 1
    out, err = capsys.readouterr()
    assert f"{path}:1: reçu" in out and f"{single}: reçu" in out
    assert f"{path}:3: refusé: HAND_LOG_REJECTED: decks:" in err
    assert HandLog.objects.count() == 2 and Replay.objects.count() == 2
    assert set(HandLog.objects.values_list("source", flat=True)) == {"command"}


@pytest.mark.django_db
def test_import_hand_logs_unknown_session(staff, tmp_path):
    with pytest.raises(CommandError, match="no session"):
        call_command(
            "import_hand_logs", str(tmp_path / "x.json"), session=999999, user=staff["croupier"].username
        )
