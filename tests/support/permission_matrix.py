"""The permission matrix of the portal, the API and the admin's acts, written out: who may read
or do what at each URL (read by the matrix test and by the one-language test, which visits the
same pages)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from audit.models import Report
from cards_registry.models import CabinetDemand, IncidentClosure, IncidentReport, Visa
from casino_ops import roles
from inspection.portal import access
from inspection.portal.views.registers import available
from tests.support.builders import gaming_day
from tests.support.samples import Samples

OTHER_ROLES = [r for r in roles.ALL_ROLES if r != roles.OFFICER]


# the roles with staff accounts (the admin's users); the officer and the machine have none
STAFF = [r for r in roles.ALL_ROLES if r not in (roles.OFFICER, roles.MACHINE)]


MANAGEMENT = (roles.DIRECTOR, roles.COMMITTEE)


def unreported_incident() -> Any:
    """An incident a hand log's replay opened, not yet reported to an officer."""

    from cards_registry.services import report_incident_from_replay

    return report_incident_from_replay(
        code="INVALID_CARD",
        table_number=3,
        day=gaming_day(),
        shoe_reference="S",
        decks=[],
        detail="ZZ",
    )


@dataclass
class Read:
    """A page or endpoint every officer may read and nobody else may see
    (``kwargs`` gives one set of URL arguments, or a list of them)."""

    kwargs: Callable[[Samples], dict[str, Any] | list[dict[str, Any]]] = field(default=lambda s: {})
    api: bool = False
    query: str = ""


@dataclass
class Write:
    """One of the officer's writes (a visa, an incident closure): POST only."""

    kwargs: Callable[[Samples], dict[str, Any]]
    data: Callable[[Samples], dict[str, Any]]
    done: Callable[[Samples], bool]
    action: str = ""  # the portal action (inspection.portal.access) the view requires


@dataclass
class ByPermission:
    """The tables' API (staff and directors): each role by its model permissions.
    Officers read through it too, and never write (the upload is table staff's)."""

    read: str
    write: str | None = None
    kwargs: Callable[[Samples], dict[str, Any]] = field(default=lambda s: {})
    write_roles: tuple[str, ...] = ()  # a regulated act's writers, written out (casino_ops.access)


@dataclass
class Check:
    """The signature checker: officers GET the form and POST a file; nothing is written."""


@dataclass
class Open:
    """Reached by anyone (the login, the code step, logout); checked by their own tests."""


