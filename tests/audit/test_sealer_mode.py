"""The default mode on PostgreSQL: events travel with their act's COMMIT
(casino_ops.postgresql) and `audit_sealer`, a process of its own, seals them."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.db import IntegrityError, connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import audit
from audit.actions import Action
from audit.chain import seal_pending, verify_chain
from audit.chain.seal import INSERT_SQL
from audit.models import AuditEvent
from casino_ops.postgresql.base import DatabaseWrapper

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def sealer_mode(settings):
    settings.AUDIT_SEALING = "sealer"


def _acted() -> list[str]:
    """The groups the tests' acts made (the roles' groups exist from the migrations)."""
    return list(Group.objects.filter(name__startswith="t-").order_by("pk").values_list("name", flat=True))


def _act(name: str, payload: dict | None = None) -> Group:
    name = f"t-{name}"
    with transaction.atomic():
        group = Group.objects.create(name=name)
        audit.record(actor=None, action=Action.TABLE_CREATED, obj=group, payload=payload or {"name": name})
    return group


def _default_sealing(database_url: str) -> str:
    return _default_setting(database_url, "AUDIT_SEALING")


def _default_setting(database_url: str, expression: str, **environ: str) -> str:
    """``settings.<expression>`` as the production settings make it from the environment.

    A process of its own, with the production settings module: reading a setting loads that
    module as ``django.setup()`` would, without loading the apps (a second or two each)."""
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "AUDIT_SEALING"}}
    env.update(
        DEBUG="1", SECRET_KEY="x", DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="casino_ops.settings"
    )
    env.update(environ)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"from django.conf import settings; print(settings.{expression})",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_sealer_mode_is_the_default_on_postgresql_inline_on_sqlite():
    assert isinstance(connections["default"], DatabaseWrapper)
    assert _default_sealing(os.environ["DATABASE_URL"]) == "sealer"
    assert _default_sealing("sqlite:///:memory:") == "inline"


@pytest.mark.django_db(transaction=True)
def test_the_event_travels_with_the_commit(sealer_mode):
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        group = Group.objects.create(name="table 1")
        audit.record(actor=None, action=Action.TABLE_CREATED, obj=group, payload={"name": "table 1"})
        held = list(connection._deferred)
    # Held until the commit: no statement of its own went through the cursor. Prepared
    # with the connection's first event, executed for each.
    assert held[-1].startswith("EXECUTE audit_event_insert(")
    assert all(h.startswith("PREPARE audit_event_insert AS INSERT INTO audit_event") for h in held[:-1])
    assert not any("audit_event" in q["sql"] for q in queries.captured_queries)
    assert connection._deferred == [] and connection.execute_wrappers == []
    event = AuditEvent.objects.get()
    assert (event.object_id, event.seq, event.payload) == (str(group.pk), None, '{"name":"table 1"}')
    assert seal_pending() == 1
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_act_leaves_no_event(sealer_mode):
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        _act("inner")  # a savepoint, released
        raise ZeroDivisionError
    assert _acted() == []
    assert not AuditEvent.objects.exists()
    assert connection._deferred == [] and connection.execute_wrappers == []


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_savepoint_drops_its_event_only(sealer_mode):
    with transaction.atomic():
        _act("kept")
        try:
            with transaction.atomic():
                _act("dropped")
                raise ValueError
        except ValueError:
            pass
    assert _acted() == ["t-kept"]
    assert list(AuditEvent.objects.values_list("payload", flat=True)) == ['{"name":"t-kept"}']


@pytest.mark.django_db
def test_the_transaction_reads_its_own_event(sealer_mode):
    group = _act("table 2")  # in the test's transaction: nothing is committed
    assert AuditEvent.objects.filter(object_id=str(group.pk), seq__isnull=True).count() == 1
    assert verify_chain().pending == 1


@pytest.mark.django_db(transaction=True)
def test_any_text_is_quoted_faithfully(sealer_mode):
    nasty = "l'as de pique \\ \"; DROP TABLE audit_event; -- é€ \u2028 $$"
    _act(nasty, {"note": nasty, "quote": "''", "backslash": "\\'"})
    event = AuditEvent.objects.get()
    assert '"note":"l\'as de pique \\\\ \\"; DROP TABLE audit_event; -- é€' in event.payload
    assert _acted() == [f"t-{nasty}"]
    assert seal_pending() == 1
    assert verify_chain().ok  # the MAC, computed before quoting, still matches


@pytest.mark.django_db(transaction=True)
def test_a_nul_byte_is_refused_and_nothing_is_recorded(sealer_mode):
    with pytest.raises(Exception, match="NUL"), transaction.atomic():
        group = Group.objects.create(name="t-table 3")
        audit.record(actor=None, action=Action.TABLE_CREATED, obj=group, payload={}, object_type="x\x00y")
    assert _acted() == [] and not AuditEvent.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_held_write_that_fails_fails_the_commit(sealer_mode):
    with pytest.raises(IntegrityError), transaction.atomic():
        Group.objects.create(name="t-table 4")
        params = [timezone.now(), None, "system", "table.created", "auth.group", "1", "{}", "f" * 64]
        connection.defer(INSERT_SQL, params)
        connection.defer(INSERT_SQL, params)  # the same MAC twice: unique
    assert _acted() == [] and not AuditEvent.objects.exists()
    _act("after")  # the connection is usable again
    assert AuditEvent.objects.count() == 1


def _held_by(act: Callable[[], object]) -> list[str]:
    """The statements an act held for its commit (the act runs and commits)."""
    with transaction.atomic():
        act()
        return [re.match(r"\w+ \w+", statement).group() for statement in connection._deferred]


def _prepared_on_server() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE name = 'audit_event_insert'")
        return cursor.fetchone()[0] == 1


@pytest.mark.django_db(transaction=True)
def test_the_insert_is_prepared_once_per_connection(sealer_mode):
    connection.close()
    first = _held_by(
        lambda: audit.record(actor=None, action=Action.TABLE_CREATED, object_type="t", object_id=1)
    )
    second = _held_by(
        lambda: audit.record(actor=None, action=Action.TABLE_CREATED, object_type="t", object_id=2)
    )
    assert first == ["PREPARE audit_event_insert", "EXECUTE audit_event_insert"]
    assert second == ["EXECUTE audit_event_insert"]
    assert _prepared_on_server()
    connection.close()  # a new session prepares again
    assert _held_by(lambda: _act("again"))[0] == "PREPARE audit_event_insert"
    assert seal_pending() == 3 and verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_an_act_rolled_back_before_its_commit_leaves_nothing_prepared(sealer_mode):
    connection.close()
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        _act("dropped")
        raise ZeroDivisionError
    assert not _prepared_on_server()
    assert _held_by(lambda: _act("kept"))[0] == "PREPARE audit_event_insert"  # sent this time
    assert _acted() == ["t-kept"] and AuditEvent.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_failed_batch_that_prepared_is_checked_on_the_server(sealer_mode):
    """A PREPARE outlives the rollback of the batch that carried it: the connection asks
    the server before preparing again (never "already exists", never "does not exist")."""
    connection.close()
    params = [timezone.now(), None, "system", "table.created", "auth.group", "1", "{}", "f" * 64]
    with pytest.raises(IntegrityError), transaction.atomic():
        connection.defer(INSERT_SQL, params, prepared="audit_event_insert")
        connection.defer(INSERT_SQL, params, prepared="audit_event_insert")  # the same MAC twice
    assert _prepared_on_server()  # kept by the server although the batch failed
    assert _held_by(lambda: _act("after")) == ["EXECUTE audit_event_insert"]
    assert _acted() == ["t-after"] and AuditEvent.objects.count() == 1
    # and when the batch failed before its PREPARE ran, the server has none:
    connection.close()
    with pytest.raises(IntegrityError), transaction.atomic():
        connection.defer("INSERT INTO audit_event (recorded_at) VALUES (%s)", [timezone.now()])  # NOT NULL
        connection.defer(INSERT_SQL, params, prepared="audit_event_insert")
    assert not _prepared_on_server()
    assert _held_by(lambda: _act("later"))[0] == "PREPARE audit_event_insert"
    assert _acted() == ["t-after", "t-later"]


@pytest.mark.django_db(transaction=True)
def test_prepared_statements_can_be_turned_off_for_a_pooler(sealer_mode):
    options = connection.settings_dict["OPTIONS"]
    connection.close()
    options["prepare_held_writes"] = False
    try:
        assert _held_by(lambda: _act("plain")) == ["INSERT INTO"]
        assert not _prepared_on_server()
    finally:
        connection.close()
        options.pop("prepare_held_writes")
    assert _held_by(lambda: _act("prepared"))[0] == "PREPARE audit_event_insert"
    assert seal_pending() == 2 and verify_chain().ok


def test_nothing_is_prepared_in_a_pooled_session():
    """A session from Django's pool may hold what an earlier wrapper prepared: no PREPARE."""
    settings_dict = {**connection.settings_dict, "OPTIONS": {"pool": True}}
    wrapper = DatabaseWrapper(settings_dict, alias="pooled")
    assert "pool" not in wrapper.get_connection_params()
    assert wrapper._prepare_held is False
    plain = DatabaseWrapper({**connection.settings_dict, "OPTIONS": {}}, alias="plain")
    plain.get_connection_params()
    assert plain._prepare_held is True


