"""The regulated books bound to the chain and guarded by the database (audit.books).

Every row an act writes is carried by its event; ``verify_audit`` rebuilds from the chain
what each book must hold and names every row that differs, that no event created, or that
is gone. The database refuses deletions and changes of what never changes. The tampering
here is done as a PostgreSQL superuser who lifts the guards, as an attacker with the
database's credentials could.
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.utils import DatabaseError
from django.utils import timezone

from audit.books import ROWS_KEY, books, guard_sql
from audit.chain import seal_pending
from audit.models import AuditEvent
from cards_registry import services as depot
from cards_registry.models import Deck, Incident, IncidentRoute, KeyHandover, Reception, Visa
from casino_ops import roles
from tables import services as floor
from tables.models import AdvanceEntry, EntryKind
from tests.support import builders
from tests.support.depot_helpers import issue_and_check
from tests.support.tampering import every_book_written, run_verify_audit, tamper_books
from tests.support.walks import product_books

D = Decimal


@pytest.fixture
def scenario(users: dict[str, Any], casino: Any, django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    return every_book_written(users, django_capture_on_commit_callbacks)


def _seq_binding(table: str, pk: int) -> int:
    """The last sealed event whose payload carries the row."""
    found = 0
    for seq, payload in AuditEvent.objects.filter(seq__isnull=False).values_list("seq", "payload"):
        for t, row_pk, _values in json.loads(payload).get(ROWS_KEY, []):
            if t == table and row_pk == pk:
                found = max(found, seq)
    assert found, (table, pk)
    return found


@pytest.mark.django_db
def test_every_act_binds_its_rows_and_the_books_verify_clean(scenario, capsys):
    code, out, err = run_verify_audit(capsys)
    assert code == 0, err
    assert "rows of the books match the chain" in out
    bound = {
        t
        for payload in AuditEvent.objects.values_list("payload", flat=True)
        for t, _pk, _v in json.loads(payload).get(ROWS_KEY, [])
    }
    # every book the scenario writes is carried by the chain
    for table in (
        "cards_registry_manufacturer",
        "cards_registry_order",
        "cards_registry_orderline",
        "cards_registry_reception",
        "cards_registry_sixain",
        "cards_registry_deck",
        "cards_registry_visa",
        "cards_registry_keyhandover",
        "cards_registry_cabinetopening",
        "cards_registry_tableissue",
        "cards_registry_issueline",
        "tables_table",
        "tables_session",
        "tables_advanceentry",
        "tables_shoe",
        "tables_shoedeck",
        "tables_handlog",
        "tables_replay",
        "tables_controlday",
        "tables_controlline",
    ):
        assert table in bound, table
    # a deck's status moved by QuerySet.update() is carried as it now stands
    deck = scenario["deck"]
    deck.refresh_from_db()
    last = AuditEvent.objects.get(seq=_seq_binding("cards_registry_deck", deck.pk))
    rows = [
        r for r in json.loads(last.payload)[ROWS_KEY] if r[0] == "cards_registry_deck" and r[1] == deck.pk
    ]
    assert rows[0][2]["status"] == deck.status == "in_cabinet"  # back from the table


def _assert_named(capsys: Any, table: str, pk: int, field: str, said: str, found: str) -> None:
    code, _out, err = run_verify_audit(capsys)
    assert code == 1
    seq = _seq_binding(table, pk)
    expected = f"BOOK: {table} pk {pk} field {field}"
    lines = [line for line in err.splitlines() if line.startswith(expected)]
    assert lines, err
    assert f"the chain says {said!r} (event #{seq}), found {found!r}" in lines[0], lines[0]


@pytest.mark.django_db
def test_an_advance_amount_edited_in_the_database_is_named(scenario, capsys):
    advance = scenario["advance"]
    tamper_books(
        "UPDATE tables_advanceentry SET amount = 3000 WHERE id = %s", [advance.pk], "tables_advanceentry"
    )
    _assert_named(capsys, "tables_advanceentry", advance.pk, "amount", "30000.00", "3000.00")


@pytest.mark.django_db
def test_a_receipt_book_entry_edited_in_the_database_is_named(scenario, capsys):
    reception = scenario["reception"]
    tamper_books(
        "UPDATE cards_registry_reception SET delivery_note = 'BL 9' WHERE id = %s",
        [reception.pk],
        "cards_registry_reception",
    )
    _assert_named(capsys, "cards_registry_reception", reception.pk, "delivery_note", "BL 1", "BL 9")


@pytest.mark.django_db
def test_a_visa_edited_in_the_database_is_named(scenario, capsys):
    visa = scenario["visa"]
    tamper_books(
        "UPDATE cards_registry_visa SET remark = 'rien à signaler' WHERE id = %s",
        [visa.pk],
        "cards_registry_visa",
    )
    _assert_named(capsys, "cards_registry_visa", visa.pk, "remark", "vu", "rien à signaler")


@pytest.mark.django_db
def test_a_deck_serial_edited_in_the_database_is_named(scenario, capsys):
    deck = scenario["deck"]
    tamper_books(
        "UPDATE cards_registry_deck SET serial = 'Z9-1' WHERE id = %s", [deck.pk], "cards_registry_deck"
    )
    _assert_named(capsys, "cards_registry_deck", deck.pk, "serial", "A1-1", "Z9-1")


@pytest.mark.django_db
def test_a_deck_status_moved_behind_the_application_is_named(scenario, capsys):
    """A deck's status may move (no guard), but only through an act: the chain catches the rest."""
    deck = scenario["deck"]
    with connection.cursor() as cursor:
        cursor.execute("UPDATE cards_registry_deck SET status = 'in_play' WHERE id = %s", [deck.pk])
    _assert_named(capsys, "cards_registry_deck", deck.pk, "status", "in_cabinet", "in_play")


