"""Fixtures shared by the whole test suite."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Generator, Iterator
from typing import Any

import pytest

# The order in which the workers get the test files (the longest first), and the tests' people
# and signed-in clients (tests/support/).
pytest_plugins = ["tests.support.scheduling", "tests.support.fixtures"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--screenshots",
        action="store_true",
        default=False,
        help="keep a full-page screenshot of every page the browser tests check, under test-output/",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist each worker has its own database (pytest-django names it
    ``test_<name>_gw<n>``) and its own Redis database: TEST_REDIS_URL's number plus the
    worker's, so that one worker's Celery tasks are never taken by another's worker."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker.startswith("gw"):
        url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
        base, _, number = url.rpartition("/")
        os.environ["TEST_REDIS_URL"] = f"{base}/{(int(number or 0) + int(worker[2:])) % 16}"


# The tables whose guard (a statement trigger "<table>_guard_truncate") refuses TRUNCATE.
_GUARDED = ("audit_event", "audit_checkpoint", "audit_merkle_node")


def _guarded() -> list[str]:
    """The audit tables and every regulated book (audit.books), whose guards refuse TRUNCATE."""
    from audit.books import books

    return [*_GUARDED, *(book.table for book in books())]


def _transactional(item: pytest.Item) -> bool:
    """The test commits for real (``django_db(transaction=True)``, ``transactional_db``,
    ``live_server``): Django empties every table after it, with TRUNCATE."""
    marker = item.get_closest_marker("django_db")
    if marker is not None and (marker.kwargs.get("transaction") or (marker.args and marker.args[0])):
        return True
    return bool({"transactional_db", "live_server"} & set(getattr(item, "fixturenames", ())))


# The rows migrate leaves (content types, permissions, the roles' groups), kept as they were in a
# schema of their own, out of Django's sight (not on the search path).
MIGRATED = "migrated_rows"
_migrated: dict[str, list[str]] = {}  # table: the statements that write its rows back


# -- one migrate per run ------------------------------------------------------------------------

# Under pytest-xdist the first worker to need a database migrates its own, then copies it
# (CREATE DATABASE … TEMPLATE) under this name, <test database>_migrated; the other workers'
# databases are copies of that one. The controller drops it at the end of the run.
MIGRATED_COPY = "migrated-database"  # the file, in the run's temporary directory, naming it
# ... and, in each worker's environment, the variable naming it: the benches' migrated database
# is a copy of it too (tests/support/bench_runner.py), instead of a migrate of its own.
MIGRATED_COPY_VARIABLE = "TEST_MIGRATED_DATABASE"
_migrating: list[int] = []  # the lock's descriptor, held by the worker that migrates
_copied: list[str] = []  # this worker's database, when it is a copy (this worker drops it)


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@pytest.fixture(scope="session")
def django_db_keepdb(
    request: pytest.FixtureRequest,
    django_db_modify_db_settings: None,
    tmp_path_factory: pytest.TempPathFactory,
    django_db_blocker: Any,
) -> bool:
    """``--reuse-db`` as pytest-django has it; and, under pytest-xdist on PostgreSQL, true for a
    worker whose database is a copy of the one another worker migrated in this run: the copy is
    kept as made (migrate finds nothing to apply), and this worker drops it at its end.

    The first worker here takes a lock in the run's temporary directory and holds it while it
    migrates (``django_db_setup`` below copies its database, then lets go); a worker that finds
    no copy once it has the lock (the first one's migrate failed, or it died) migrates its own."""
    from django.db import connection

    from casino_ops.django_internals import database_less_cursor, name_of_test_database

    reuse = bool(request.config.getvalue("reuse_db"))
    if reuse or not hasattr(request.config, "workerinput") or connection.vendor != "postgresql":
        return reuse
    shared = tmp_path_factory.getbasetemp().parent
    lock = os.open(shared / f"{MIGRATED_COPY}.lock", os.O_CREAT | os.O_RDWR)
    fcntl.flock(lock, fcntl.LOCK_EX)
    named = shared / MIGRATED_COPY
    if not named.exists():
        _migrating.append(lock)
        return False
    try:
        own = name_of_test_database(connection)
        with django_db_blocker.unblock(), database_less_cursor(connection) as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {_quoted(own)}")
            cursor.execute(f"CREATE DATABASE {_quoted(own)} TEMPLATE {_quoted(named.read_text())}")
        _copied.append(own)
        os.environ[MIGRATED_COPY_VARIABLE] = named.read_text()
    finally:
        os.close(lock)
    return True


def _leave_a_copy(django_db_blocker: Any, shared: Any) -> None:
    """The worker that migrated copies its database for the others, then lets them go on."""
    from django.db import connection

    from casino_ops.django_internals import database_less_cursor

    lock = _migrating.pop()
    try:
        own = connection.settings_dict["NAME"]
        copy = f"{own.rpartition('_')[0] or own}_migrated"
        connection.close()  # the source of a copy has no session on it
        with django_db_blocker.unblock(), database_less_cursor(connection) as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {_quoted(copy)}")
            cursor.execute(f"CREATE DATABASE {_quoted(copy)} TEMPLATE {_quoted(own)}")
        (shared / MIGRATED_COPY).write_text(copy)
        os.environ[MIGRATED_COPY_VARIABLE] = copy
    finally:
        os.close(lock)


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest) -> Any:
    """A worker whose migrate fails lets the others go on at once (each then migrates its own)
    instead of holding them until it ends."""
    try:
        return (yield)
    except BaseException:
        if fixturedef.argname == "django_db_setup" and _migrating:
            os.close(_migrating.pop())
        raise


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The controller of a pytest-xdist run drops the migrated database the workers copied."""
    config = session.config
    if hasattr(config, "workerinput") or not hasattr(config, "_tmp_path_factory"):
        return
    named = config._tmp_path_factory.getbasetemp() / MIGRATED_COPY
    if not named.exists():
        return
    from django.db import connection
    from pytest_django.plugin import blocking_manager_key

    from casino_ops.django_internals import database_less_cursor

    with config.stash[blocking_manager_key].unblock(), database_less_cursor(connection) as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {_quoted(named.read_text())}")


@pytest.fixture(scope="session")
def django_db_setup(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """pytest-django's test database, and a copy of the rows migrate left in it: after a
    transactional test, the flush puts these very rows back (see ``pytest_runtest_teardown``).
    Under pytest-xdist, the worker that migrated leaves a copy of its database for the others
    (``django_db_keepdb``).

    At the end, a session still open on the test database (a thread or a process the tests
    ended without closing it) is ended, so that the database is dropped at once: PostgreSQL
    would wait five seconds, then refuse with a warning and leave the database behind."""
    from django.db import connection

    from casino_ops.django_internals import database_less_cursor

    if _migrating:
        _leave_a_copy(django_db_blocker, tmp_path_factory.getbasetemp().parent)
    _copy_migrated_rows(django_db_blocker)
    yield
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    connection.close()
    if _copied:  # kept by pytest-django (django_db_keepdb): this worker drops its copy
        with django_db_blocker.unblock(), database_less_cursor(connection) as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {_quoted(_copied.pop())}")


def _copy_migrated_rows(django_db_blocker: Any) -> None:
    from django.db import connection

    with django_db_blocker.unblock(), connection.cursor() as cursor:
        tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
        cursor.execute(f"DROP SCHEMA IF EXISTS {MIGRATED} CASCADE")
        cursor.execute(f"CREATE SCHEMA {MIGRATED}")
        _migrated.clear()
        for table in sorted(tables):
            cursor.execute(f'SELECT EXISTS (SELECT FROM "{table}")')
            if not cursor.fetchone()[0]:
                continue
            cursor.execute(f'CREATE TABLE {MIGRATED}."{table}" AS SELECT * FROM "{table}"')
            statements = [f'INSERT INTO "{table}" SELECT * FROM {MIGRATED}."{table}"']
            # the sequence of its key, where migrate left it
            cursor.execute(
                "SELECT pg_get_serial_sequence(%s, a.attname) FROM pg_index i"
                " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
                " WHERE i.indrelid = %s::regclass AND i.indisprimary",
                [f'"{table}"', f'"{table}"'],
            )
            for (sequence,) in cursor.fetchall():
                if sequence:
                    cursor.execute(f"SELECT last_value, is_called FROM {sequence}")
                    value, called = cursor.fetchone()
                    statements.append(f"SELECT setval('{sequence}', {int(value)}, {bool(called)})")
            _migrated[table] = statements


#: Empties each of ``{tables}`` that holds rows, with DELETE, in one statement: the foreign keys
#: not checked (``session_replication_role``: every table is emptied), each trigger that fires on
#: DELETE (the guards, ENABLE ALWAYS) disabled for the table's DELETE, then enabled as it was.
_EMPTY_THE_TABLES = """DO $flush$
DECLARE
  name text;
  filled boolean;
  guards name[];
  states "char"[];