EXPECTATIONS: dict[str, Any] = {
    "portal:login": Open(),
    "portal:verify": Open(),
    "portal:logout": Open(),
    "portal:dashboard": Read(),
    "portal:audit_trail": Read(query="?q=casino"),
    "portal:chain_check": Read(),
    "portal:registers": Read(),
    "portal:register": Read(
        kwargs=lambda s: [{"name": name} for name in available()],
        query="?date_from=2026-11-01&date_to=2026-11-30&table=3",
    ),
    "portal:register_pdf": Write(
        action=access.PRINT,
        kwargs=lambda s: {"name": "order-book"},
        data=lambda s: {"date_from": "2026-11-01", "date_to": "2026-11-30"},
        done=lambda s: Report.objects.filter(register="order-book").exists(),
    ),
    "portal:report_download": Read(kwargs=lambda s: {"report_id": s.report.pk}),
    "portal:signature_checker": Check(),
    "portal:decks": Read(query="?serie=A1"),
    "portal:deck": Read(kwargs=lambda s: {"deck_id": s.deck.pk}),
    "portal:visas": Read(),
    "portal:stamp": Write(
        action=access.VISA,
        kwargs=lambda s: {"kind": "prise-en-charge", "entry_id": s.reception.pk},
        data=lambda s: {"remark": "Vu"},
        done=lambda s: Visa.objects.filter(reception=s.reception).exists(),
    ),
    "portal:incidents": Read(),
    "portal:close_incident": Write(
        action=access.CLOSE_INCIDENT,
        kwargs=lambda s: {"incident_id": s.incident.pk},
        data=lambda s: {f"incident-{s.incident.pk}-finding": "Carte marquée confirmée."},
        done=lambda s: IncidentClosure.objects.filter(incident=s.incident).exists(),
    ),
    "portal:books_inspection": Read(),
    "portal:demand_opening": Write(
        action=access.DEMAND_OPENING,
        kwargs=lambda s: {},
        data=lambda s: {"reason": "Contrôle inopiné"},
        done=lambda s: CabinetDemand.objects.exists(),
    ),
    "portal:incident_told": Write(
        action=access.VISA,
        kwargs=lambda s: {"incident_id": unreported_incident().pk},
        data=lambda s: {},
        done=lambda s: IncidentReport.objects.exists(),
    ),
    "portal:sessions": Read(query="?table=3"),
    "portal:session": Read(kwargs=lambda s: {"session_id": s.session.pk}),
    "portal:advance_book": Read(query="?table=3&date_from=2026-11-01&date_to=2026-11-30"),
    "portal:control_register": Read(query="?day=2026-11-30"),
    "portal:hand_log": Read(kwargs=lambda s: {"log_id": s.hand_log.pk}),
    "portal:replay": Read(kwargs=lambda s: {"log_id": s.hand_log.pk, "position": 1}),
    "officers_api:schema": Open(),
    "officers_api:root": Read(api=True),
    "officers_api:audit-event-list": Read(api=True),
    "officers_api:audit-event-detail": Read(api=True, kwargs=lambda s: {"seq": s.event.seq}),
    "officers_api:report-list": Read(api=True, query="?register=receipt-book"),
    "officers_api:report-detail": Read(api=True, kwargs=lambda s: {"pk": s.report.pk}),
    "officers_api:report-pdf": Read(api=True, kwargs=lambda s: {"pk": s.report.pk}),
    "officers_api:checkpoint-list": Read(api=True),
    "officers_api:checkpoint-detail": Read(api=True, kwargs=lambda s: {"seq": s.checkpoint.seq}),
    "officers_api:deck-list": Read(api=True, query="?serial=A1"),
    "officers_api:deck-detail": Read(api=True, kwargs=lambda s: {"pk": s.deck.pk}),
    "officers_api:session-list": Read(api=True),
    "officers_api:session-detail": Read(api=True, kwargs=lambda s: {"pk": s.session.pk}),
    "officers_api:hand-log-list": Read(api=True),
    "officers_api:hand-log-detail": Read(api=True, kwargs=lambda s: {"pk": s.hand_log.pk}),
    "officers_api:discrepancy-list": Read(api=True),
    "officers_api:discrepancy-detail": Read(api=True, kwargs=lambda s: {"pk": s.discrepancy.pk}),
    "portal:proofs": Read(kwargs=lambda s: (s.checkpoint, {})[1]),
    "portal:proof_verifier": Read(),
    "portal:proof_ca": Read(),
    "portal:proof_checkpoint": Read(kwargs=lambda s: {"number": s.checkpoint.number}),
    "officers_api:proof-inclusion": Read(api=True, kwargs=lambda s: (s.checkpoint, {})[1], query="?seq=1"),
    "officers_api:proof-consistency": Read(
        api=True, kwargs=lambda s: (s.checkpoint, {})[1], query="?first=1"
    ),
    "officers_api:proof-checkpoint": Read(api=True, kwargs=lambda s: (s.checkpoint, {})[1]),
    "officers_api:proof-verifier": Read(api=True),
    "tables:session-list": ByPermission("tables.view_session"),
    "tables:session-detail": ByPermission("tables.view_session", kwargs=lambda s: {"pk": s.session.pk}),
    "tables:session-hand-logs": ByPermission(
        "tables.view_handlog", write="tables.add_handlog", kwargs=lambda s: {"pk": s.session.pk}
    ),
    "tables:hand-log-detail": ByPermission("tables.view_handlog", kwargs=lambda s: {"pk": s.hand_log.pk}),
    "tables:dealer-errors": ByPermission("tables.view_discrepancy"),
    "depot:incidents": ByPermission("cards_registry.view_incident", write_roles=MANAGEMENT),
    "depot:returns": ByPermission("cards_registry.view_deck", write_roles=MANAGEMENT),
    "depot:out-of-use": ByPermission("cards_registry.view_deck", write_roles=MANAGEMENT),
    "depot:inspection": ByPermission("audit.view_auditevent"),
    # the tables' acts (GET: what the act concerns; POST {}: refused as incomplete)
    "tables:session-open": ByPermission("tables.view_session", write="tables.add_session"),
    # signed by management (FR art. 69, LU art. 10); interrupted and resumed by the table's staff too
    **{
        f"tables:session-{act}": ByPermission(
            "tables.view_session", write_roles=MANAGEMENT, kwargs=lambda s: {"pk": s.session.pk}
        )
        for act in ("advance", "close")
    },
    **{
        f"tables:session-{act}": ByPermission(
            "tables.view_session",
            write_roles=(roles.CROUPIER, *MANAGEMENT),
            kwargs=lambda s: {"pk": s.session.pk},
        )
        for act in ("interrupt", "resume")
    },
    "tables:session-maximum": ByPermission(
        "tables.view_session", write="tables.add_maximumchange", kwargs=lambda s: {"pk": s.session.pk}
    ),
    "tables:delegations": ByPermission("tables.view_delegation", write="tables.add_delegation"),
    "tables:tables": ByPermission("tables.view_table", write_roles=MANAGEMENT),
    # the other books' read API (house_books): read by their model permissions, never written
    "house_books:orphan-list": ByPermission("house_books.view_orphanentry"),
    "house_books:orphan-repayment-list": ByPermission("house_books.view_orphanrepayment"),
    "house_books:orphan-transfer-list": ByPermission("house_books.view_orphantransfer"),
    "house_books:approval-list": ByPermission("house_books.view_approval"),
    "house_books:tips-account": ByPermission("house_books.view_tipscount"),
    "house_books:hours-list": ByPermission("house_books.view_seancehours"),
    "house_books:early-stop-list": ByPermission("house_books.view_earlystop"),
    "house_books:bank-failure-list": ByPermission("house_books.view_bankfailure"),
    "house_books:exclusion-list": ByPermission("house_books.view_exclusion"),
    "house_books:refused-entry-list": ByPermission("house_books.view_refusedentry"),
    "house_books:closing-list": ByPermission("house_books.view_closingdown"),
    "house_books:table-notice-list": ByPermission("house_books.view_tablenotice"),
    "house_books:device-list": ByPermission("house_books.view_shoedevice"),
    "house_books:device-assignment-list": ByPermission("house_books.view_deviceassignment"),
    # the book of roles: read by its model permission; its acts are the director's alone
    # (casino_ops.access: Act.GRANT_ROLES, FR art. 68, 69, LU art. 10)
    "house_books:role-list": ByPermission("house_books.view_roleentry"),
    "house_books:role-acts": ByPermission("house_books.view_roleentry", write_roles=(roles.DIRECTOR,)),
    "tables:authorised-minimums": ByPermission(
        "tables.view_authorisedminimum", write="tables.add_authorisedminimum"
    ),
    "tables:acknowledge-discrepancies": ByPermission(
        "tables.view_discrepancy", write="tables.add_discrepancyacknowledgement"
    ),
}


