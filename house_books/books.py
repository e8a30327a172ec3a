"""The casino's other books, bound to the audit chain and guarded by the database (see
:mod:`audit.books`): every field their registers print or their rules read.

Entries never change once written; the only fields that move are an approval's end (the
resignation or dismissal and its notice), a shoe device's state and the return of its
assignment, and an exclusion's notice to the minister and its radiation (the entries refused
under it are entries of their own). Nothing is deleted.
"""

from __future__ import annotations

from django.db.models import Model

from audit.books import register_book, register_numbering
from casino_ops.models import CalendarRule, CasinoSettings
from casino_ops.services import EDITABLE_FIELDS

from . import models as m

# model -> (regulated fields, the ones an act may change later)
BOOKS = {
    m.OrphanEntry: (
        (
            "number",
            "exercise",
            "found_at",
            "kind",
            "table_number",
            "stake",
            "winnings",
            "amount",
            "description",
            "recorded_by",
            "recorded_at",
        ),
        (),
    ),
    m.OrphanRepayment: (
        (
            "entry",
            "repaid_on",
            "amount",
            "total_before",
            "owner_name",
            "owner_address",
            "proof",
            "recorded_by",
            "recorded_at",
        ),
        (),
    ),
    m.OrphanTransfer: (
        (
            "exercise",
            "transferred_on",
            "amount",
            "commune",
            "receipt",
            "minister_notified_on",
            "recorded_by",
            "recorded_at",
        ),
        (),
    ),
    m.Approval: (
        (
            "person",
            "function",
            "job",
            "approved_on",
            "reference",
            "ended_on",
            "end_kind",
            "end_reference",
            "minister_notified_on",
            "recorded_by",
            "recorded_at",
            "ended_by",
        ),
        ("ended_on", "end_kind", "end_reference", "minister_notified_on", "ended_by"),
    ),
    m.TipsCount: (
        ("day", "box", "amount", "counted_by", "witness", "counted_at", "note", "recorded_at"),
        (),
    ),
    m.SeanceHours: (
        (
            "weekday_start",
            "holiday_start",
            "closing",
            "effective_from",
            "notified_at",
            "reference",
            "recorded_by",
            "recorded_at",
        ),
        (),
    ),
    m.EarlyStop: (("session", "stopped_at", "reason", "note", "recorded_by", "recorded_at"), ()),
    m.BankFailure: (
        (
            "occurred_at",
            "description",
            "officer_name",
            "officer_told_at",
            "minister_told_at",
            "recorded_by",
            "recorded_at",
        ),
        (),
    ),
    m.NewAuthorisation: (("failure", "granted_on", "reference", "recorded_by", "recorded_at"), ()),
    m.ShoeDevice: (
        ("number", "approved_model", "approval_reference", "state", "recorded_by", "recorded_at"),
        ("state",),
    ),
    m.DeviceAssignment: (
        ("device", "table_number", "day", "assigned_by", "assigned_at", "returned_at"),
        ("returned_at",),
    ),
    m.Exclusion: (
        (
            "origin",
            "kind",
            "ground",
            "last_name",
            "first_names",
            "birth_date",
            "decided_on",
            "reference",
            "reasons",
            "director_notified_on",
            "minister_notified_on",
            "notice_reference",
            "lifted_on",
            "lift_reference",
            "recorded_by",
            "recorded_at",
        ),
        ("minister_notified_on", "notice_reference", "lifted_on", "lift_reference"),
    ),
    m.RefusedEntry: (
        (
            "exclusion",
            "refused_at",
            "last_name",
            "first_names",
            "birth_date",
            "physionomiste",
            "remark",
            "recorded_by",
            "recorded_at",
        ),
        (),
    ),
    m.ClosingDown: (
        (
            "closed_at",
            "documents_left_at",
            "documents",
            "disposal",
            "successor",
            "officer_name",
            "decks",
            "devices",
            "exclusion_entries",
            "recorded_by",
            "recorded_at",
            "visa_by",
            "visa_at",
            "visa_remark",
        ),
        ("visa_by", "visa_at", "visa_remark"),
    ),
    m.TableNotice: (
        ("table_number", "table_code", "day", "advance", "minimum", "maximum", "posted_by", "posted_at"),
        (),
    ),
    m.RoleEntry: (("kind", "person", "role", "person_name", "reason", "recorded_by", "recorded_at"), ()),
}


#: The casino's settings (its decree's minimum, its house rules, its gaming day and exercise)
#: and every change of the gaming day or the exercise: casino_ops imports no app, so they are
#: declared here, beside the act that writes them (house_books.services.casino).
CASINO_BOOKS: dict[type[Model], tuple[tuple[str, ...], tuple[str, ...]]] = {
    CasinoSettings: (
        EDITABLE_FIELDS,
        tuple(f for f in EDITABLE_FIELDS if f != "authorised_min_stake"),
    ),
    CalendarRule: (
        (
            "effective_from",
            "exercise_from",
            "gaming_day_rollover",
            "exercise_start_month",
            "exercise_start_day",
            "recorded_at",
        ),
        (),
    ),
}


def register() -> None:
    declared: dict[type[Model], tuple[tuple[str, ...], tuple[str, ...]]] = {**BOOKS, **CASINO_BOOKS}
    for model, (fields, mutable) in declared.items():
        register_book(model, fields, mutable=mutable)
    # the carnet des orphelins (LU art. 8) and the casino's shoes, numbered from n° 1
    register_numbering(m.OrphanEntry)
    register_numbering(m.ShoeDevice)


def book_fields(model: type[Model]) -> tuple[str, ...]:
    """The regulated fields of one of these books, in their order (the officers' API and the
    admin's entry pages show them: house_books.api, house_books.admin)."""
    return tuple(BOOKS[model][0])