@pytest.mark.django_db
def test_a_control_register_result_edited_in_the_database_is_named(scenario, capsys):
    line = scenario["control_line"]
    tamper_books("UPDATE tables_controlline SET result = 0 WHERE id = %s", [line.pk], "tables_controlline")
    _assert_named(capsys, "tables_controlline", line.pk, "result", "1000.00", "0.00")


@pytest.mark.django_db
def test_the_raw_text_of_a_hand_log_edited_in_the_database_is_named(scenario, capsys):
    log = scenario["hand_log"]
    raw = log.raw.replace('"BJ03"', '"BJ04"', 1)
    assert raw != log.raw
    tamper_books("UPDATE tables_handlog SET raw = %s WHERE id = %s", [raw, log.pk], "tables_handlog")
    import hashlib

    now = hashlib.sha256(raw.encode()).hexdigest()
    _assert_named(capsys, "tables_handlog", log.pk, "raw (SHA-256 of the stored text)", log.sha256, now)


@pytest.mark.django_db
def test_a_deleted_regulated_row_is_named(scenario, capsys):
    visa = scenario["visa"]
    seq = _seq_binding("cards_registry_visa", visa.pk)
    tamper_books("DELETE FROM cards_registry_visa WHERE id = %s", [visa.pk], "cards_registry_visa")
    code, _out, err = run_verify_audit(capsys)
    assert code == 1
    assert f"BOOK: cards_registry_visa pk {visa.pk}: created by event #{seq}, the row is gone" in err


@pytest.mark.django_db
def test_an_inserted_regulated_row_is_named(scenario, capsys):
    advance = scenario["advance"]
    with connection.cursor() as cursor:  # an INSERT needs no lifted guard
        cursor.execute(
            "INSERT INTO tables_advanceentry (table_id, line, session_id, kind, amount, at, note) "
            "VALUES (%s, 99, %s, %s, 5000, now(), '') RETURNING id",
            [advance.table_id, advance.session_id, EntryKind.FURTHER_ADVANCE],
        )
        forged = cursor.fetchone()[0]
    code, _out, err = run_verify_audit(capsys)
    assert code == 1
    assert f"BOOK: tables_advanceentry pk {forged}: no event of the chain created this row" in err


