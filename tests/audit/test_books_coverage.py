"""Every table an act writes is bound to the chain (audit.books), or named here as exempt with
the reason why the chain need not carry its rows; and tampering with any bound table is named
by ``verify_audit``."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps

from audit.books import books

#: The project's apps: every concrete model of theirs (the many-to-many tables included).
PROJECT_APPS = ("casino_ops", "audit", "cards_registry", "tables", "house_books", "inspection")

#: The tables the chain does not carry, each with its reason.
EXEMPT = {
    "audit.AuditEvent": "the chain itself: hashed, MAC-authenticated, guarded by its own triggers",
    "audit.Checkpoint": "signed tree heads of the chain, written to the witness outside the database",
    "audit.MerkleNode": "subtree hashes computed from the chain; every proof recomputes what it reads",
    "inspection.Report": "a print job's state; the register it produced is an act whose SHA-256 the chain carries",
    "inspection.ReportPart": "a print job's progress; its parts' hashes are carried by the register's event",
    "inspection.RegisterPart": "a cache of signed parts, each reused only while its content hash matches the books",
    "audit.CheckpointNote": (
        "a checkpoint's note signed with the casino's note key: verified by its signature and its "
        "Merkle root recomputed from the chain; a note whose checkpoint is gone is named by verify_audit"
    ),
    "audit.Cosignature": "a witness's cosignature of a checkpoint note, verified by the witness's own key",
    "audit.NoteTimeStamp": "an RFC 3161 time-stamp over a checkpoint note, verified by the server's signature",
    "audit.WitnessState": (
        "what the casino knows of a witness (the size it last cosigned, its failure): the witness keeps "
        "its own state, and its alarm is sealed in the chain"
    ),
    "casino_ops.OfficerEnrolment": (
        "the authority's signed enrolment and revocation, stored whole and verified against the "
        "authority's certificate at every use (the columns only repeat the document); each enrolment "
        "and revocation is an act the chain carries (OFFICER_ENROLLED, OFFICER_REVOKED)"
    ),
    "casino_ops.OfficerChallenge": (
        "a challenge an officer's passkey signed, kept only so that it is not accepted twice; the act "
        "it signed carries the assertion"
    ),
    "cards_registry.Book": (
        "the numbering counter of the depot's carnets: each entry's number is bound with its entry, "
        "and the numbers' continuity is checked from the bound entries"
    ),
}


def _models() -> list[Any]:
    found = []
    for label in PROJECT_APPS:
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            if not (model._meta.abstract or model._meta.proxy):
                found.append(model)
    return found


def test_every_model_is_a_book_or_exempt_with_its_reason():
    bound = {book.model for book in books()}
    missing = [m._meta.label for m in _models() if m not in bound and m._meta.label not in EXEMPT]
    assert missing == [], f"neither a book nor exempt (declare it in <app>/books.py): {missing}"
    labels = {m._meta.label for m in _models()}
    assert set(EXEMPT) <= labels, set(EXEMPT) - labels  # no stale exemption
    assert all(reason.strip() for reason in EXEMPT.values())
    assert not [m._meta.label for m in bound if m._meta.label in EXEMPT]


@pytest.mark.parametrize(
    "label",
    [
        "casino_ops.CasinoSettings",
        "casino_ops.CalendarRule",
        "tables.AuthorisedMinimum",
        "tables.Delegation",
        "tables.DiscrepancyAcknowledgement",
        "cards_registry.CabinetDemand",
        "cards_registry.CabinetInventory",
        "cards_registry.IncidentReport",
        "cards_registry.DepotSettings",
    ],
)
def test_the_tables_the_acts_wrote_unseen_are_books(label):
    assert apps.get_model(label) in {book.model for book in books()}
