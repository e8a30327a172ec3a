"""The permission matrix's expectations: every URL of the portal and the API, and every act
page of the admin, × every role, written out from the access table (never read from a model
permission). ``tests/inspection/portal/test_permission_matrix.py`` walks them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver, reverse

from cards_registry.models import CabinetDemand, IncidentClosure, IncidentReport, Visa
from casino_ops import roles
from casino_ops.access import Act, declared_acts, rule_of
from casino_ops.acts import REGISTRY
from casino_ops.api import declared_url_name
from casino_ops.regulations import cite
from inspection.models import Report
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


WRITE_METHODS = ("post", "put", "patch", "delete")


def walk(patterns: Any, prefix: str = "", namespace: str = "") -> Iterator[tuple[str, str]]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            ns = entry.namespace or ""
            full_ns = f"{namespace}:{ns}" if namespace and ns else (ns or namespace)
            yield from walk(entry.url_patterns, prefix + str(entry.pattern), full_ns)
        elif isinstance(entry, URLPattern) and entry.name:
            yield prefix + str(entry.pattern), f"{namespace}:{entry.name}" if namespace else entry.name


def views_by_name(patterns: Any, namespace: str = "") -> Iterator[tuple[str, Any]]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            ns = entry.namespace or ""
            yield from views_by_name(
                entry.url_patterns, f"{namespace}:{ns}" if namespace and ns else (ns or namespace)
            )
        elif isinstance(entry, URLPattern) and entry.name:
            yield (f"{namespace}:{entry.name}" if namespace else entry.name), entry.callback


def guarded_endpoints() -> dict[str, str]:
    return {
        name: route
        for route, name in walk(get_resolver().url_patterns)
        if route.startswith(("inspection/", "api/", "^api/"))
    }


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


# Who may perform each act the apps' API performs, WRITTEN OUT from the access table
# (casino_ops.access; every act's roles in tests/casino_ops/test_access.py): its roles (D
# director, C committee member, T table chief, K cashier, O officer, M the hand-log machine) and
# the article its refusal cites for a French casino (the samples' profile), "" where the text
# names nobody. Never read from a model permission: those open reads only.
ACT_TABLE: dict[Act, tuple[str, str]] = {
    Act.UPLOAD_HAND_LOG: ("DCTM", ""),
    Act.DEPOT: ("DC", "FR art. 39"),
    Act.REPORT_INCIDENT: ("DCT", "FR art. 40"),
    Act.SIGN_ADVANCE: ("DC", "FR art. 69"),
    Act.COUNT: ("DCT", "FR art. 69"),
    Act.FIX_MAXIMUM: ("D", "FR art. 55-5"),
    Act.FIX_MAXIMUM_AS_DELEGATE: ("C", "FR art. 55-5"),
    Act.GRANT_DELEGATION: ("D", "FR art. 55-5"),
    Act.RECORD_AUTHORISED_MINIMUM: ("D", "FR art. 55-5"),
    Act.RECORD_MINISTRY_NOTICE: ("D", ""),
    Act.ACKNOWLEDGE_DISCREPANCIES: ("D", "FR art. 68"),
    Act.PUT_ON_FLOOR: ("DC", ""),
    Act.GRANT_ROLES: ("D", "FR art. 68, 69"),
}


@dataclass
class Api:
    """An endpoint of the apps' API (staff and directors): who reads it, WRITTEN OUT in the
    letters of ACT_TABLE, and the acts its POST performs (any of them will do), whose writers
    and refusal's article are ACT_TABLE's. Officers read through it too, and never write."""

    read: str
    acts: tuple[Act, ...] = ()
    kwargs: Callable[[Samples], dict[str, Any]] = field(default=lambda s: {})


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
    "tables:session-list": Api("DCTKO"),
    "tables:session-detail": Api("DCTKO", kwargs=lambda s: {"pk": s.session.pk}),
    "tables:session-hand-logs": Api(
        "DCTO", acts=(Act.UPLOAD_HAND_LOG,), kwargs=lambda s: {"pk": s.session.pk}
    ),
    "tables:session-hand-log-batch": Api(
        "DCTO", acts=(Act.UPLOAD_HAND_LOG,), kwargs=lambda s: {"pk": s.session.pk}
    ),
    "tables:hand-log-detail": Api("DCTO", kwargs=lambda s: {"pk": s.hand_log.pk}),
    "tables:dealer-errors": Api("DCTO"),
    "depot:incidents": Api("DCO", acts=(Act.REPORT_INCIDENT,)),
    "depot:returns": Api("DCTO", acts=(Act.DEPOT,)),
    "depot:out-of-use": Api("DCTO", acts=(Act.DEPOT,)),
    "depot:inspection": Api("DCO"),
    # the tables' acts (GET: what the act concerns; POST {}: refused as incomplete)
    "tables:session-open": Api("DCTKO", acts=(Act.SIGN_ADVANCE,)),
    # signed by management (FR art. 69, LU art. 10); interrupted and resumed by the table's staff too
    **{
        f"tables:session-{act}": Api("DCTKO", acts=(Act.SIGN_ADVANCE,), kwargs=lambda s: {"pk": s.session.pk})
        for act in ("advance", "close")
    },
    **{
        f"tables:session-{act}": Api("DCTKO", acts=(Act.COUNT,), kwargs=lambda s: {"pk": s.session.pk})
        for act in ("interrupt", "resume")
    },
    "tables:session-maximum": Api(
        "DCTKO", acts=(Act.FIX_MAXIMUM, Act.FIX_MAXIMUM_AS_DELEGATE), kwargs=lambda s: {"pk": s.session.pk}
    ),
    "tables:delegations": Api("DCTO", acts=(Act.GRANT_DELEGATION,)),
    "tables:tables": Api("DCTKO", acts=(Act.PUT_ON_FLOOR,)),
    # the other books' read API (house_books): read by management and officers, never written
    "house_books:orphan-list": Api("DCO"),
    "house_books:orphan-repayment-list": Api("DCO"),
    "house_books:orphan-transfer-list": Api("DCO"),
    "house_books:approval-list": Api("DCO"),
    "house_books:tips-account": Api("DCKO"),
    "house_books:hours-list": Api("DCO"),
    "house_books:early-stop-list": Api("DCO"),
    "house_books:bank-failure-list": Api("DCO"),
    "house_books:exclusion-list": Api("DCO"),
    "house_books:refused-entry-list": Api("DCO"),
    "house_books:closing-list": Api("DCO"),
    "house_books:table-notice-list": Api("DCO"),
    "house_books:device-list": Api("DCO"),
    "house_books:device-assignment-list": Api("DCO"),
    # the book of roles: its acts are the director's alone (FR art. 68, 69, LU art. 10)
    "house_books:role-list": Api("DCO"),
    "house_books:role-acts": Api("DCO", acts=(Act.GRANT_ROLES,)),
    "tables:authorised-minimums": Api("DCTO", acts=(Act.RECORD_AUTHORISED_MINIMUM,)),
    "tables:ministry-notices": Api("DCTO", acts=(Act.RECORD_MINISTRY_NOTICE,)),
    "tables:acknowledge-discrepancies": Api("DCTO", acts=(Act.ACKNOWLEDGE_DISCREPANCIES,)),
}


LETTERS = {roles.DIRECTOR: "D", roles.COMMITTEE: "C", roles.CROUPIER: "T", roles.CASHIER: "K"}


ALL_LETTERS = {**LETTERS, roles.OFFICER: "O", roles.MACHINE: "M"}


# The acts declared beside their services (casino_ops.access.declare) bring their rows with them:
# who may perform each, from its declaration's roles, and the article its refusal cites for a
# French casino; their endpoints derived from their declarations (``route``), read by nobody
# (their book's view permission is no role's) and written as ACT_TABLE says.
ACT_TABLE.update(
    {
        act: (
            "".join(ALL_LETTERS[role] for role in rule_of(act).roles),
            cite(rule_of(act).rule, "FR") if rule_of(act).rule else "",
        )
        for act in declared_acts()
    }
)
EXPECTATIONS.update(
    {
        f"acts:{declared_url_name(declared)}": Api("", acts=declared.acts)
        for declared in REGISTRY.values()
        if declared.route
    }
)


APIS = sorted(name for name, e in EXPECTATIONS.items() if isinstance(e, Api))


READS = sorted(name for name, e in EXPECTATIONS.items() if isinstance(e, Read))


WRITES = sorted(name for name, e in EXPECTATIONS.items() if isinstance(e, Write))


def check_read(name: str, expectation: Read, url: str, clients: dict[str, Any]) -> None:

    response = clients[roles.OFFICER].get(url)
    assert response.status_code == 200, (name, response.status_code)

    for role in OTHER_ROLES:
        response = clients[role].get(url)
        assert response.status_code == 404, (name, role, response.status_code)

    response = clients["anonymous"].get(url)
    if expectation.api:
        assert response.status_code == 403, (name, response.status_code)
    else:
        assert response.status_code == 302 and "/inspection/connexion/" in response["Location"]

    response = clients["officer_password_only"].get(url)
    if expectation.api:
        assert response.status_code == 403, (name, response.status_code)
    else:
        assert response.status_code == 302 and "/inspection/verification/" in response["Location"]

    # No role writes through a read endpoint.
    for who in [roles.OFFICER, *OTHER_ROLES]:
        for method in WRITE_METHODS:
            response = getattr(clients[who], method)(url, data={}, content_type="application/json")
            # hidden from the other roles; the officer: the API refuses the write, the portal
            # has no such method
            expected = 404 if who in OTHER_ROLES else 403 if expectation.api else 405
            assert response.status_code == expected, (name, who, method, response.status_code)


# The admin's regulated acts: every "add" page and custom act page of the project's apps,
# read from the URL resolver, with who may open it WRITTEN OUT (the access table's roles of the
# act, never a model permission): D director, C committee member, T table chief (croupier), K
# cashier. Staff who read what an act page acts on but may not perform its act (listed in
# REFUSED_ON_PAGE) see the page with its refusal (casino_ops.access.RoleRequired, with the
# article) and cannot perform it; other staff get a 403; officers and the hand-log machine are
# not staff (the admin's login).
ADMIN_APPS = ("casino_ops", "audit", "cards_registry", "tables", "house_books", "inspection")


ADMIN_STANDARD = ("_changelist", "_change", "_delete", "_history")


def admin_act_urls() -> set[str]:
    return {
        name
        for _route, name in walk(get_resolver().url_patterns)
        if name.startswith("admin:")
        and name.split(":", 1)[1].startswith(ADMIN_APPS)
        and not name.endswith(ADMIN_STANDARD)
    }


NOBODY = ""


ADMIN_ACTS: dict[str, str] = {
    "admin:casino_ops_casinosettings_add": NOBODY,  # one row, made at installation
    "admin:inspection_report_add": "DC",
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
    "admin:tables_ministrynotice_add": "D",  # LU art. 26
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


REFUSED_ON_PAGE: dict[str, tuple[str, Any]] = {
    "admin:tables_session_act/advance": ("TK", Act.SIGN_ADVANCE),
    "admin:tables_session_act/close": ("TK", Act.SIGN_ADVANCE),
    "admin:tables_session_act/maximum": ("TK", Act.FIX_MAXIMUM),
    **{f"admin:tables_session_act/{act}": ("K", Act.COUNT) for act in ("interrupt", "resume", "shoe")},
    # offered under its service's declaration (Act.UPLOAD_HAND_LOG), no longer Act.COUNT
    "admin:tables_session_act/handlog": ("K", Act.UPLOAD_HAND_LOG),
    "admin:tables_advanceentry_correct": ("CTK", Act.CONTROL_REGISTER),
    "admin:tables_discrepancy_acknowledge": ("CT", Act.ACKNOWLEDGE_DISCREPANCIES),
}


# Custom admin pages that are reads, not acts: who may open them, written out likewise;
# a report another user asked for is not shown (404).
ADMIN_READS: dict[str, str] = {
    "admin:inspection_report_download": "DC",
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
    if base == "admin:inspection_report_download":
        return reverse(base, kwargs={"report_id": samples.report.pk})
    return reverse(base)
