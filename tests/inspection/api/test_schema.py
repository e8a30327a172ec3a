"""The OpenAPI schema at /api/schema/: served to signed-in users, free of warnings for
the officers' endpoints, and no server error under schemathesis with an officer's token,
nor on the hand-log upload with the hand-log machine's token (nothing stored when refused)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error

from casino_ops import roles
from tests.support.samples import module_casino, module_clients, module_devices, module_samples, module_users  # noqa: F401 - made once for the module

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "handlog"


@pytest.mark.django_db
def test_schema_is_served_to_signed_in_users(clients) -> None:
    response = clients[roles.OFFICER].get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in (
        "/api/inspection/audit-events/",
        "/api/inspection/decks/{id}/",
        "/api/inspection/sessions/",
        "/api/inspection/hand-logs/{id}/",
        "/api/inspection/discrepancies/",
    ):
        assert path in paths, path
    assert clients["anonymous"].get("/api/schema/").status_code == 403


def test_officers_endpoints_have_no_schema_warning(capsys) -> None:
    GENERATOR_STATS.reset()
    SchemaGenerator().get_schema(request=None, public=True)
    err = capsys.readouterr().err
    ours = [line for line in err.splitlines() if "inspection/api" in line]
    assert not ours, "\n".join(ours)


@pytest.fixture
def wsgi_app() -> Iterator[Any]:
    # Like Django's test client: a request must not close the test's connection.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield get_wsgi_application()
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.mark.slow
@pytest.mark.django_db
def test_no_server_error_for_an_officer(samples: Any, wsgi_app: Any) -> None:
    """schemathesis generates requests for every officers' operation from the schema
    (bounded: a few examples per operation) and none gets a server error."""
    token = Token.objects.create(user=samples.users[roles.OFFICER])
    headers = {"Authorization": f"Token {token.key}"}
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", wsgi_app, headers=headers)
    schema = schema.include(path_regex="^/api/inspection/")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10
    statuses: dict[str, set[int]] = {}

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def run(case: Any) -> None:
            response = case.call(headers=headers)
            case.validate_response(response, checks=[not_a_server_error])
            statuses.setdefault(case.operation.label, set()).add(response.status_code)

        run()
    assert all(codes <= {200, 400, 404} for codes in statuses.values()), statuses
    assert any(200 in codes for codes in statuses.values())


def _mutations() -> Any:
    """The worked example under a new shoe id, one of its values replaced by any JSON value."""
    from hypothesis import strategies as st

    log = json.loads((FIXTURES / "worked-example.json").read_text())
    leaves: list[tuple[Any, ...]] = []

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            leaves.append((*path, key))
            walk(value, (*path, key))

    walk(log, ())
    values = st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.sampled_from(EXTREMES)
        | st.floats(allow_nan=False)
        | st.text(max_size=40),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
        max_leaves=8,
    )

    @st.composite
    def mutated(draw: Any) -> bytes:
        body = json.loads(json.dumps(log))
        body["shoe_id"] = f"BJ03-2026-11-30-F{draw(st.integers(1, 10**6))}"
        path = draw(st.sampled_from(leaves))
        node = body
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = draw(values)
        return json.dumps(body).encode()

    return mutated()


@pytest.mark.slow
@pytest.mark.django_db
def test_hand_log_upload_by_the_machine_never_fails_nor_half_stores(samples: Any, wsgi_app: Any) -> None:
    """The hand-log machine's token (its only door): schemathesis posts bodies generated from the
    schema, then hypothesis posts the worked example with one value replaced. No server error;
    a refused upload stores nothing (no hand log, no audit event); an accepted one, one log."""
    from audit.models import AuditEvent
    from tables.models import HandLog

    token = Token.objects.create(user=samples.users[roles.MACHINE])
    headers = {"Authorization": f"Token {token.key}"}
    session = samples.session
    # The machine may only post hand logs: the schema is read with an officer's token.
    reader = Token.objects.create(user=samples.users[roles.OFFICER])
    schema = schemathesis.openapi.from_wsgi(
        "/api/schema/?format=json", wsgi_app, headers={"Authorization": f"Token {reader.key}"}
    )
    schema = schema.include(path_regex=r"^/api/tables/sessions/\{id\}/hand-logs/$", method="POST")
    [operation] = [result.ok() for result in schema.get_all_operations()]
    statuses: set[int] = set()

    def counts() -> tuple[int, int]:
        return HandLog.objects.count(), AuditEvent.objects.count()

    def check(status: int, before: tuple[int, int]) -> None:
        statuses.add(status)
        after = counts()
        if status == 201:
            assert after[0] == before[0] + 1, (before, after)
        else:
            assert after == before, (status, before, after)

    @given(case=operation.as_strategy())
    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def generated(case: Any) -> None:
        case.path_parameters = {"id": session.pk}
        before = counts()
        response = case.call(headers=headers)
        case.validate_response(response, checks=[not_a_server_error])
        check(response.status_code, before)

    generated()

    client = Client()

    @given(body=_mutations())
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def mutated(body: bytes) -> None:
        before = counts()
        response = client.post(
            f"/api/tables/sessions/{session.pk}/hand-logs/",
            data=body,
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {token.key}",
        )
        assert response.status_code < 500, response.content[:500]
        if response.status_code == 400:
            assert {"code", "message"} <= set(response.json()), response.content[:300]
        check(response.status_code, before)

    mutated()
    assert statuses <= {201, 400}, statuses
    assert 400 in statuses


def _integer_fields() -> list[tuple[Any, ...]]:
    """Every integer the parser accepts: those of the worked example, and the integer house rules."""
    log = json.loads((FIXTURES / "worked-example.json").read_text())
    found: list[tuple[Any, ...]] = [
        ("house_rules", "max_hands_after_split"),
        ("house_rules", "max_boxes_per_player"),
    ]

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            if type(value) is int:
                found.append((*path, key))
            walk(value, (*path, key))

    walk(log, ())
    return found


def _field_name(path: tuple[Any, ...]) -> str:
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else f".{key}" if out else key
    return out


EXTREMES = (2**31, 2**63, -1, -(2**31) - 1, -(2**63))


@pytest.mark.django_db
@pytest.mark.parametrize("value", EXTREMES)
@pytest.mark.parametrize("path", _integer_fields(), ids=_field_name)
def test_an_integer_beyond_its_column_is_a_json_400_naming_it_and_stores_nothing(
    samples: Any, path: tuple[Any, ...], value: int, django_capture_on_commit_callbacks: Any
) -> None:
    """2^31, 2^63 and negatives in every integer field of a hand log: refused with the API's JSON
    400 naming the field and nothing stored, or received and replayed (a value its column holds);
    never a server error, never a log stored that cannot be replayed."""
    from audit.models import AuditEvent
    from tables.models import HandLog, Replay

    token = Token.objects.create(user=samples.users[roles.MACHINE])
    body = json.loads((FIXTURES / "worked-example.json").read_text())
    body["shoe_id"] = "BJ03-2026-11-30-INT"
    node = body
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    before = HandLog.objects.count(), AuditEvent.objects.count()
    client = Client(raise_request_exception=False)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/api/tables/sessions/{samples.session.pk}/hand-logs/",
            data=json.dumps(body).encode(),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {token.key}",
        )
    assert response.status_code in (201, 400), (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json")
    if value >= 2**31 or response.status_code == 400:
        assert response.status_code == 400, response.content[:300]
        refusal = response.json()
        assert refusal["code"] == "HAND_LOG_REJECTED" and refusal["field"] == _field_name(path), refusal
        assert (HandLog.objects.count(), AuditEvent.objects.count()) == before
    else:
        log = HandLog.objects.get(shoe_label="BJ03-2026-11-30-INT")
        assert Replay.objects.filter(hand_log=log).exists()


def _amount_fields() -> list[tuple[Any, ...]]:
    log = json.loads((FIXTURES / "worked-example.json").read_text())
    found: list[tuple[Any, ...]] = [("limits", "min"), ("limits", "max")]

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            if key in ("amount", "net", "insurance_net"):
                found.append((*path, key))
            walk(value, (*path, key))

    walk(log, ())
    return found


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["999999999999.99", "-999999999999.99", "500000000000.00"])
@pytest.mark.parametrize("path", _amount_fields(), ids=_field_name)
def test_the_largest_amounts_are_replayed_or_refused_never_stored_unreplayable(
    samples: Any, path: tuple[Any, ...], value: str, django_capture_on_commit_callbacks: Any
) -> None:
    """An amount of the grammar's 12 digits in every amount field: what the replay makes of it
    (a box's total, a payout, the totals over- and underpaid) must fit the amounts' columns; a
    log where it would not is refused with the JSON 400 and nothing stored."""
    from audit.models import AuditEvent
    from tables.models import HandLog, Replay

    token = Token.objects.create(user=samples.users[roles.MACHINE])
    body = json.loads((FIXTURES / "worked-example.json").read_text())
    body["shoe_id"] = "BJ03-2026-11-30-AMT"
    for box in body["rounds"][0]["boxes"]:  # every stake of the round at that amount
        for stake in box["stakes"]:
            stake["amount"] = value
    node = body
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    before = HandLog.objects.count(), AuditEvent.objects.count()
    client = Client(raise_request_exception=False)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/api/tables/sessions/{samples.session.pk}/hand-logs/",
            data=json.dumps(body).encode(),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {token.key}",
        )
    assert response.status_code in (201, 400), (response.status_code, response.content[:300])
    if response.status_code == 400:
        assert response.json()["code"] == "HAND_LOG_REJECTED", response.json()
        assert (HandLog.objects.count(), AuditEvent.objects.count()) == before
    else:
        log = HandLog.objects.get(shoe_label="BJ03-2026-11-30-AMT")
        assert Replay.objects.filter(hand_log=log).exists()