@pytest.mark.django_db
def test_the_database_refuses_deleting_or_rewriting_a_book_entry(scenario):
    advance, visa = scenario["advance"], scenario["visa"]
    for statement, params in (
        ("UPDATE tables_advanceentry SET amount = 1 WHERE id = %s", [advance.pk]),
        ("DELETE FROM tables_advanceentry WHERE id = %s", [advance.pk]),
        ("DELETE FROM cards_registry_visa WHERE id = %s", [visa.pk]),
        ("UPDATE cards_registry_deck SET serial = 'X' WHERE id = %s", [scenario["deck"].pk]),
        ("UPDATE tables_handlog SET raw = 'x' WHERE id = %s", [scenario["hand_log"].pk]),
        ("TRUNCATE cards_registry_visa", []),
        ("UPDATE tables_controlline SET result = 0 WHERE id = %s", [scenario["control_line"].pk]),
    ):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement, params)
    # in replica mode too (the guards are enabled ALWAYS)
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("DELETE FROM tables_advanceentry WHERE id = %s", [advance.pk])
    # what legitimately moves stays writable
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE cards_registry_deck SET status = status WHERE id = %s", [scenario["deck"].pk])
        cursor.execute("UPDATE tables_session SET status = status WHERE id = %s", [scenario["session"].pk])
    assert Visa.objects.filter(pk=visa.pk).exists() and AdvanceEntry.objects.filter(pk=advance.pk).exists()


@pytest.mark.django_db
def test_corrections_are_new_rows_and_verify_clean(scenario, users, capsys):
    director = users[roles.DIRECTOR]
    closing = scenario["session"].entries.get(kind=EntryKind.CLOSING)
    floor.correct_advance_entry(
        actor=director,
        entry=closing,
        amount=D("61500.00"),
        approval="Approuvé : soixante et un mille cinq cents euros",
        reason="plaque de 500 oubliée au comptage",
    )
    depot.record_correction(
        actor=director,
        entry=Reception.objects.get(),
        field="delivery_note",
        new_value="BL 2",
        reason="erreur de recopie",
        approval="Approuvé, le directeur responsable",
    )
    code, _out, err = run_verify_audit(capsys)
    assert code == 0, err


@pytest.mark.django_db
def test_sealer_mode_binds_the_rows_of_waiting_events_too(
    users, casino, settings, capsys, django_capture_on_commit_callbacks
):
    settings.AUDIT_SEALING = "sealer"
    every_book_written(users, django_capture_on_commit_callbacks)
    assert AuditEvent.objects.filter(seq__isnull=True).exists()
    code, _out, err = run_verify_audit(capsys)
    assert code == 0, err
    seal_pending()
    code, _out, err = run_verify_audit(capsys)
    assert code == 0, err


@pytest.mark.django_db
def test_a_refused_act_binds_nothing_and_leaves_nothing_to_the_next_act(scenario, users, capsys):
    """Rows written in a savepoint that rolled back are not carried by the next event."""
    director, committee = users[roles.DIRECTOR], users[roles.COMMITTEE]
    with pytest.raises(RuntimeError), transaction.atomic():
        KeyHandover.objects.create(giver=director, receiver=committee, at=timezone.now())
        raise RuntimeError("the act fails after its writes")
    depot.hand_over_key(actor=director, receiver=committee, reason="relève")
    code, _out, err = run_verify_audit(capsys)
    assert code == 0, err


def test_the_migrations_guard_what_the_books_declare():
    """The triggers' lists written out in the apps' migrations match the books' declarations: every
    migration of an app that declares books and writes a ``GUARDS`` list, in order, the latest list
    for a table being the one in force (a later migration replaces an earlier guard)."""
    from importlib import import_module
    from pkgutil import iter_modules

    from django.apps import apps

    written = {}
    apps_with_books = sorted({b.model._meta.app_label for b in books()})
    for label in apps_with_books:
        package = import_module(f"{apps.get_app_config(label).name}.migrations")
        for name in sorted(m.name for m in iter_modules(package.__path__)):
            guards = getattr(import_module(f"{package.__name__}.{name}"), "GUARDS", None)
            for table, immutable, append_only in guards or []:
                written[table] = (sorted(immutable), append_only)
    assert {"cards_registry", "tables", "house_books"} <= set(apps_with_books)
    declared = {b.table: (sorted(b.immutable_columns), b.append_only) for b in books()}
    assert written == declared


