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

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "handlog"


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
    ours = [line for line in err.splitlines() if "audit/api" in line]
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
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
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
