"""The test database is migrated once per run: under pytest-xdist the first worker to need one
migrates its own and copies it, and the other workers' databases are copies of that one
(``django_db_keepdb`` and ``django_db_setup`` in the root ``conftest.py``)."""

from __future__ import annotations

import os

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

import conftest

pytestmark = pytest.mark.django_db


def test_every_migration_is_applied_to_this_workers_database() -> None:
    executor = MigrationExecutor(connection)
    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []


def test_one_worker_migrated_and_the_others_copy_its_database(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        pytest.skip("one process: its database is migrated by itself, nothing is copied")
    named = tmp_path_factory.getbasetemp().parent / conftest.MIGRATED_COPY
    assert named.exists(), "no worker left a migrated copy"
    copy, own = named.read_text(), connection.settings_dict["NAME"]
    assert copy == f"{own.rpartition('_')[0]}_migrated" and copy != own
    with connection.cursor() as cursor:  # not connected to it: a worker may be copying it now
        cursor.execute("SELECT count(*) FROM pg_database WHERE datname = %s", [copy])
        assert cursor.fetchone()[0] == 1
    # this worker's database is the copy's copy, or the one it was copied from
    assert conftest._copied in ([own], [])