def test_the_environment_turns_prepared_statements_off():
    assert (
        _default_setting(os.environ["DATABASE_URL"], "DATABASES['default']['OPTIONS']['prepare_held_writes']")
        == "True"
    )
    assert (
        _default_setting(
            os.environ["DATABASE_URL"],
            "DATABASES['default']['OPTIONS']['prepare_held_writes']",
            DATABASE_PREPARED_STATEMENTS="0",
        )
        == "False"
    )


@pytest.mark.django_db(transaction=True)
def test_the_audit_sealer_command_seals_what_the_acts_commit(sealer_mode):
    """The sealer as production runs it: `manage.py audit_sealer`, a process of its own."""
    name = connection.settings_dict["NAME"]
    server = os.environ["DATABASE_URL"].rsplit("/", 1)[0]
    env = {**os.environ, "DATABASE_URL": f"{server}/{name}", "DJANGO_SETTINGS_MODULE": "tests.settings"}
    sealer = subprocess.Popen(
        [sys.executable, "manage.py", "audit_sealer", "--interval", "0.05"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for i in range(30):
            _act(f"table {i}")
        deadline = time.monotonic() + 30
        while AuditEvent.objects.filter(seq__isnull=True).exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not AuditEvent.objects.filter(seq__isnull=True).exists()
    finally:
        sealer.send_signal(signal.SIGTERM)
        out, err = sealer.communicate(timeout=30)
    assert sealer.returncode == 0, err
    assert list(AuditEvent.objects.order_by("seq").values_list("seq", flat=True)) == list(range(1, 31))
    result = verify_chain()
    assert result.ok and result.events == 30 and result.pending == 0
