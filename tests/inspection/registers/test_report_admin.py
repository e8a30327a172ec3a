"""The admin of printed registers: ask, follow the progress, download; checkpoints."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from audit.models import Checkpoint
from inspection.models import RegisterPart, Report, ReportPart
from inspection.registers.parts import progress_of


def _period() -> dict[str, str]:
    today = timezone.localdate()
    return {"date_from": (today - dt.timedelta(days=30)).isoformat(), "date_to": today.isoformat()}


@pytest.mark.django_db
def test_the_person_who_asks_follows_the_report_and_downloads_it(
    client: Any, users: dict[str, Any], signing_configured: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from django.contrib.auth import get_user_model

    # a model permission opens no act: a clerk holding the report's add permission asks nothing
    # (casino_ops.access: Act.REQUEST_REGISTER, management's)
    clerk = get_user_model().objects.create_user("clerk", password="pw", is_staff=True)
    clerk.user_permissions.add(*Permission.objects.filter(codename__in=["add_report", "view_report"]))
    client.force_login(clerk)
    response = client.post(reverse("admin:inspection_report_add"), {"register": "order-book", **_period()})
    assert response.status_code == 403 and not Report.objects.exists()

    member = users["comite_direction"]
    client.force_login(member)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:inspection_report_add"), {"register": "order-book", **_period()}
        )
    assert response.status_code == 302
    report = Report.objects.get()
    assert report.requested_by == member and report.state == Report.State.DONE

    page = client.get(reverse("admin:inspection_report_changelist")).content.decode()
    assert '<progress value="100"' in page and "télécharger" in page
    download = client.get(reverse("admin:inspection_report_download", args=[report.pk]))
    assert download.status_code == 200 and b"".join(download.streaming_content).startswith(b"%PDF-")

    # someone else's report is neither listed nor downloadable for a clerk; management sees all
    client.force_login(clerk)
    link = reverse("admin:inspection_report_download", args=[report.pk])
    assert link not in client.get(reverse("admin:inspection_report_changelist")).content.decode()
    assert client.get(link).status_code == 404
    client.force_login(users["directeur"])
    assert link in client.get(reverse("admin:inspection_report_changelist")).content.decode()
    assert client.get(reverse("admin:inspection_report_download", args=[report.pk])).status_code == 200


@pytest.mark.django_db
def test_a_bad_request_in_the_admin_says_what_and_where(client: Any, director: Any, settings: Any) -> None:
    client.force_login(director)
    response = client.post(
        reverse("admin:inspection_report_add"),
        {"register": "advance-book", "date_from": "2026-02-01", "date_to": "2026-02-02"},
    )
    assert response.status_code == 200 and not Report.objects.exists()
    assert "indiquez le numéro de table" in response.content.decode()
    settings.SIGNING_PKCS12 = ""
    response = client.post(reverse("admin:inspection_report_add"), {"register": "order-book", **_period()})
    assert "Aucun certificat de signature" in response.content.decode()


@pytest.mark.django_db
def test_checkpoints_are_listed_and_exported_from_the_admin(
    client: Any, director: Any, casino: Any, signing_configured: Any
) -> None:
    from audit.checkpoints import make_checkpoint
    from audit.signing import verify_data

    made = make_checkpoint()
    client.force_login(director)
    assert made.head_hash in client.get(reverse("admin:audit_checkpoint_changelist")).content.decode()
    response = client.post(
        reverse("admin:audit_checkpoint_changelist"),
        {"action": "export_checkpoints", "_selected_action": [made.pk]},
    )
    assert response["Content-Type"] == "application/pkcs7-mime"
    assert verify_data(response.content).ok
    assert Checkpoint.objects.count() == 1


@pytest.mark.django_db
def test_a_checkpoint_page_says_what_was_signed_in_words(
    client: Any, director: Any, casino: Any, signing_configured: Any
) -> None:
    """Each value of the signed statement under its label, in the page's language; the signed
    bytes (the canonical JSON the signature covers) only as a caption under them."""
    import json

    from audit.checkpoints import make_checkpoint
    from tests.support.pages import visible_text

    made = make_checkpoint()
    assert made is not None
    client.force_login(director)
    page = client.get(
        reverse("admin:audit_checkpoint_change", args=[made.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    shown = visible_text(page)
    assert '{"' not in shown, shown
    signed = json.loads(made.statement)
    for label in ("Statement type", "Tree size", "Signed statement"):
        assert label.lower() in shown.lower(), label
    assert signed["hash"] in page and signed["root"] in page
    assert made.statement.replace('"', "&quot;") in page  # the signed bytes, as a caption


@pytest.mark.django_db
def test_a_report_page_opens_for_whoever_asked_it(client: Any, director: Any) -> None:
    report = Report.objects.create(
        key="y" * 64,
        register="incidents",
        date_from=dt.date(2026, 1, 1),
        date_to=dt.date(2026, 1, 2),
        requested_by=director,
    )
    client.force_login(director)
    url = reverse("admin:inspection_report_change", args=[report.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert "incidents" in page.content.decode().lower()
    # a POST on the read-only page changes nothing and is no 500
    assert client.post(url, {"register": "order-book"}).status_code == 403
    report.refresh_from_db()
    assert report.register == "incidents"


@pytest.mark.django_db
@pytest.mark.parametrize("period", [("9999-12-30", "9999-12-31"), ("0001-01-01", "0001-01-02")])
def test_an_absurd_period_is_refused_on_the_report_form(client: Any, director: Any, period: Any) -> None:
    client.force_login(director)
    response = client.post(
        reverse("admin:inspection_report_add"),
        {"register": "order-book", "date_from": period[0], "date_to": period[1]},
    )
    assert response.status_code == 200 and not Report.objects.exists()
    assert "date_from" in response.context["adminform"].form.errors


@pytest.mark.django_db
def test_the_parts_done_over_the_parts_show_in_the_admin_and_the_portal(
    client: Any, users: dict[str, Any], settings: Any
) -> None:
    from casino_ops import roles

    settings.TWO_FACTOR_REQUIRED = False
    start, end = dt.date(2025, 1, 1), dt.date(2025, 3, 31)
    report = Report.objects.create(
        key="p" * 64,
        register="depot-log",
        date_from=start,
        date_to=end,
        state=Report.State.RUNNING,
        progress=35,
    )
    stored = RegisterPart.objects.create(
        key="k" * 64,
        register="depot-log",
        date_from=start,
        date_to=dt.date(2025, 1, 31),
        content_hash="c" * 64,
        file="registers/parts/x.pdf",
        sha256="s" * 64,
        pages=1,
        rows=0,
    )
    for n, (a, b) in enumerate([(1, 31), (2, 28), (3, 31)], 1):
        ReportPart.objects.create(
            report=report,
            number=n,
            date_from=dt.date(2025, a, 1),
            date_to=dt.date(2025, a, b),
            part=stored if n == 1 else None,
        )
    assert progress_of(report) == (1, 3) and report.period_parts.done() == 1

    client.force_login(users[roles.DIRECTOR])
    page = client.get(reverse("admin:inspection_report_changelist")).content.decode()
    assert "Parties faites" in page and '<td class="field-parts_progress">1 / 3</td>' in page

    officer = Client()
    officer.force_login(users[roles.OFFICER])
    page = officer.get(
        reverse("portal:register", args=["depot-log"]),
        {"date_from": start.isoformat(), "date_to": end.isoformat()},
    ).content.decode()
    assert "parties faites : 1 / 3" in page