def test_guard_sql_builds_both_vendors():
    install, remove = guard_sql("postgresql", "t", ["a", "b"])
    assert any("ENABLE ALWAYS TRIGGER t_guard_rows" in s for s in install)
    assert any('NEW."a" IS DISTINCT FROM OLD."a"' in s for s in install)
    install, remove = guard_sql("sqlite", "t", ["a"])
    assert len(install) == 2 and len(remove) == 2


def _incident_books(users: dict[str, Any]) -> dict[str, Any]:
    """An incident that quarantines two decks, closed with one found fit; a declaration that
    puts a third out of use: the many-to-many books."""

    director, officer = users[roles.DIRECTOR], users[roles.OFFICER]
    today = builders.gaming_day()
    reception = builders.depot_with_decks(director, officer, day=today, delivery_note="BL 2").reception
    decks = list(reception.decks.order_by("serial"))
    now = timezone.now()
    incident = depot.report_incident(
        actor=director,
        kind="marked",
        occurred_at=now - dt.timedelta(minutes=2),
        day=today,
        decks=decks[:2],
        officer_informed=officer,
        officer_informed_at=now - dt.timedelta(minutes=1),
        circumstances="Carte marquée au dos.",
    )
    closure = depot.close_incident(actor=officer, incident=incident, finding="Vu", decks_fit=[decks[0]])
    declaration = depot.declare_out_of_use(actor=director, decks=decks[2:3], reason="Dos décolorés")
    return {"incident": incident, "closure": closure, "declaration": declaration, "decks": decks}


@pytest.mark.django_db
def test_the_many_to_many_books_are_bound_and_named(users, casino, capsys):
    books_ = _incident_books(users)
    code, _out, err = run_verify_audit(capsys)
    assert code == 0, err
    links = dict.fromkeys(
        [
            "cards_registry_incident_decks",
            "cards_registry_incidentclosure_decks_fit",
            "cards_registry_outofusedeclaration",
            "cards_registry_outofusedeclaration_decks",
        ],
        0,
    )
    for payload in AuditEvent.objects.values_list("payload", flat=True):
        for table, _pk, _values in json.loads(payload).get(ROWS_KEY, []):
            if table in links:
                links[table] += 1
    assert links == {
        "cards_registry_incident_decks": 2,
        "cards_registry_incidentclosure_decks_fit": 1,
        "cards_registry_outofusedeclaration": 1,
        "cards_registry_outofusedeclaration_decks": 1,
    }
    # which deck the incident quarantined, changed behind the application's back
    incident, third = books_["incident"], books_["decks"][2]
    link = incident.decks.through.objects.filter(incident=incident).order_by("pk").first()
    tamper_books(
        "UPDATE cards_registry_incident_decks SET deck_id = %s WHERE id = %s",
        [third.pk, link.pk],
        "cards_registry_incident_decks",
    )
    _assert_named(capsys, "cards_registry_incident_decks", link.pk, "deck", link.deck_id, third.pk)


@pytest.mark.django_db
def test_the_database_refuses_unlinking_a_quarantined_deck(users, casino):
    incident = _incident_books(users)["incident"]
    with pytest.raises(DatabaseError), transaction.atomic():
        incident.decks.clear()
    assert incident.decks.count() == 2


# --- Every bound table, tampered with at once -------------------------------------------------

#: The books only the Luxembourg casino writes (its other books: the FR demo keeps none of them).
LU_ONLY = {
    "cards_registry_sixaincap",
    "house_books_bankfailure",
    "house_books_closingdown",
    "house_books_deviceassignment",
    "house_books_earlystop",
    "house_books_newauthorisation",
    "house_books_seancehours",
    "house_books_shoedevice",
    "house_books_tablenotice",
    "tables_ministrynotice",
}


def _demo_users() -> dict[str, Any]:
    from django.contrib.auth.models import User

    return {name: User.objects.get(username=name) for name in ("directeur", "comite", "croupier", "officier")}


