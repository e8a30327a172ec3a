"""The portal's screens in each language: days and amounts in that language's one format
(casino_ops.dates), the proofs page translated with the CA certificate to download, the
audit trail naming fields by their labels, and the checker's and login's errors announced."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from casino_ops import dates
from tests.support.samples import (  # noqa: F401 - made once for the module
    Samples,
    module_casino,
    module_clients,
    module_devices,
    module_samples,
    module_users,
)


def _main(client: Any, url: str, language: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode().split("<main", 1)[1]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "day", "advance"),
    [("fr", "30/11/2026", "30\u202f000,00"), ("en", "11/30/2026", "30,000.00")],
)
def test_a_session_reads_in_the_languages_one_format(
    officer_client: Any, samples: Samples, language: str, day: str, advance: str
) -> None:
    for url in (reverse("portal:sessions"), reverse("portal:session", args=[samples.session.pk])):
        page = _main(officer_client, url, language)
        assert day in page and advance in page, url
        assert "30000" not in page, url  # never an amount without its thousands


@pytest.mark.django_db
def test_the_proofs_page_is_translated_and_offers_the_ca_certificate(
    officer_client: Any, samples: Samples, signing: Any
) -> None:
    samples.checkpoint  # noqa: B018 - one signed checkpoint listed
    url = reverse("portal:proofs")
    french = _main(officer_client, url, "fr")
    english = _main(officer_client, url, "en")
    for words in (
        "Preuves de l",
        "Événements",
        "Signé le",
        "Télécharger la preuve",
        "Points de contrôle signés",
    ):
        assert words in french
        assert words not in english, words
    for words in ("Events", "Signed at", "Download the proof", "Signed checkpoints"):
        assert words in english, words
    with translation.override("en"):
        assert dates.moment(samples.checkpoint.made_at, seconds=True) in english
    assert 'href="' + reverse("portal:proof_ca") + '"' in english

    response = officer_client.get(reverse("portal:proof_ca"))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="ca.pem"'
    assert response.content == signing.ca_pem.read_bytes()  # the authority that issued the signer


@pytest.mark.django_db
def test_the_ca_certificate_is_not_offered_without_a_signing_certificate(
    officer_client: Any, samples: Samples, settings: Any
) -> None:
    settings.SIGNING_PKCS12 = ""
    assert reverse("portal:proof_ca") not in _main(officer_client, reverse("portal:proofs"), "fr")
    assert officer_client.get(reverse("portal:proof_ca")).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "label", "amount", "day"),
    [
        ("fr", "montant de l'avance", "30\u202f000,00", "30/11/2026"),
        ("en", "cash advance amount", "30,000.00", "11/30/2026"),
    ],
)
def test_the_audit_trail_names_fields_by_their_labels(
    officer_client: Any, samples: Samples, language: str, label: str, amount: str, day: str
) -> None:
    page = _main(officer_client, reverse("portal:audit_trail") + "?action=session.opened", language)
    contents = html.unescape(page.split("<details>", 1)[1].split("</details>", 1)[0])
    # the session's own fields by their verbose names, never the raw keys
    for raw in (
        "advance_amount",
        "maximum_fixed_by",
        "ministry_notified_on",
        "authorised_minimum",
        "counted_by",
    ):
        assert raw not in contents, raw
        assert language == "en" or raw.replace("_", " ") not in contents, raw
    assert label in contents.lower()
    assert amount in contents and "30000.00" not in contents
    assert day in contents and "2026-11-30" not in contents
    assert not re.search(r"\d{4}-\d\d-\d\dT", contents)  # no ISO moment left
    assert "initial_advance" not in contents  # a choice by its label


def _described_ids_exist(page: str) -> list[str]:
    """The ids that an ``aria-describedby`` names and that the page does not hold."""
    ids = set(re.findall(r'\bid="([^"]+)"', page))
    named = {i for value in re.findall(r'aria-describedby="([^"]+)"', page) for i in value.split()}
    return sorted(named - ids)


@pytest.mark.django_db
def test_every_error_has_the_id_its_input_points_to(officer_client: Any, samples: Samples) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    bad_pdf = officer_client.post(
        reverse("portal:signature_checker"), {"pdf": SimpleUploadedFile("x.pdf", b"not a pdf")}
    )
    bad_proof = officer_client.get(reverse("portal:proofs") + "?proof=inclusion&i-seq=abc")
    bad_period = officer_client.get(
        reverse("portal:register", args=["receipt-book"]) + "?date_from=2026-13-01&date_to=x"
    )
    bad_book = officer_client.get(reverse("portal:advance_book") + "?table=abc&date_from=x")
    for response in (bad_pdf, bad_proof, bad_period, bad_book):
        page = response.content.decode()
        assert 'aria-invalid="true"' in page, response.request["PATH_INFO"]
        assert _described_ids_exist(page) == [], response.request["PATH_INFO"]


@pytest.mark.django_db
def test_a_failed_login_and_the_checkers_verdict_take_the_focus(
    client: Any, officer_client: Any, samples: Samples
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    refused = client.post(
        reverse("portal:login"), {"username": "u_officier", "password": "wrong", "code": "000000"}
    ).content.decode()
    alert = re.search(r'<div class="error" role="alert"[^>]*>', refused)
    assert alert and "autofocus" in alert.group(0) and 'tabindex="-1"' in alert.group(0)
    assert _described_ids_exist(refused) == []

    verdict = officer_client.post(
        reverse("portal:signature_checker"),
        {"pdf": SimpleUploadedFile("r.pdf", samples.report.file.open("rb").read(), "application/pdf")},
    ).content.decode()
    section = re.search(r'<section class="card verdict[^>]*>', verdict)
    assert section and "autofocus" in section.group(0) and 'tabindex="-1"' in section.group(0)
