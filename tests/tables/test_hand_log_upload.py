"""Hand-log upload: bad input refused before anything is stored (NUL, depth, length, size) with the
API's JSON refusal; a 4 MB log received by the API as by the command; the admin takes a multi-shoe
JSONL; the layout's boxes compared with the boxes a log uses (FR art. 55-4 §6, LU art. 32 §6)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError

from tables import rules, services
from tables.blackjack.simulator import simulate_shoe
from tables.models import Discrepancy, HandLog
from tests.support import builders
from tests.support.refusals import assert_refused

from .conftest import DAY, at_day

D = Decimal
URL = "/api/tables/sessions/{}/hand-logs/"


def _doc(seed=1, **kw):
    kw.setdefault("table", "BJ03")
    kw.setdefault("limits", ("10.00", "1000.00"))
    return simulate_shoe(seed, "FR", **kw)


def _post(client, session, body):
    return client.post(URL.format(session.pk), data=body, content_type="application/json")


def _with_player(doc, name):
    doc = json.loads(json.dumps(doc))
    stake = doc["rounds"][0]["boxes"][0]["stakes"][0]
    stake["player"] = name
    for settlement in doc["rounds"][0]["settlements"]:
        if settlement.get("player") == "P1":
            settlement["player"] = name
    return doc


@pytest.mark.django_db
def test_nul_in_a_player_name_is_refused_before_storing_and_a_retry_is_not_a_duplicate(
    croupier_client, open_session, django_capture_on_commit_callbacks
):
    doc = _doc(2)
    bad = json.dumps(_with_player(doc, "P\u00001")).encode()
    assert b"\\u0000" in bad
    body = assert_refused("HAND_LOG_REJECTED", response=_post(croupier_client, open_session, bad)).value
    assert "player" in body["field"]
    assert not HandLog.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        good = _post(croupier_client, open_session, json.dumps(doc).encode())
    assert good.status_code == 201, good.content
    assert HandLog.objects.get().replay.rounds_replayed > 0


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["shoe_id", "table"])
@pytest.mark.parametrize("bad", ["\u0007", "\ud800"])
def test_control_characters_in_any_string_are_refused(croupier_client, open_session, field, bad):
    doc = _doc(3)
    doc[field] = doc[field] + bad  # a control character, a lone surrogate (not storable text)
    body = assert_refused(
        "HAND_LOG_REJECTED", response=_post(croupier_client, open_session, json.dumps(doc))
    ).value
    assert body["field"] == field and not HandLog.objects.exists()


@pytest.mark.django_db
def test_deeply_nested_json_is_refused_with_the_field(croupier_client, open_session):
    hostile = b'{"a":' * 200_000 + b"1" + b"}" * 200_000
    body = assert_refused("HAND_LOG_REJECTED", response=_post(croupier_client, open_session, hostile)).value
    assert body["field"] == "document"
    doc = _doc(4)
    nested: object = 1
    for _ in range(rules.MAX_HAND_LOG_DEPTH + 5):
        nested = [nested]
    doc["extra"] = nested  # unknown top-level keys are ignored, but not their depth
    body = assert_refused(
        "HAND_LOG_REJECTED", response=_post(croupier_client, open_session, json.dumps(doc))
    ).value
    assert body["field"].startswith("extra")
    assert not HandLog.objects.exists()


@pytest.mark.django_db
def test_a_100000_character_shoe_id_is_refused_by_field(croupier_client, open_session):
    doc = _doc(5, shoe_id="S" * 100_000)
    body = assert_refused(
        "HAND_LOG_REJECTED", response=_post(croupier_client, open_session, json.dumps(doc))
    ).value
    assert body["field"] == "shoe_id" and not HandLog.objects.exists()


def _big_log(rounds=5_700):
    doc = _doc(6)
    base = doc["rounds"]
    doc["rounds"] = []
    for i in range(rounds):
        item = json.loads(json.dumps(base[i % len(base)]))
        item["number"] = i + 1
        doc["rounds"].append(item)
    return json.dumps(doc).encode()


@pytest.mark.django_db
def test_a_valid_4_mb_log_is_received_by_the_api_like_by_the_command(
    croupier_client, open_session, tmp_path, staff, settings
):
    raw = _big_log()
    assert len(raw) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    response = _post(croupier_client, open_session, raw)
    assert response.status_code == 201, response.content[:300]
    log = HandLog.objects.get()
    assert log.rounds == 5_700 and log.raw.encode() == raw
    path = tmp_path / "big.json"
    path.write_bytes(raw.replace(b'"shoe_id": "', b'"shoe_id": "X', 1))
    call_command("import_hand_logs", str(path), session=open_session.pk, user=staff["croupier"].username)
    assert HandLog.objects.count() == 2


@pytest.mark.django_db
def test_a_body_over_the_limit_gets_the_apis_json_refusal(croupier_client, open_session, settings):
    raw = b"[" + b" " * (rules.MAX_HAND_LOG_BYTES + 10) + b"]"
    body = assert_refused("HAND_LOG_TOO_LARGE", response=_post(croupier_client, open_session, raw)).value
    assert body["field"] == "document" and not HandLog.objects.exists()


@pytest.mark.django_db
def test_the_command_refuses_the_same_bad_logs_without_a_traceback(tmp_path, open_session, staff, capsys):
    path = tmp_path / "bad.jsonl"
    lines = [
        json.dumps(_with_player(_doc(7), "P\u00001")),
        json.dumps(_doc(8, shoe_id="S" * 100_000)),
        '{"a":' * 50_000 + "1" + "}" * 50_000,
    ]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(CommandError):
        call_command("import_hand_logs", str(path), session=open_session.pk, user=staff["croupier"].username)
    err = capsys.readouterr().err
    assert err.count("refusé: HAND_LOG_REJECTED") == 3 and "Traceback" not in err
    assert not HandLog.objects.exists()


@pytest.mark.django_db
def test_the_admin_upload_takes_a_multi_shoe_jsonl(client, staff, open_session):
    client.force_login(staff["director"])
    docs = [_doc(10 + i, shoe_id=f"BJ03-JSONL-{i}") for i in range(3)]
    upload = SimpleUploadedFile("shoes.jsonl", ("\n".join(json.dumps(d) for d in docs) + "\n").encode())
    response = client.post(f"/admin/tables/session/{open_session.pk}/act/handlog/", {"file": upload})
    assert response.status_code == 302, response.content[:500]
    assert sorted(HandLog.objects.values_list("shoe_label", flat=True)) == [
        f"BJ03-JSONL-{i}" for i in range(3)
    ]
    # one bad line: nothing of the file is stored, the line is named
    docs = [_doc(20, shoe_id="BJ03-JSONL-A"), _with_player(_doc(21, shoe_id="BJ03-JSONL-B"), "P\u00001")]
    upload = SimpleUploadedFile("shoes.jsonl", "\n".join(json.dumps(d) for d in docs).encode())
    response = client.post(f"/admin/tables/session/{open_session.pk}/act/handlog/", {"file": upload})
    assert response.status_code == 200 and "2" in response.content.decode()
    assert HandLog.objects.count() == 3


# -- the layout's boxes ---------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("profile,article", [("FR", "FR art. 55-4"), ("LU", "LU art. 32")])
def test_a_box_the_table_does_not_have_is_a_discrepancy(
    staff, casino, profile, article, django_capture_on_commit_callbacks
):
    from house_books.services.casino import update_casino_settings

    update_casino_settings(actor=staff["director"], profile=profile)
    doc = simulate_shoe(31, profile, table="BJ05", limits=("10.00", "1000.00"))
    used = rules.boxes_used(doc)
    layout = max(used) - 1
    assert layout >= 1
    table = services.create_table(actor=staff["director"], number=5, code="BJ05", boxes=layout)
    extra = (
        {
            "guarantee_fund": D("100000.00"),
            "ministry_notice": builders.ministry_notice("10.00", DAY, days_before=29),
        }
        if profile == "LU"
        else {}
    )
    builders.shoe_for(table, DAY, staff["director"])  # LU art. 32 §3, 40 (nothing under FR)
    with at_day(DAY):
        session = services.open_session(
            actor=staff["director"],
            table=table,
            minimum=D("10.00"),
            maximum=D("1000.00"),
            advance_amount=D("20000.00") if profile == "LU" else D("30000.00"),
            croupier=staff["croupier"],
            **extra,
        )
    builders.shoe(session)
    with django_capture_on_commit_callbacks(execute=True):
        log = services.upload_hand_log(
            actor=staff["croupier"], session=session, raw=json.dumps(doc), source="api"
        )
    row = Discrepancy.objects.get(hand_log=log, code="BOX_NOT_ON_LAYOUT")
    assert row.article == article
    assert row.detail == {"boxes": sorted(b for b in used if b > layout), "layout": layout}


@pytest.mark.django_db
def test_a_log_within_the_layout_has_no_box_discrepancy(
    croupier_client, open_session, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert _post(croupier_client, open_session, json.dumps(_doc(9))).status_code == 201
    assert not Discrepancy.objects.filter(code="BOX_NOT_ON_LAYOUT").exists()
