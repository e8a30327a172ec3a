"""The depot's regulated books, bound to the audit chain and guarded by the database
(see :mod:`audit.books`): every field the registers print or the rules read.

Registered entries never change (FR art. 68); the only fields that move are a deck's
state (its status, when it was unsealed, the status kept during a quarantine) and an
order's ``sent_at`` (set once when it is sent). Nothing is ever deleted.
"""

from __future__ import annotations

from django.db.models import Model

from audit.books import register_book, register_numbering

from . import models as m

# model -> (regulated fields, the ones an act may change later)
BOOKS = {
    m.Manufacturer: (
        (
            "code",
            "name",
            "approval_reference",
            "ministry",
            "valid_from",
            "valid_until",
            "registered_at",
            "registered_by",
        ),
        (),
    ),
    m.Order: (
        ("book", "number", "manufacturer", "ordered_on", "recorded_at", "recorded_by", "note", "sent_at"),
        ("sent_at",),
    ),
    m.OrderLine: (("order", "quantity", "unit", "back_colour"), ()),
    m.Reception: (
        (
            "book",
            "number",
            "order",
            "manufacturer",
            "received_on",
            "delivery_note",
            "over_delivery",
            "recorded_at",
            "recorded_by",
        ),
        (),
    ),
    m.Sixain: (("manufacturer", "serial", "reception"), ()),
    m.Deck: (
        (
            "manufacturer",
            "serial",
            "back_colour",
            "status",
            "reception",
            "sixain",
            "unsealed_at",
            "status_before_quarantine",
        ),
        ("status", "unsealed_at", "status_before_quarantine"),
    ),
    m.KeyHandover: (("giver", "receiver", "at", "reason"), ()),
    m.CabinetDemand: (("officer", "at", "reason"), ()),
    m.CabinetOpening: (("opened_by", "at", "purpose", "table_number", "day", "demanded_by", "note"), ()),
    m.TableIssue: (("table_number", "day", "opening", "issued_by", "received_by", "at"), ()),
    m.IssueLine: (("issue", "deck"), ()),
    m.TableCheck: (
        (
            "issue_line",
            "at",
            "checked_by",
            "witness",
            "new_deck",
            "band_intact",
            "order_checked",
            "cards_counted",
            "video_reference",
        ),
        (),
    ),
    m.DeckReturn: (("table_number", "day", "opening", "returned_by", "at"), ()),
    m.ReturnLine: (("deck_return", "issue_line", "result", "order_restored", "cards_counted", "remark"), ()),
    m.Incident: (
        (
            "book",
            "number",
            "kind",
            "occurred_at",
            "table_number",
            "day",
            "shoe_reference",
            "officer_informed",
            "officer_informed_at",
            "circumstances",
            "reported_by",
            "recorded_at",
        ),
        (),
    ),
    m.IncidentClosure: (("incident", "officer", "at", "finding"), ()),
    m.Destruction: (("book", "number", "at", "officer", "recorded_by", "opening", "method"), ()),
    m.DestructionLine: (("destruction", "deck", "complete", "unmarked", "remark"), ()),
    m.Visa: (("order", "reception", "destruction", "officer", "at", "remark"), ()),
    m.Correction: (
        (
            "order",
            "reception",
            "incident",
            "destruction",
            "field",
            "old_value",
            "new_value",
            "reason",
            "approved_by",
            "at",
        ),
        (),
    ),
}


# The many-to-many tables of the books: which decks an incident put in quarantine, which
# an officer found fit when closing it, which a declaration put out of use.
BOOKS.update(
    {
        m.Incident.decks.through: (("incident", "deck"), ()),
        m.IncidentClosure.decks_fit.through: (("incidentclosure", "deck"), ()),
        m.OutOfUseDeclaration: (("opening", "at", "declared_by", "reason"), ()),
        m.OutOfUseDeclaration.decks.through: (("outofusedeclaration", "deck"), ()),
        # the inventory taken at an opening an officer demanded, whom an incident was reported
        # to and when (FR art. 40; LU art. 37), the depot's thresholds
        m.CabinetInventory: (
            ("opening", "at", "recorded_by", "expected", "found", "missing", "unexpected", "incident"),
            (),
        ),
        m.IncidentReport: (
            ("incident", "officer", "authority", "informed_at", "recorded_by", "recorded_at"),
            (),
        ),
        # the LU sixain cap as the ministry fixed it, and the officer's visas on the facts of an
        # authority (a maker's approval, that cap): written once, never changed
        m.SixainCap: (("max_sixains", "reference", "recorded_by", "recorded_at"), ()),
        m.AuthorityVisa: (("manufacturer", "sixain_cap", "officer", "at", "remark"), ()),
        m.DepotSettings: (
            ("max_sixains", "incident_report_minutes", "visa_within_days"),
            ("max_sixains", "incident_report_minutes", "visa_within_days"),
        ),
    }
)


#: The numbered books: each entry numbered within its book from n° 1, without a gap, the book's
#: row keeping the last number given (FR art. 39; LU art. 6); the books themselves numbered
#: within their kind.
NUMBERED = {
    m.Order: m.BookKind.ORDER,
    m.Reception: m.BookKind.RECEIPT,
    m.Incident: m.BookKind.INCIDENT,
    m.Destruction: m.BookKind.DESTRUCTION,
}


def register() -> None:
    for model, (fields, mutable) in BOOKS.items():
        register_book(model, fields, mutable=mutable)
    for model, kind in NUMBERED.items():
        register_numbering(
            model,
            within=("book",),
            counter="last_number",
            counter_filter={"kind": str(kind)},
            at="at" if model is m.Destruction else "recorded_at",
        )
    register_numbering(m.Book, within=("kind",), at="opened_at")


def book_fields(model: type[Model]) -> tuple[str, ...]:
    """The regulated fields of one of these books, in their order (the admin's entry pages
    show them: cards_registry.admin)."""
    return tuple(BOOKS[model][0])