def _the_acts_the_fr_demo_leaves_out() -> None:
    """The acts the FR demo does not write: a maximum changed, a delegation, an authorised minimum
    and its stamp, a change of the gaming day, the depot's settings, an officer's demand and the
    inventory, an incident reported later and closed with a deck fit, a declaration out of use, a
    correction."""

    from cards_registry.models import DeckStatus
    from house_books.services.casino import update_casino_settings

    people = _demo_users()
    director, officer = people["directeur"], people["officier"]
    past = builders.gaming_day() - dt.timedelta(days=10)
    table = floor.create_table(actor=director, number=9, code="BJ09")
    session = builders.open_session(table, director=director, croupier=people["croupier"], day=past)
    with builders.at_day(past, hour=15):
        floor.change_maximum(actor=director, session=session, maximum=D("2000.00"), display_changed=True)
    floor.grant_delegation(
        actor=director,
        delegate=people["comite"],
        approval_reference="Agrément MJ 2026-14",
        approved_on=past,
        valid_from=past,
    )
    act = floor.record_authorised_minimum(
        actor=director,
        minimum=D("2.00"),
        decree_reference="Arrêté du 20/11/2026",
        decree_date=past,
        in_force_on=past,
    )
    floor.stamp_authorised_minimum(actor=officer, act=act)
    update_casino_settings(actor=director, gaming_day_rollover=dt.time(5, 0))
    depot.set_max_sixains(actor=director, max_sixains=40)
    demand = depot.demand_opening(actor=officer, reason="Contrôle inopiné")
    opening = depot.open_for_inspection(actor=director, demand=demand)
    in_cabinet = list(Deck.objects.filter(status=DeckStatus.IN_CABINET).order_by("serial"))
    depot.record_inventory(actor=director, opening=opening, found=[d.serial for d in in_cabinet])
    # a deck returned marked opens an incident not yet told: the officer records when he was
    # told, then closes it, the deck found fit
    today = builders.gaming_day()
    issue_and_check(
        director=director, croupier=people["croupier"], table_number=9, day=today, decks=in_cabinet[:1]
    )
    depot.return_decks(actor=director, table_number=9, day=today, results=[(in_cabinet[0], "marked", "", 52)])
    incident = Incident.objects.get(route=IncidentRoute.RETURN, decks=in_cabinet[0])
    depot.record_incident_report(
        actor=officer, incident=incident, officer_informed=officer, informed_at=timezone.now()
    )
    depot.close_incident(actor=officer, incident=incident, finding="Vu", decks_fit=[in_cabinet[0]])
    depot.declare_out_of_use(actor=director, decks=in_cabinet[2:3], reason="Dos décolorés")
    depot.record_correction(
        actor=director,
        entry=Reception.objects.order_by("pk").first(),
        field="delivery_note",
        new_value="BL corrigé",
        reason="erreur de recopie",
        approval="Approuvé, le directeur responsable",
    )


def _tamper(book: Any) -> int | None:
    """Change one regulated value of one row of ``book`` as a superuser (a relation's table: the
    row is deleted); the row's key, or None when the book is empty."""
    from django.db import models

    model = book.model
    for name, column in zip(book.fields, book.columns, strict=True):
        field = model._meta.get_field(name)
        if field.is_relation:
            continue
        pk = (
            model._base_manager.exclude(**{f"{name}__isnull": True})
            .exclude(**{name: ""} if isinstance(field, models.CharField | models.TextField) else {})
            .order_by("pk")
            .values_list("pk", flat=True)
            .first()
        )
        if pk is None:
            continue
        change = {
            models.BooleanField: f'NOT "{column}"',
            models.DateTimeField: f"\"{column}\" + interval '1 second'",
            models.TimeField: f"\"{column}\" + interval '1 minute'",
            models.DateField: f'"{column}" + 1',  # after DateTimeField, its subclass
            models.JSONField: "'{\"changed\": 1}'::jsonb",
            models.DecimalField: f'"{column}" + 1',
        }
        expression = next((sql for kind, sql in change.items() if isinstance(field, kind)), None)
        if expression is None:
            textual = isinstance(field, models.CharField | models.TextField)
            expression = f"\"{column}\" || 'x'" if textual else f'"{column}" + 1'
        tamper_books(
            f'UPDATE "{book.table}" SET "{column}" = {expression} WHERE "{book.pk}" = %s', [pk], book.table
        )
        return pk
    # only relations: point one row at another row of the same target
    for name, column in zip(book.fields, book.columns, strict=True):
        field = model._meta.get_field(name)
        row = (
            model._base_manager.exclude(**{f"{name}__isnull": True})
            .order_by("pk")
            .values_list("pk", field.attname)
            .first()
        )
        if row is None:
            continue
        pk, current = row
        targets = (
            field.related_model._base_manager.exclude(pk=current).order_by("-pk").values_list("pk", flat=True)
        )
        for target in targets[:20]:
            try:
                with transaction.atomic():
                    tamper_books(
                        f'UPDATE "{book.table}" SET "{column}" = %s WHERE "{book.pk}" = %s',
                        [target, pk],
                        book.table,
                    )
                return pk
            except DatabaseError:
                continue
    return None


