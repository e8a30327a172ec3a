"""The printed registers' models moved from the record's app to the officers' app in the
project's state only (audit 0017, inspection 0001): a database migrated before keeps its tables,
rows and keys, and the permissions on them and who holds them (their content types move with
them); the events recorded before name a report by its former label, which the pages still read."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

from casino_ops.admin_display import model_label, objects_by_key
from inspection.models import Report
from inspection.portal.labels import object_label

pytestmark = pytest.mark.django_db

BEFORE = [("audit", "0016_event_action_index"), ("inspection", None)]


def _migrate(targets: list[tuple[str, str | None]]) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)


def _leaves() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def test_a_database_migrated_before_the_move_keeps_its_reports_and_who_may_read_them(make_user) -> None:
    report = Report.objects.create(
        key="k" * 64, register="order-book", date_from=dt.date(2026, 11, 1), date_to=dt.date(2026, 11, 30)
    )
    # the database as it stood before the move: the content type still the record's
    ContentType.objects.filter(app_label="inspection", model="report").update(app_label="audit")
    before = ContentType.objects.get(app_label="audit", model="report")
    reader = make_user("lecteur")
    reader.user_permissions.add(Permission.objects.get(content_type=before, codename="view_report"))
    _migrate(BEFORE)
    assert "audit_report" in connection.introspection.table_names()

    _migrate(_leaves())

    assert Report.objects.get(pk=report.pk).key == "k" * 64  # the same row, under its key
    moved = ContentType.objects.get(app_label="inspection", model="report")
    assert (
        moved.pk == before.pk and not ContentType.objects.filter(app_label="audit", model="report").exists()
    )
    reader = type(reader).objects.get(pk=reader.pk)
    assert reader.has_perm("inspection.view_report")


def test_going_back_gives_the_content_types_back_to_the_record() -> None:
    _migrate(BEFORE)
    assert ContentType.objects.filter(app_label="audit", model="report").exists()
    assert not ContentType.objects.filter(app_label="inspection", model="report").exists()
    _migrate(_leaves())
    assert ContentType.objects.filter(app_label="inspection", model="report").exists()


def test_an_event_naming_a_report_by_its_former_label_is_read_in_words() -> None:
    report = Report.objects.create(
        key="r" * 64, register="order-book", date_from=dt.date(2026, 11, 1), date_to=dt.date(2026, 11, 30)
    )
    assert model_label("audit.report") == model_label("inspection.report") == str(Report._meta.verbose_name)
    assert object_label("audit.report") == str(Report._meta.verbose_name)
    assert objects_by_key([("audit.report", str(report.pk))]) == {("audit.report", str(report.pk)): report}


def test_a_print_tried_again_finds_the_issuing_event_recorded_under_the_former_label() -> None:
    import audit
    from audit.actions import Action
    from audit.chain import seal_pending
    from audit.models import AuditEvent
    from inspection.registers.issuing import _payload, content_digest, issuing_event

    report = Report.objects.create(
        key="i" * 64, register="order-book", date_from=dt.date(2026, 11, 1), date_to=dt.date(2026, 11, 30)
    )
    hashes = ["a" * 64, "b" * 64]
    with transaction.atomic():
        audit.record(
            actor=None,
            action=Action.REGISTER_ISSUED,
            obj=report,
            object_type="audit.report",
            payload=_payload(report, content_digest(hashes), len(hashes)),
        )
    seal_pending()
    before = AuditEvent.objects.get(action=Action.REGISTER_ISSUED, object_id=str(report.pk))

    seq, digest = issuing_event(report, hashes)

    assert (seq, digest) == (before.seq, content_digest(hashes))
    assert AuditEvent.objects.filter(action=Action.REGISTER_ISSUED).count() == 1  # not recorded again