BEGIN
  SET LOCAL session_replication_role = replica;
  FOREACH name IN ARRAY ARRAY[{tables}]::text[] LOOP
    EXECUTE format('SELECT EXISTS (SELECT FROM %I)', name) INTO filled;
    CONTINUE WHEN NOT filled;
    SELECT coalesce(array_agg(tgname), '{}'), coalesce(array_agg(tgenabled), '{}') INTO guards, states
      FROM pg_trigger WHERE tgrelid = format('%I', name)::regclass AND NOT tgisinternal
      AND tgenabled IN ('A', 'R') AND tgtype & 8 <> 0;
    FOR i IN 1 .. coalesce(array_length(guards, 1), 0) LOOP
      EXECUTE format('ALTER TABLE %I DISABLE TRIGGER %I', name, guards[i]);
    END LOOP;
    EXECUTE format('DELETE FROM %I', name);
    FOR i IN 1 .. coalesce(array_length(guards, 1), 0) LOOP
      EXECUTE format('ALTER TABLE %I ENABLE %s TRIGGER %I', name,
        CASE states[i] WHEN 'A' THEN 'ALWAYS' ELSE 'REPLICA' END, guards[i]);
    END LOOP;
  END LOOP;
  SET LOCAL session_replication_role = origin;
END
$flush$"""


def _rows_put_back(tables: Any) -> list[str]:
    """The statements that write back, after the flush has emptied the tables, the rows migrate
    left (same keys, each sequence where migrate left it)."""
    return [
        statement for table, statements in _migrated.items() if table in tables for statement in statements
    ]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, Any, Any]:
    """After a transactional test, Django's flush empties the tables with one TRUNCATE of them
    all, then the post_migrate signal makes the content types, permissions and roles again. For
    that flush only (this test's teardown), the test suite writes its own statements instead:

    - the tables are emptied with DELETE, only those that hold rows (:data:`_EMPTY_THE_TABLES`):
      TRUNCATE makes every table and index anew on disk, a quarter of a second for the
      hundred tables whatever they hold, where a test leaves rows in a few. The foreign keys are
      not checked while they are emptied (every table is), and the guards of the audit record
      and of the books, which refuse DELETE, are lifted for the table's DELETE by the test suite
      (a superuser, who may always disable a trigger) and restored as they were (ENABLE ALWAYS);
    - the rows migrate left are written back as they were, keys included, and the next test
      starts from the database as migrate left it. (Made again by post_migrate, they would take
      other keys, in another order, and the demo seeded on the first ones,
      ``tests/support/demo_rows.py``, would have to be seeded again.) The post_migrate signal,
      whose handlers would find them all and write nothing, is not sent
      (``flush_without_post_migrate``): a tenth of a second a test.

    (Django's test teardown never asks this flush to reset the sequences: a test that wants
    them reset has them reset before it starts.) Nothing else is changed: every other test, and
    every other moment of this one, runs with the database and Django as production has them.
    (The PostgreSQL operations' class, not one connection's: a browser test's event loop may
    hand the flush another connection object of this thread.)"""
    if not _transactional(item):
        return (yield)
    from casino_ops.django_internals import flush_without_post_migrate, postgresql_flush_wrapped

    def sql_flush_of_the_test_suite(
        flush: Any, operations: Any, style: Any, tables: Any, **kwargs: Any
    ) -> list[str]:
        statements = flush(operations, style, tables, **kwargs)
        if not statements:
            return statements
        names = ", ".join("'" + table.replace("'", "''") + "'" for table in tables)
        return [_EMPTY_THE_TABLES.replace("{tables}", names), *_rows_put_back(tables)]

    with postgresql_flush_wrapped(sql_flush_of_the_test_suite), flush_without_post_migrate():
        return (yield)


@pytest.fixture(scope="session", autouse=True)
def _demo_shared_by_the_workers(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Under pytest-xdist, the workers of a run share the demo seeded by the first that needs it
    (``tests/support/demo_rows.py``), in the run's temporary directory (each worker's is inside it)."""
    if hasattr(request.config, "workerinput"):
        from tests.support import demo_rows

        demo_rows.SHARED = tmp_path_factory.getbasetemp().parent / "demo-rows"


@pytest.fixture(autouse=True)
def _language_of_the_site() -> Generator[None, Any, Any]:
    """Each test starts, and leaves, in the site's language (LANGUAGE_CODE): a request made in
    English activates English in the thread and nothing puts it back (LocaleMiddleware does
    not), so the next test in the same worker would read English messages."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _caches_emptied() -> None:
    """Each test starts with empty caches: a page fragment another test cached in the same
    worker (the replay's steps, keyed by a log's id that a later test's log may reuse) would
    otherwise be served, and the page's queries would depend on which tests ran before."""
    from django.core.cache import caches

    for cache in caches.all():
        cache.clear()


@pytest.fixture(autouse=True)
def audit_witness(settings: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each test its own witness directory (production requires one): a checkpoint a test wrote
    is never seen by another test, whose database no longer holds it."""
    if not settings.AUDIT_WITNESS_STORAGE:
        settings.AUDIT_WITNESS_DIR = str(tmp_path_factory.mktemp("witness", numbered=True))


# -- the demo casino, seeded once and copied into each test that asks for it ---------------------


@pytest.fixture
def demo(db: None) -> Any:
    """The database as ``seed_demo`` leaves it (the FR casino); ``demo.output``: what it printed.
    Ask for it before any fixture that writes."""
    from tests.support.demo_rows import loaded

    return loaded("FR")


@pytest.fixture
def lu_demo(db: None) -> Any:
    """The database as ``seed_demo --profile LU`` leaves it; ``lu_demo.output``: what it printed."""
    from tests.support.demo_rows import loaded

    return loaded("LU")
