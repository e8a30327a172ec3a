"""Every URL of the portal and the API × every role and anonymous.

The list of endpoints is read from the URL resolver: an endpoint under
``/inspection/`` or ``/api/`` without an expectation here fails the test, so
the matrix is complete by construction. Officers get every read and only their
visas and incident closures as writes; every other role gets a 404; anonymous
visitors are sent to the login (portal) or refused (API).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from audit.models import Report
from cards_registry.models import CabinetDemand, IncidentClosure, IncidentReport, Visa
from casino_ops import roles
from casino_ops.access import Act
from inspection.portal import access
from inspection.portal.views.registers import available
from tests.support.builders import gaming_day
from tests.support.samples import (  # noqa: F401 - made once for the module
    Samples,
    module_casino,
    module_clients,
    module_devices,
    module_samples,
    module_users,
)

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


def test_every_endpoint_has_an_expectation() -> None:
    missing = sorted(set(guarded_endpoints()) - set(EXPECTATIONS))
    assert not missing, f"endpoints without an expectation in the permission matrix: {missing}"
    stale = sorted(set(EXPECTATIONS) - set(guarded_endpoints()))
    assert not stale, f"expectations for endpoints that no longer exist: {stale}"


def test_each_write_requires_its_own_portal_action() -> None:
    """Each officer's write names the portal action it requires (the demand to open the
    cabinet is not a visa), and every write action the officer holds is used by a write."""
    views = dict(views_by_name(get_resolver().url_patterns))
    used = set()
    for name, expectation in EXPECTATIONS.items():
        if not isinstance(expectation, Write):
            continue
        assert expectation.action, f"{name}: the matrix names no portal action"
        view = views[name]
        assert getattr(view, "portal_action", None) == expectation.action, (name, view.portal_action)
        used.add(expectation.action)
    assert used == access.PORTAL_ACTIONS[roles.OFFICER] - {access.READ}
    assert len({access.READ, access.VISA, access.CLOSE_INCIDENT, access.PRINT, access.DEMAND_OPENING}) == 5


BY_PERMISSION = sorted(name for name, e in EXPECTATIONS.items() if isinstance(e, ByPermission))
READS = sorted(name for name, e in EXPECTATIONS.items() if isinstance(e, Read))
WRITES = sorted(name for name, e in EXPECTATIONS.items() if isinstance(e, Write))


@pytest.mark.django_db
@pytest.mark.parametrize("name", READS)
def test_reads(name: str, clients: dict[str, Any], samples: Samples) -> None:
    expectation: Read = EXPECTATIONS[name]
    variants = expectation.kwargs(samples)
    for kwargs in variants if isinstance(variants, list) else [variants]:
        check_read(name, expectation, reverse(name, kwargs=kwargs) + expectation.query, clients)


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


@pytest.mark.django_db
@pytest.mark.parametrize("name", WRITES)
def test_writes(name: str, clients: dict[str, Any], samples: Samples) -> None:
    expectation: Write = EXPECTATIONS[name]
    url = reverse(name, kwargs=expectation.kwargs(samples))
    data = expectation.data(samples)

    for role in OTHER_ROLES:
        assert clients[role].post(url, data).status_code == 404, (name, role)
    response = clients["anonymous"].post(url, data)
    assert response.status_code == 302 and "/inspection/connexion/" in response["Location"]
    assert not expectation.done(samples), f"{name} was done by someone other than an officer"

    assert clients[roles.OFFICER].get(url).status_code == 405
    response = clients[roles.OFFICER].post(url, data)
    assert response.status_code == 302, (name, response.status_code)
    assert expectation.done(samples)


@pytest.mark.django_db
@pytest.mark.parametrize("role", [*roles.ALL_ROLES, "anonymous"])
def test_only_the_director_changes_the_casino_settings(
    role: str, clients: dict[str, Any], samples: Samples
) -> None:
    from casino_ops.models import CasinoSettings

    settings_row = CasinoSettings.objects.get()
    url = reverse("admin:casino_ops_casinosettings_change", args=[settings_row.pk])
    data = {
        "name": "Nouveau nom",
        "profile": "FR",
        "authorised_min_stake": "5.00",
        "authorisation_reference": "",
        "double_after_split": "on",
        "max_hands_after_split": "",
        "max_boxes_per_player": "",
    }
    response = clients[role].post(url, data)
    settings_row.refresh_from_db()
    if role == roles.DIRECTOR:
        assert response.status_code == 302, response.content[:2000]
        assert settings_row.name == "Nouveau nom"
    else:
        # staff without the right: refused; the others: sent to the admin's login
        assert response.status_code == (403 if role in STAFF else 302), (role, response.status_code)
        assert settings_row.name == "Casino de test"
    # Nobody may add a second row or delete the casino's settings.
    add = clients[role].post(reverse("admin:casino_ops_casinosettings_add"), data)
    assert add.status_code == (403 if role in STAFF else 302), (role, add.status_code)
    assert CasinoSettings.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("name", BY_PERMISSION)
def test_tables_api_by_permission(name: str, clients: dict[str, Any], samples: Samples) -> None:
    expectation: ByPermission = EXPECTATIONS[name]
    url = reverse(name, kwargs=expectation.kwargs(samples))
    for role in roles.ALL_ROLES:
        user = samples.users[role]
        response = clients[role].get(url)
        expected = 200 if user.has_perm(expectation.read) else 403
        assert response.status_code == expected, (name, role, response.status_code)
        response = clients[role].post(url, data=b"{}", content_type="application/json")
        writes = role in expectation.write_roles or bool(
            expectation.write and user.has_perm(expectation.write)
        )
        if writes:
            assert response.status_code == 400, (name, role, response.status_code)  # an empty log
        else:
            assert response.status_code in (403, 405), (name, role, response.status_code)
    assert samples.users[roles.OFFICER].has_perm(expectation.read)
    assert clients["anonymous"].get(url).status_code == 403


@pytest.mark.django_db
def test_signature_checker_reads_only(clients: dict[str, Any], samples: Samples) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from audit.models import AuditEvent

    url = reverse("portal:signature_checker")
    pdf = samples.report.file.read()
    events = AuditEvent.objects.count()
    for role in OTHER_ROLES:
        assert clients[role].get(url).status_code == 404
        upload = SimpleUploadedFile("r.pdf", pdf, content_type="application/pdf")
        assert clients[role].post(url, {"pdf": upload}).status_code == 404
    assert clients["anonymous"].get(url).status_code == 302
    assert clients[roles.OFFICER].get(url).status_code == 200
    upload = SimpleUploadedFile("r.pdf", pdf, content_type="application/pdf")
    assert clients[roles.OFFICER].post(url, {"pdf": upload}).status_code == 200
    assert clients[roles.OFFICER].put(url).status_code == 405
    assert AuditEvent.objects.count() == events


# The admin's regulated acts: every "add" page and custom act page of the project's apps,
# read from the URL resolver, with who may open it WRITTEN OUT (not derived from the
# permissions): D director, C committee member, T table chief (croupier), K cashier. Staff
# listed in REFUSED_ON_PAGE see the act's page with its refusal (casino_ops.access.RoleRequired,
# with the article) and cannot perform it; other staff get a 403; officers and the hand-log
# machine are not staff (the admin's login).
ADMIN_APPS = ("casino_ops", "audit", "cards_registry", "tables", "house_books")
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
REFUSED_ON_PAGE: dict[str, tuple[str, Any]] = {
    "admin:tables_session_act/advance": ("T", Act.SIGN_ADVANCE),
    "admin:tables_session_act/close": ("T", Act.SIGN_ADVANCE),
    "admin:tables_advanceentry_correct": ("CT", Act.CONTROL_REGISTER),
    "admin:tables_discrepancy_acknowledge": ("CT", Act.ACKNOWLEDGE_DISCREPANCIES),
}
# Custom admin pages that are reads, not acts: who may open them, written out likewise;
# a report another user asked for is not shown (404).
ADMIN_READS: dict[str, str] = {
    "admin:audit_report_download": "DC",
    "admin:tables_session_dealer_errors": "DCT",
}
LETTERS = {roles.DIRECTOR: "D", roles.COMMITTEE: "C", roles.CROUPIER: "T", roles.CASHIER: "K"}


def test_every_admin_act_page_has_an_expectation() -> None:
    from tables.admin import SESSION_ACTS

    listed = {name.split("/")[0] for name in [*ADMIN_ACTS, *ADMIN_READS]}
    assert listed == admin_act_urls(), sorted(listed ^ admin_act_urls())
    session_acts = {name.split("/")[1] for name in ADMIN_ACTS if name.startswith("admin:tables_session_act/")}
    assert session_acts == set(SESSION_ACTS)


def _admin_url(name: str, samples: Samples) -> str:
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


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted([*ADMIN_ACTS, *ADMIN_READS]))
def test_admin_act_pages(name: str, clients: dict[str, Any], samples: Samples) -> None:
    from django.utils.html import escape
    from django.utils.translation import override

    from casino_ops.access import ACTS

    url = _admin_url(name, samples)
    allowed = ADMIN_ACTS.get(name, ADMIN_READS.get(name))
    refused, act = REFUSED_ON_PAGE.get(name, ("", None))
    for role in roles.ALL_ROLES:
        response = clients[role].get(url)
        if role not in LETTERS:  # officers and the machine: not staff
            assert response.status_code == 302 and "/admin/login/" in response["Location"], (name, role)
        elif name == "admin:tables_controlline_correct":
            assert response.status_code == 404, (name, role, response.status_code)
        elif LETTERS[role] in allowed:
            assert response.status_code == 200, (name, role, response.status_code)
            if not response.streaming:  # the report's PDF is streamed
                assert 'class="errorlist' not in response.content.decode(), (name, role)
        elif LETTERS[role] in refused:
            assert response.status_code == 200, (name, role, response.status_code)
            with override("fr"):
                message = escape(str(ACTS[act].message))
            page = response.content.decode()
            assert message in page and "FR art." in page, (name, role)
            posted = clients[role].post(url, {})
            assert posted.status_code == 200 and message in posted.content.decode(), (name, role)
        else:
            expected = 404 if name == "admin:audit_report_download" else 403
            assert response.status_code == expected, (name, role, response.status_code)
    assert clients["anonymous"].get(url).status_code == 302
