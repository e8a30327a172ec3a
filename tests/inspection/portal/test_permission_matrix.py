"""Every URL of the portal and the API × every role and anonymous.

The list of endpoints is read from the URL resolver: an endpoint under
``/inspection/`` or ``/api/`` without an expectation here fails the test, so
the matrix is complete by construction. Officers get every read and only their
visas and incident closures as writes; every other role gets a 404; anonymous
visitors are sent to the login (portal) or refused (API).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import get_resolver, reverse

from casino_ops import roles
from inspection.portal import access
from tests.support.permission_matrix import (
    ACT_TABLE,
    ADMIN_ACTS,
    ADMIN_READS,
    ALL_LETTERS,
    APIS,
    EXPECTATIONS,
    LETTERS,
    OTHER_ROLES,
    READS,
    REFUSED_ON_PAGE,
    STAFF,
    WRITES,
    Api,
    Read,
    Write,
    admin_act_urls,
    admin_url,
    check_read,
    guarded_endpoints,
    views_by_name,
)
from tests.support.samples import (  # noqa: F401 - made once for the module
    Samples,
    module_casino,
    module_clients,
    module_devices,
    module_samples,
    module_users,
)


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


@pytest.mark.django_db
@pytest.mark.parametrize("name", READS)
def test_reads(name: str, clients: dict[str, Any], samples: Samples) -> None:
    expectation: Read = EXPECTATIONS[name]
    variants = expectation.kwargs(samples)
    for kwargs in variants if isinstance(variants, list) else [variants]:
        check_read(name, expectation, reverse(name, kwargs=kwargs) + expectation.query, clients)


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
@pytest.mark.parametrize("name", APIS)
def test_apps_api_by_the_access_table(name: str, clients: dict[str, Any], samples: Samples) -> None:
    """Each role reads as written out; a POST is answered as ACT_TABLE says of its acts: its
    writers get the refusal of an empty body (400), anyone else the act's refusal (403, with its
    article); an endpoint performing no act takes no POST."""
    expectation: Api = EXPECTATIONS[name]
    url = reverse(name, kwargs=expectation.kwargs(samples))
    writers = "".join(ACT_TABLE[act][0] for act in expectation.acts)
    for role in roles.ALL_ROLES:
        letter = ALL_LETTERS[role]
        response = clients[role].get(url)
        assert response.status_code == (200 if letter in expectation.read else 403), (name, role)
        response = clients[role].post(url, data=b"{}", content_type="application/json")
        if letter in writers:
            assert response.status_code == 400, (name, role, response.status_code)  # an empty body
        elif expectation.acts:
            assert response.status_code == 403, (name, role, response.status_code)
            refusal = response.json()
            assert refusal["article"] == ACT_TABLE[expectation.acts[0]][1], (name, role, refusal)
            assert refusal["field"] == "actor" and refusal["code"], (name, role, refusal)
        else:
            assert response.status_code in (403, 405), (name, role, response.status_code)
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


def test_every_admin_act_page_has_an_expectation() -> None:
    from tables.admin import SESSION_ACTS

    listed = {name.split("/")[0] for name in [*ADMIN_ACTS, *ADMIN_READS]}
    assert listed == admin_act_urls(), sorted(listed ^ admin_act_urls())
    session_acts = {name.split("/")[1] for name in ADMIN_ACTS if name.startswith("admin:tables_session_act/")}
    assert session_acts == set(SESSION_ACTS)


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted([*ADMIN_ACTS, *ADMIN_READS]))
def test_admin_act_pages(name: str, clients: dict[str, Any], samples: Samples) -> None:
    from django.utils.html import escape
    from django.utils.translation import override

    from casino_ops.access import ACTS

    url = admin_url(name, samples)
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
            article = ACT_TABLE[act][1] if act in ACT_TABLE else "FR art."  # "": the text names nobody
            assert message in page and (not article or article in page), (name, role)
            posted = clients[role].post(url, {})
            assert posted.status_code == 200 and message in posted.content.decode(), (name, role)
        else:
            expected = 404 if name == "admin:inspection_report_download" else 403
            assert response.status_code == expected, (name, role, response.status_code)
    assert clients["anonymous"].get(url).status_code == 302