def _every_book_tampered(capsys: Any, expected: set[str]) -> None:
    code, _out, err = run_verify_audit(capsys)
    assert code == 0, err
    written = {b.table for b in books() if b.model._base_manager.exists()}
    assert expected <= written, sorted(expected - written)
    tampered = {b.table: _tamper(b) for b in books() if b.table in expected}
    code, _out, err = run_verify_audit(capsys)
    assert code == 1
    unnamed = sorted(t for t, pk in tampered.items() if f"BOOK: {t} pk {pk}" not in err)
    assert unnamed == [], err[-3000:]


@pytest.mark.slow
@pytest.mark.django_db
def test_every_book_the_fr_casino_keeps_tampered_with_is_named(demo, capsys):
    _the_acts_the_fr_demo_leaves_out()
    _every_book_tampered(capsys, {b.table for b in product_books()} - LU_ONLY)


@pytest.mark.slow
@pytest.mark.django_db
def test_every_book_only_the_lu_casino_keeps_tampered_with_is_named(lu_demo, capsys):
    assert LU_ONLY <= {b.table for b in books()}
    _every_book_tampered(capsys, LU_ONLY - {"house_books_closingdown"})


@pytest.mark.django_db
def test_the_closing_down_tampered_with_is_named(users, casino, capsys):
    """The closing down ends the casino's books (the demos, still open, have none)."""
    builders.closing_down(users[roles.DIRECTOR])
    _every_book_tampered(capsys, {"house_books_closingdown"})


@pytest.mark.django_db
def test_a_row_set_back_to_what_an_earlier_event_said_is_named_against_the_last_one(scenario, capsys):
    """The books check reads the events from the newest and keeps the first mention of a row it
    meets: a row put back behind the application to the values of an earlier act is named, with
    the last event's values, on the connection and event by event alike."""
    said: dict[tuple[str, Any, str], list[tuple[int, Any]]] = {}
    for seq, payload in (
        AuditEvent.objects.filter(seq__isnull=False).order_by("seq").values_list("seq", "payload")
    ):
        for table, pk, values in json.loads(payload).get(ROWS_KEY, []):
            for name, value in values.items():
                said.setdefault((table, pk, name), []).append((seq, value))
    by_table = {book.table: book for book in books()}
    moved = [
        (key, history)
        for key, history in said.items()
        if key[0] in by_table
        and isinstance(history[-1][1], str)
        and any(isinstance(v, str) and v != history[-1][1] for _s, v in history)
        and by_table[key[0]].kinds[by_table[key[0]].fields.index(key[2])] == "value"
    ]
    assert moved, "the scenario writes no row twice with different texts"
    (table, pk, name), history = moved[0]
    book = by_table[table]
    column = book.columns[book.fields.index(name)]
    earlier = next(v for _s, v in history if isinstance(v, str) and v != history[-1][1])
    tamper_books(f'UPDATE "{table}" SET "{column}" = %s WHERE "{book.pk}" = %s', [earlier, pk], table)
    _assert_named(capsys, table, pk, name, history[-1][1], earlier)
    from audit.books import BookCheck
    from audit.chain import verify_chain
    from audit.verification import verify

    check = BookCheck()
    assert verify_chain(books=check).chain_ok
    assert check.check() == verify().book_problems
