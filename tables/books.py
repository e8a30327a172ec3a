"""The tables' regulated books, bound to the audit chain and guarded by the database
(see :mod:`audit.books`): every field the registers print or the rules read.

Entries of the advance book, the control register, shoes, hand logs and their replays
never change (FR art. 68: a correction is a new line). What legitimately moves: a
session's state, maximum and running totals, and a control-register day's closing.
A hand log's raw text is carried by its SHA-256. Nothing is ever deleted.
"""

from __future__ import annotations

from django.db.models import Model

from audit.books import register_book, register_numbering

from . import models as m

# model -> (regulated fields, the ones an act may change later, those carried by their SHA-256)
BOOKS = {
    m.Table: (("number", "code", "game", "boxes", "in_service"), (), ()),
    m.Session: (
        (
            "table",
            "day",
            "fiscal_year",
            "profile",
            "house_rules",
            "minimum",
            "maximum",
            "advance_amount",
            "guarantee_fund",
            "ministry_notified_on",
            "ministry_notice_reference",
            "ministry_notice",
            "croupier",
            "opened_at",
            "opened_by",
            "status",
            "closed_at",
            "closing_cash",
            "advances_total",
            "result",
        ),
        ("maximum", "status", "closed_at", "closing_cash", "advances_total", "result"),
        (),
    ),
    m.AdvanceEntry: (
        (
            "table",
            "line",
            "session",
            "kind",
            "amount",
            "at",
            "counted_by",
            "signed_by",
            "cashier",
            "key_holder",
            "corrects",
            "note",
        ),
        (),
        (),
    ),
    m.MaximumChange: (("session", "previous", "maximum", "at", "by", "display_changed"), (), ()),
    m.ControlDay: (
        ("day", "closed_at", "closed_by", "total", "stamped_at", "stamped_by", "stamp_remark"),
        ("closed_at", "closed_by", "total", "stamped_at", "stamped_by", "stamp_remark"),
        (),
    ),
    m.ControlLine: (
        (
            "control_day",
            "table",
            "session",
            "advances",
            "closing_cash",
            "result",
            "at",
            "by",
            "corrects",
            "approval",
            "reason",
        ),
        (),
        (),
    ),
    m.Shoe: (("session", "number", "label", "filled_at", "croupier"), (), ()),
    m.ShoeDeck: (("shoe", "deck", "serial", "back_colour"), (), ()),
    m.HandLog: (
        (
            "session",
            "shoe",
            "croupier",
            "sha256",
            "raw",
            "shoe_label",
            "table_code",
            "profile",
            "limits_min",
            "limits_max",
            "house_rules",
            "rounds",
            "source",
            "uploaded_by",
            "uploaded_at",
        ),
        (),
        ("raw",),
    ),
    m.Replay: (
        (
            "hand_log",
            "state",
            "ok",
            "rounds_replayed",
            "discrepancy_count",
            "overpaid",
            "underpaid",
            "finished_at",
        ),
        (),
        (),
    ),
    m.Discrepancy: (
        (
            "hand_log",
            "session",
            "code",
            "round",
            "box",
            "hand",
            "player",
            "expected",
            "recorded",
            "delta",
            "article",
            "detail",
        ),
        (),
        (),
    ),
    # The acts that fix who may set a maximum, the authorised minimum (a decree, stamped by an
    # officer: its stamp is the only thing that moves) and the director's acknowledgement of a
    # replay's finding (FR art. 55-5; LU art. 26, 33, 51 V).
    m.Delegation: (
        ("delegate", "approval_reference", "approved_on", "valid_from", "valid_until", "granted_by", "at"),
        (),
        (),
    ),
    m.AuthorisedMinimum: (
        (
            "minimum",
            "decree_reference",
            "decree_date",
            "in_force_on",
            "recorded_by",
            "recorded_at",
            "stamped_by",
            "stamped_at",
        ),
        ("stamped_by", "stamped_at"),
        (),
    ),
    m.DiscrepancyAcknowledgement: (("discrepancy", "by", "at", "note"), (), ()),
    # the director's notice to the minister of a raised minimum (LU art. 26): never changed
    m.MinistryNotice: (("minimum", "sent_on", "reference", "recorded_by", "recorded_at"), (), ()),
}


def register() -> None:
    for model, (fields, mutable, digest) in BOOKS.items():
        register_book(model, fields, mutable=mutable, digest=digest)
    # the advance book's lines, numbered within their table (FR model n° 10), and the shoes of
    # a séance, numbered within it
    register_numbering(
        m.AdvanceEntry, number="line", within=("table",), at="at", corrects="corrects", explanation="note"
    )
    register_numbering(m.Shoe, within=("session",), at="filled_at")


def book_fields(model: type[Model], *, without: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The regulated fields of one of these books, in their order, but those ``without`` names
    (an inline of its lines leaves out the link to the page it stands on: tables.admin)."""
    return tuple(f for f in BOOKS[model][0] if f not in without)