NOBODY = ""


ADMIN_ACTS: dict[str, str] = {
    "admin:casino_ops_casinosettings_add": NOBODY,  # one row, made at installation
    "admin:audit_report_add": "DC",
    "admin:audit_checkpoint_add": NOBODY,  # signed by the task or the command
    "admin:audit_auditevent_add": NOBODY,
    "admin:cards_registry_manufacturer_add": "DC",
    "admin:cards_registry_order_add": "DC",
    "admin:cards_registry_reception_add": "DC",
    "admin:cards_registry_deck_add": NOBODY,  # decks come from a reception
    "admin:cards_registry_sixain_add": NOBODY,
    "admin:cards_registry_keyhandover_add": "DC",  # FR art. 39, LU art. 6
    "admin:cards_registry_cabinetopening_add": "DC",
    "admin:cards_registry_incident_add": "DCT",  # FR art. 40, LU art. 7
    "admin:cards_registry_destruction_add": NOBODY,  # an action on decks out of use
    "admin:cards_registry_correction_add": "D",  # FR art. 68
    "admin:cards_registry_depotsettings_add": "D",
    "admin:cards_registry_outofusedeclaration_add": "DC",
    "admin:cards_registry_incidentreport_add": "DC",
    "admin:cards_registry_cabinetinventory_add": "DC",
    "admin:cards_registry_cabinetdemand_add": NOBODY,  # the officer's, in the portal
    "admin:cards_registry_deckreturn_add": "DC",
    "admin:cards_registry_tablecheck_add": "DCT",  # unsealed at the table (FR art. 40, LU art. 7)
    "admin:tables_table_add": "DC",  # put on the floor by management
    "admin:tables_session_add": "DC",  # the advance signed (FR art. 69, LU art. 10)
    "admin:tables_session_act/advance": "DC",  # signed by management (FR art. 69)
    "admin:tables_session_act/maximum": "DC",  # director, or a committee delegate (FR 55-5, LU 51 V)
    "admin:tables_session_act/close": "DC",  # certified "exact" (FR art. 69, LU art. 10)
    "admin:tables_session_act/interrupt": "DCT",
    "admin:tables_session_act/resume": "DCT",
    "admin:tables_session_act/shoe": "DCT",
    "admin:tables_session_act/handlog": "DCT",
    "admin:tables_advanceentry_add": NOBODY,
    "admin:tables_advanceentry_correct": "D",  # approved by the director in words (FR art. 68)
    "admin:tables_controlday_add": NOBODY,
    "admin:tables_controlline_add": NOBODY,
    "admin:tables_controlline_correct": "D",  # the samples hold no line: 404 to every staff role
    "admin:tables_handlog_add": NOBODY,  # uploaded from the session's page
    "admin:tables_delegation_add": "D",  # LU art. 51 V
    "admin:tables_authorisedminimum_add": "D",  # FR art. 55-5, LU art. 33
    "admin:tables_discrepancy_add": NOBODY,
    "admin:tables_discrepancyacknowledgement_add": NOBODY,  # an action on discrepancies
    "admin:tables_discrepancy_acknowledge": "D",  # with the director's explanation (FR art. 40, 68)
    "admin:house_books_orphanentry_add": "DC",
    "admin:house_books_orphanrepayment_add": "DC",
    "admin:house_books_orphantransfer_add": "D",  # LU art. 8
    "admin:house_books_approval_add": "D",  # LU art. 51
    "admin:house_books_approvalendentry_add": "D",
    "admin:house_books_tipscount_add": "DCK",  # LU art. 57
    "admin:house_books_seancehours_add": "DC",  # LU art. 71
    "admin:house_books_earlystop_add": "DC",  # LU art. 71
    "admin:house_books_bankfailure_add": "DC",  # LU art. 11
    "admin:house_books_newauthorisation_add": "DC",  # LU art. 11
    "admin:house_books_exclusion_add": "DC",  # LU art. 68
    "admin:house_books_ownexclusionentry_add": "DC",  # LU art. 69
    "admin:house_books_exclusionnoticeentry_add": "DC",  # LU art. 69
    "admin:house_books_exclusionliftentry_add": "DC",  # LU art. 75
    "admin:house_books_refusedentry_add": "DC",  # LU art. 67, 75
    "admin:house_books_closingdown_add": "D",  # LU art. 52
    "admin:house_books_tablenotice_add": "DC",  # LU art. 74
    "admin:house_books_shoedevice_add": "DC",  # LU art. 40
    "admin:house_books_deviceassignment_add": "D",  # LU art. 32 §3: by the director
    "admin:house_books_devicereturnentry_add": "DC",  # LU art. 40
    "admin:house_books_roleentry_add": "D",  # FR art. 68, 69; LU art. 10, 51, 54: the book of roles
}


# Custom admin pages that are reads, not acts: who may open them, written out likewise;
# a report another user asked for is not shown (404).
ADMIN_READS: dict[str, str] = {
    "admin:audit_report_download": "DC",
    "admin:tables_session_dealer_errors": "DCT",
}


def admin_url(name: str, samples: Samples) -> str:
    from tables.models import AdvanceEntry

    base, _slash, act = name.partition("/")
    if act:
        return reverse(base, kwargs={"pk": samples.session.pk, "act": act})
    if base == "admin:tables_advanceentry_correct":
        return reverse(base, kwargs={"pk": AdvanceEntry.objects.filter(session=samples.session).first().pk})
    if base == "admin:tables_controlline_correct":
        return reverse(base, kwargs={"pk": 10**9})  # refused before the lookup; the director: 404
    if base == "admin:audit_report_download":
        return reverse(base, kwargs={"report_id": samples.report.pk})
    return reverse(base)
