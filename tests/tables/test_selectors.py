"""The reads behind the printed registers: shapes, corrections, and no N+1 queries."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import selectors, services
from tables.models import EntryKind
from tests.support import builders

from .conftest import DAY, at_day

D = Decimal


@pytest.fixture(autouse=True)
def _on_day():
    """The sessions of these tests are written on DAY, their gaming day."""
    with at_day(DAY):
        yield


def _day_of_sessions(staff, director, n_tables, sessions_per_table=1):
    tables = [
        services.create_table(actor=director, number=10 + i, code=f"BJ{10 + i}") for i in range(n_tables)
    ]
    for t in tables:
        for _k in range(sessions_per_table):
            s = services.open_session(
                actor=director,
                table=t,
                day=DAY,
                minimum=D("10.00"),
                maximum=D("1000.00"),
                advance_amount=D("30000.00"),
                croupier=staff["croupier"],
            )
            services.add_advance(
                actor=director, session=s, amount=D("30000.00"), counted_by=staff["croupier"]
            )
            builders.play(s)
            services.close_session(
                actor=director,
                session=s,
                closing_cash=D("61000.00"),
                counted_by=staff["croupier"],
                certified_exact=True,
            )
    return tables


def _queries(fn, *args):
    with CaptureQueriesContext(connection) as ctx:
        result = fn(*args)
    return result, len(ctx.captured_queries)


@pytest.mark.django_db
def test_advance_book_shape_and_constant_queries(staff, casino, director):
    t = _day_of_sessions(staff, director, 1, sessions_per_table=1)[0]
    _, few = _queries(selectors.advance_book, t.number, DAY, DAY)
    for _ in range(3):
        s = services.open_session(
            actor=director,
            table=t,
            day=DAY,
            minimum=D("10.00"),
            maximum=D("1000.00"),
            advance_amount=D("30000.00"),
            croupier=staff["croupier"],
        )
        builders.play(s)
        services.close_session(
            actor=director,
            session=s,
            closing_cash=D("29000.00"),
            counted_by=staff["croupier"],
            certified_exact=True,
        )
    closing = s.entries.get(kind=EntryKind.CLOSING)
    services.correct_advance_entry(
        actor=director, entry=closing, amount=D("29100.00"), approval="Approuvé", reason="recomptage"
    )
    book, many = _queries(selectors.advance_book, t.number, DAY, DAY + dt.timedelta(days=1))
    assert few == many
    assert [len(s["entries"]) for s in book["sessions"]] == [3, 2, 2, 3]
    last = book["sessions"][-1]
    correction = last["entries"][-1]
    assert correction["kind"] == "correction" and correction["corrects_line"] == last["entries"][1]["line"]
    assert last["entries"][1]["corrected_by_lines"] == [correction["line"]]
    assert last["result"] == D("-900.00")
    assert all(e["audit_seq"] for s in book["sessions"] for e in s["entries"])
    assert book["days"] == [{"day": DAY, "result": D("1000.00") - D("1000.00") * 2 - D("900.00")}]


@pytest.mark.django_db
def test_control_register_shape_and_constant_queries(staff, casino, director):
    _day_of_sessions(staff, director, 1)
    _, few = _queries(selectors.control_register, DAY)
    _day_of_sessions_more = [
        services.create_table(actor=director, number=40 + i, code=f"BJ{40 + i}") for i in range(4)
    ]
    for t in _day_of_sessions_more:
        s = services.open_session(
            actor=director,
            table=t,
            day=DAY,
            minimum=D("10.00"),
            maximum=D("1000.00"),
            advance_amount=D("30000.00"),
            croupier=staff["croupier"],
        )
        builders.play(s)
        services.close_session(
            actor=director,
            session=s,
            closing_cash=D("30500.00"),
            counted_by=staff["croupier"],
            certified_exact=True,
        )
    with at_day(DAY + dt.timedelta(days=1), 1):
        services.close_day(actor=director, day=DAY)
    register, many = _queries(selectors.control_register, DAY)
    assert few == many
    assert register["closed"] and register["total"] == D("1000.00") + 4 * D("500.00")
    line = register["lines"][0]
    from tables.models import ControlLine

    services.correct_control_line(
        actor=director,
        line=ControlLine.objects.get(pk=line["id"]),
        result=D("900.00"),
        approval="Approuvé : neuf cents",
        reason="report",
    )
    register = selectors.control_register(DAY)
    assert register["total_at_closing"] == register["total"] == D("2900.00")  # FR art. 72
    assert register["lines"][0]["superseded"] and register["lines"][-1]["corrects"] == line["id"]
    assert register["tables"][0]["result"] == D("900.00")
    assert all(row["audit_seq"] for row in register["lines"])
    assert selectors.control_register(DAY + dt.timedelta(days=3))["lines"] == []
